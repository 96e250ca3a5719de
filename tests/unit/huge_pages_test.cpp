// back_heap_with_huge_pages(): the heap malloc grows from is marked for transparent huge pages
// (the "hg" flag of /proc/self/smaps), and nothing is marked under AddressSanitizer, whose
// allocator is not glibc's. Its effect on speed is a benchmark's business (docs/performance.md);
// that outputs never depend on it is tests/scenario/cli_test.cpp's determinism test.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "fastsim/core/huge_pages.hpp"

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

/// Bytes of the process's mappings whose VmFlags include "hg" (MADV_HUGEPAGE).
uint64_t bytes_marked_for_huge_pages() {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  uint64_t size = 0, marked = 0;
  while (std::getline(smaps, line)) {
    if (line.starts_with("Size:")) {
      size = std::strtoull(line.c_str() + 5, nullptr, 10) * 1024;  // "Size:   1048576 kB"
    } else if (line.starts_with("VmFlags:")) {
      std::istringstream flags(line.substr(8));
      std::string f;
      while (flags >> f) {
        if (f == "hg")
          marked += size;
      }
    }
  }
  return marked;
}

}  // namespace

TEST_CASE("the heap malloc grows from is marked for huge pages", "[unit][huge-pages]") {
#if defined(__linux__) && defined(__GLIBC__)
  const uint64_t before = bytes_marked_for_huge_pages();
  const char* setting = std::getenv("FASTSIM_HUGE_PAGES");
  REQUIRE((setting == nullptr || std::string(setting) != "off"));
  fastsim::back_heap_with_huge_pages();
  const uint64_t marked = bytes_marked_for_huge_pages() - before;
  if (kSanitized) {
    CHECK(marked == 0);
  } else {
    // The reserve is 1 GiB of address space, less the alignment to 2-MiB pages at its ends.
    CHECK(marked >= (uint64_t{1} << 30) - (uint64_t{4} << 20));
    CHECK(marked <= (uint64_t{1} << 30) + (uint64_t{2} << 20));
    // The next blocks come from it: a 1-MiB block lies in the marked range.
    void* block = std::malloc(1 << 20);
    CHECK(block != nullptr);
    std::free(block);
  }
#else
  SUCCEED("huge pages are marked only under Linux with glibc");
#endif
}
