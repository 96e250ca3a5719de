// The heap's huge pages (src/core/huge_pages.cpp): what back_heap_with_huge_pages() says it
// marked is marked in /proc/self/smaps (flag "hg"), the next blocks come from it, and
// release_free_heap_memory() (the trim before a sweep forks its workers) leaves the heap marked,
// also when the heap has free blocks in its middle (a run's freed state) larger than the probe
// the reserve is made with. Each check runs in a forked child: the heap and malloc's settings
// are the process's, and the tests before it in this binary leave free blocks of their own.
// FASTSIM_HUGE_PAGES is parsed strictly. Their effect on speed is a benchmark's business
// (docs/performance.md); that outputs never depend on them is tests/scenario/cli_test.cpp's
// determinism test.
#include <catch2/catch.hpp>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fastsim/core/huge_pages.hpp"

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

namespace {

/// Whether every byte of [begin, end) lies in mappings whose VmFlags include "hg".
[[maybe_unused]] bool marked_for_huge_pages(uintptr_t begin, uintptr_t end) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  uintptr_t map_begin = 0, map_end = 0, covered_to = begin;
  while (std::getline(smaps, line)) {
    // A mapping's first line: "55d0a1c00000-55d0e1c00000 rw-p ..."; its fields: "Size:  4 kB".
    const std::string first = line.substr(0, line.find(' '));
    if (first.find('-') != std::string::npos && first.find_first_not_of("0123456789abcdef-") == std::string::npos) {
      map_begin = std::strtoull(first.c_str(), nullptr, 16);
      map_end = std::strtoull(first.c_str() + first.find('-') + 1, nullptr, 16);
    } else if (line.starts_with("VmFlags:") && map_begin <= covered_to && covered_to < map_end) {
      std::istringstream flags(line.substr(8));
      std::string f;
      while (flags >> f) {
        if (f == "hg")
          covered_to = map_end;
      }
    }
  }
  return covered_to >= end;
}

[[maybe_unused]] bool inside(const void* block, const fastsim::HugePageRange& range) {
  const auto a = reinterpret_cast<uintptr_t>(block);
  return range.begin <= a && a < range.end;
}

#if defined(__linux__) && defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
/// What is wrong with a range back_heap_with_huge_pages() or release_free_heap_memory() marked,
/// "" when nothing: about 1 GiB plus the free top below it, marked "hg", ending at the heap's top.
std::string range_fault(const fastsim::HugePageRange& range, const char* what) {
  const std::string name = what;
  if (range.empty())
    return name + ": nothing marked";
  if (range.bytes() < (uint64_t{1} << 30) || range.bytes() > (uint64_t{1} << 30) + (uint64_t{32} << 20))
    return name + ": " + std::to_string(range.bytes()) + " bytes marked, not 1 GiB plus a free top under 32 MiB";
  if (!marked_for_huge_pages(range.begin, range.end))
    return name + ": not every page of the range is marked hg in /proc/self/smaps";
  if (reinterpret_cast<uintptr_t>(sbrk(0)) != range.end)
    return name + ": the range does not end at the heap's top";
  return "";
}

/// Runs `body` in a forked child and returns what it reported ("" when all held; "refused"
/// when the machine refused the reserve or the mark before any check).
template <typename Body>
std::string in_child(Body body) {
  int fds[2];
  if (pipe(fds) != 0)
    return "pipe failed";
  const pid_t pid = fork();
  if (pid < 0)
    return "fork failed";
  if (pid == 0) {
    close(fds[0]);
    // The heap as the earlier tests left it: its free top given back first, so that the
    // marked range is the reserve plus less than 32 MiB (a large free top would take the
    // first probe). No exception may reach Catch here: the child would run the rest of the
    // tests as a second copy.
    malloc_trim(0);
    std::string report;
    try {
      report = body();
    } catch (...) {
      _exit(2);
    }
    const ssize_t written = write(fds[1], report.data(), report.size());
    _exit(written == static_cast<ssize_t>(report.size()) ? 0 : 1);
  }
  close(fds[1]);
  std::string report;
  char buffer[512];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;)
    report.append(buffer, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  pid_t waited = 0;
  do
    waited = waitpid(pid, &status, 0);
  while (waited < 0 && errno == EINTR);
  if (waited != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return "the child did not exit cleanly: " + report;
  return report;
}

/// What in_child() reported: "" passes; "refused" (the machine refused the reserve or the
/// mark: an address-space limit, a kernel without THP, strict overcommit; the runs are only
/// slower, and nothing here can check the mark then) is a warning; anything else fails.
void check_report(const std::string& report) {
  if (report == "refused") {
    WARN("the heap's reserve or its huge-page mark was refused on this machine");
    return;
  }
  CHECK(report == "");
}
#endif

}  // namespace

TEST_CASE("FASTSIM_HUGE_PAGES: on and off in their usual spellings, anything else refused", "[unit][huge-pages]") {
  using fastsim::parse_huge_pages_setting;
  CHECK(parse_huge_pages_setting(nullptr) == true);
  CHECK(parse_huge_pages_setting("") == true);  // set empty: as unset
  for (const char* on : {"on", "1", "true", "yes"})
    CHECK(parse_huge_pages_setting(on) == true);
  for (const char* off : {"off", "0", "false", "no"})
    CHECK(parse_huge_pages_setting(off) == false);
  for (const char* other : {"OFF", "of", "2", "disable"})
    CHECK_FALSE(parse_huge_pages_setting(other).has_value());
}

