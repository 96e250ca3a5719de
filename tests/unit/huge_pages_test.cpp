// The heap's huge pages (src/core/huge_pages.cpp): what back_heap_with_huge_pages() says it
// marked is marked in /proc/self/smaps (flag "hg"), the next blocks come from it, and
// release_free_heap_memory() (the trim before a sweep forks its workers) leaves the heap marked.
// FASTSIM_HUGE_PAGES is parsed strictly. Their effect on speed is a benchmark's business
// (docs/performance.md); that outputs never depend on them is tests/scenario/cli_test.cpp's
// determinism test.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "fastsim/core/huge_pages.hpp"

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

}  // namespace

TEST_CASE("FASTSIM_HUGE_PAGES: on and off in their usual spellings, anything else refused", "[unit][huge-pages]") {
  using fastsim::parse_huge_pages_setting;
  CHECK(parse_huge_pages_setting(nullptr) == true);
  for (const char* on : {"on", "1", "true", "yes"})
    CHECK(parse_huge_pages_setting(on) == true);
  for (const char* off : {"off", "0", "false", "no"})
    CHECK(parse_huge_pages_setting(off) == false);
  for (const char* other : {"", "OFF", "of", "2", "disable"})
    CHECK_FALSE(parse_huge_pages_setting(other).has_value());
}

TEST_CASE("the heap malloc grows from is marked for huge pages, and stays marked after a trim",
          "[unit][huge-pages]") {
  const fastsim::HugePageRange marked = fastsim::back_heap_with_huge_pages();
#if defined(__SANITIZE_ADDRESS__)
  CHECK(marked.empty());  // AddressSanitizer's allocator is not glibc's
#elif defined(__linux__) && defined(__GLIBC__)
  if (marked.empty()) {
    // Refused by this machine (an address-space limit, a kernel without THP): the runs are
    // only slower. Nothing here can check the mark then.
    WARN("the heap's reserve or its huge-page mark was refused on this machine");
    return;
  }
  // The heap's free top: the reserve of 1 GiB and what was free below it (under 32 MiB).
  CHECK(marked.bytes() >= (uint64_t{1} << 30));
  CHECK(marked.bytes() <= (uint64_t{1} << 30) + (uint64_t{32} << 20));
  CHECK(marked_for_huge_pages(marked.begin, marked.end));
  // The next blocks come from it, a pool chunk's size included (kept off separate mappings).
  void* block = std::malloc(1 << 20);
  void* chunk = std::malloc(8 << 20);
  CHECK(inside(block, marked));
  CHECK(inside(chunk, marked));
  std::free(chunk);
  std::free(block);

  // malloc_trim shrinks the heap below the reserve; the reserve is made and marked again.
  const fastsim::HugePageRange again = fastsim::release_free_heap_memory();
  REQUIRE_FALSE(again.empty());
  CHECK(again.bytes() >= (uint64_t{1} << 30));
  CHECK(again.bytes() <= (uint64_t{1} << 30) + (uint64_t{32} << 20));
  CHECK(marked_for_huge_pages(again.begin, again.end));
  void* later = std::malloc(1 << 20);
  CHECK(inside(later, again));
  std::free(later);
#else
  CHECK(marked.empty());
  CHECK(fastsim::release_free_heap_memory().empty());
#endif
}
