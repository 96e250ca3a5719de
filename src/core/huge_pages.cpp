// Huge pages for the heap (see huge_pages.hpp). glibc does this itself with the tunable
// glibc.malloc.hugetlb=1 (each heap extension marked MADV_HUGEPAGE); done from inside the
// process, every run gets it without an environment variable. malloc is told to grow the heap
// once by kReserve of address space (pages are made only when first touched, so the resident
// size does not grow with it), to serve requests up to 32 MiB from the heap (the packet pool's
// chunks and the long rings, otherwise separate mappings) and never to trim it (a trimmed and
// regrown heap is a new mapping without the mark); that extension is marked at once.
// FASTSIM_HUGE_PAGES=off in the environment leaves malloc as it is (docs/performance.md).
#include "fastsim/core/huge_pages.hpp"

#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdlib>  // defines __GLIBC__ under glibc
#include <cstring>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace fastsim {

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
}  // namespace

void back_heap_with_huge_pages() {
#if defined(__linux__) && defined(__GLIBC__) && defined(MADV_HUGEPAGE)
  const char* setting = std::getenv("FASTSIM_HUGE_PAGES");
  if (kSanitized || (setting != nullptr && std::strcmp(setting, "off") == 0))
    return;
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  constexpr int kReserve = 1 << 30;          // address space, not memory
  constexpr int kLargestOnHeap = 32 << 20;   // glibc's largest mmap threshold
  constexpr int kDefaultTopPad = 128 << 10;  // glibc's M_TOP_PAD default
  mallopt(M_MMAP_THRESHOLD, kLargestOnHeap);
  mallopt(M_TRIM_THRESHOLD, INT_MAX);
  mallopt(M_TOP_PAD, kReserve);
  const auto before = reinterpret_cast<uintptr_t>(sbrk(0));
  void* probe = std::malloc(256 << 10);        // more than the heap's free top: it grows by kReserve
  asm volatile("" : : "r"(probe) : "memory");  // kept: GCC drops a malloc whose block is unused
  const auto after = reinterpret_cast<uintptr_t>(sbrk(0));
  std::free(probe);
  mallopt(M_TOP_PAD, kDefaultTopPad);  // growth past the reserve in the usual steps
  // Without the extension (brk refused, e.g. under an address-space limit, or another
  // allocator) nothing is marked: the run is only slower.
  const uintptr_t begin = (before + kHuge - 1) & ~(kHuge - 1);
  if (after > begin + kHuge)
    madvise(reinterpret_cast<void*>(begin), (after - begin) & ~(kHuge - 1), MADV_HUGEPAGE);
#endif
}

}  // namespace fastsim