TEST_CASE("the heap malloc grows from is marked for huge pages, and stays marked after a trim",
          "[unit][huge-pages]") {
#if defined(__SANITIZE_ADDRESS__)
  CHECK(fastsim::back_heap_with_huge_pages().empty());  // AddressSanitizer's allocator is not glibc's
#elif defined(__linux__) && defined(__GLIBC__)
  const std::string report = in_child([] {
    const fastsim::HugePageRange marked = fastsim::back_heap_with_huge_pages();
    if (marked.empty())
      return std::string("refused");
    if (auto fault = range_fault(marked, "at start"); !fault.empty())
      return fault;
    // The next blocks come from it, a pool chunk's size included (kept off separate mappings).
    void* block = std::malloc(1 << 20);
    void* chunk = std::malloc(8 << 20);
    const bool both_inside = inside(block, marked) && inside(chunk, marked);
    std::free(chunk);
    std::free(block);
    if (!both_inside)
      return std::string("a 1-MiB block or an 8-MiB chunk came from outside the marked range");
    // malloc_trim shrinks the heap below the reserve; the reserve is made and marked again.
    const fastsim::HugePageRange again = fastsim::release_free_heap_memory();
    if (auto fault = range_fault(again, "after a trim"); !fault.empty())
      return fault;
    void* later = std::malloc(1 << 20);
    const bool later_inside = inside(later, again);
    std::free(later);
    return later_inside ? std::string() : std::string("after a trim, a 1-MiB block came from outside");
  });
  check_report(report);
#else
  CHECK(fastsim::back_heap_with_huge_pages().empty());
  CHECK(fastsim::release_free_heap_memory().empty());
#endif
}

TEST_CASE("after a trim, the reserve is made again past free blocks in the heap's middle, small or large",
          "[unit][huge-pages]") {
#if defined(__linux__) && defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
  // What a run leaves: its state freed between blocks still in use. Small free blocks (1 MiB
  // each, 64 MiB in all) would serve a probe sized from the free top alone; two of 62 MiB are
  // larger than the largest probe below the mmap threshold, so probes take them first.
  for (const size_t block_bytes : {size_t{1} << 20, size_t{31} << 20}) {
    const int pairs = block_bytes == (size_t{1} << 20) ? 32 : 2;
    INFO("free blocks of " << 2 * block_bytes << " bytes in the middle");
    const std::string report = in_child([&] {
      if (fastsim::back_heap_with_huge_pages().empty())
        return std::string("refused");
      std::vector<void*> freed, kept;
      freed.reserve(2 * pairs);  // no vector growth between the blocks
      kept.reserve(size_t{1} << 17);
      for (int i = 0; i < pairs; ++i) {
        freed.push_back(std::malloc(block_bytes));
        freed.push_back(std::malloc(block_bytes));  // adjacent: the two merge when freed
        // A block in use above the pair keeps it off the free top: small blocks, until one
        // comes from above it rather than from a free block lower in the heap.
        do
          kept.push_back(std::malloc(4096));
        while (kept.back() < freed.back() && kept.size() < kept.capacity());
      }
      for (void* block : freed)
        std::free(block);
      const std::string fault = range_fault(fastsim::release_free_heap_memory(), "after a trim");
      const size_t free_in_middle = mallinfo2().fordblks - mallinfo2().keepcost;
      for (void* block : kept)
        std::free(block);
      if (free_in_middle < 2 * pairs * block_bytes)
        return "the test's free blocks did not stay in the heap's middle (" + std::to_string(free_in_middle) +
               " bytes free there)";
      return fault;
    });
    check_report(report);
  }
#else
  CHECK(fastsim::release_free_heap_memory().empty());
#endif
}

TEST_CASE("a driver that forks workers takes the mark off its heap; a worker's trim marks its own free top",
          "[unit][huge-pages]") {
  // khugepaged collapses a marked 2-MiB range with one page in use into a resident huge page:
  // a sweep's driver alive past its scan period made up to 10 MB more resident, which every
  // worker forked from it counted in its peak RSS.
#if defined(__linux__) && defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
  const std::string report = in_child([] {
    const fastsim::HugePageRange marked = fastsim::back_heap_with_huge_pages();
    if (marked.empty())
      return std::string("refused");
    std::vector<void*> in_use;  // the driver's plan and the like, in the marked range
    for (int i = 0; i < 64; ++i)
      in_use.push_back(std::malloc(64 << 10));
    fastsim::unmark_heap_for_forking();
    const auto top = reinterpret_cast<uintptr_t>(sbrk(0));
    std::string fault;
    // No page of the heap keeps the mark ("hg"), not even one of the range marked at start.
    for (uintptr_t page = marked.begin; page < top && fault.empty(); page += uintptr_t{64} << 20) {
      if (marked_for_huge_pages(page, page + 4096))
        fault = "a page of the heap is still marked hg after unmark_heap_for_forking()";
    }
    if (fault.empty()) {  // what a forked worker does first
      const fastsim::HugePageRange again = fastsim::release_free_heap_memory();
      fault = range_fault(again, "the worker's trim");
      void* block = std::malloc(1 << 20);
      if (fault.empty() && !inside(block, again))
        fault = "the worker's next block came from outside its marked range";
      std::free(block);
    }
    for (void* p : in_use)
      std::free(p);
    return fault;
  });
  check_report(report);
#else
  fastsim::unmark_heap_for_forking();  // nothing to do: no mark was made
  CHECK(fastsim::release_free_heap_memory().empty());
#endif
}
