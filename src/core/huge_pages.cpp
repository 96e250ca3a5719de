// Huge pages for the heap (see huge_pages.hpp). glibc does this itself with the tunable
// glibc.malloc.hugetlb=1 (each heap extension marked MADV_HUGEPAGE); done from inside the
// process, every run gets it without an environment variable. malloc is told to grow the heap
// once by kReserve of address space (pages are made only when first touched, so the resident
// size does not grow with it), to serve requests up to 32 MiB from the heap (the packet pool's
// chunks and the long rings, otherwise separate mappings) and not to trim it on free (a trimmed
// and regrown heap is a new mapping without the mark); that extension is marked at once. An
// explicit malloc_trim does shrink it, hence release_free_heap_memory() (docs/performance.md).
#include "fastsim/core/huge_pages.hpp"

#include <algorithm>
#include <climits>
#include <cstdlib>  // defines __GLIBC__ under glibc
#include <cstring>
#include <fstream>
#include <vector>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace fastsim {

namespace {

#if defined(__SANITIZE_ADDRESS__)
[[maybe_unused]] constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
[[maybe_unused]] constexpr bool kSanitized = true;
#else
[[maybe_unused]] constexpr bool kSanitized = false;
#endif
#else
[[maybe_unused]] constexpr bool kSanitized = false;
#endif

// glibc's largest mmap threshold: blocks below it (the pool's chunks, the long rings) stay on
// the heap.
[[maybe_unused]] constexpr std::size_t kMmapThreshold = std::size_t{32} << 20;

[[maybe_unused]] bool heap_backed = false;  // set by a successful back_heap_with_huge_pages()

#if defined(__linux__) && defined(__GLIBC__) && defined(MADV_HUGEPAGE)
struct FreeHeap {
  std::size_t all;   // every free byte malloc holds: the top, the bins, the fast bins
  std::size_t top;   // the free top, where the heap grows
  std::size_t heap;  // what brk gave malloc (summed over arenas: fastsim allocates from one thread)
};

FreeHeap free_heap() {
#if __GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33)
  const auto info = mallinfo2();
  return {info.fordblks, info.keepcost, info.arena};
#else
  const auto info = mallinfo();
  return {static_cast<unsigned>(info.fordblks), static_cast<unsigned>(info.keepcost),
          static_cast<unsigned>(info.arena)};
#endif
}

/// Under strict overcommit (vm.overcommit_memory = 2) the reserve would count against the
/// commit limit like memory in use, in every process and forked worker: not made there.
bool overcommit_is_strict() {
  std::ifstream mode("/proc/sys/vm/overcommit_memory");
  int value = 0;
  return (mode >> value) && value == 2;
}

/// Grows the heap by the reserve (one brk) and marks its free top, where the next blocks come
/// from; empty when either is refused.
HugePageRange reserve_and_mark() {
  constexpr std::size_t kReserve = std::size_t{1} << 30;  // address space, not memory
  constexpr int kDefaultTopPad = 128 << 10;               // glibc's M_TOP_PAD default
  mallopt(M_TOP_PAD, static_cast<int>(kReserve));  // (consolidates the fast bins: read after it)
  // The heap grows only for a request no free block can serve. A probe larger than all free
  // bytes together is one; it must also stay below the mmap threshold (else it is a mapping of
  // its own), so when more is free than that, probes just below the threshold take the free
  // blocks that large until one comes from the top (at most one per probe's size free).
  const std::size_t free_bytes = free_heap().all;
  const std::size_t probe_size = std::min(free_bytes + (64 << 10), kMmapThreshold - (64 << 10));
  std::vector<void*> probes;
  probes.reserve(free_bytes / probe_size + 2);
  const auto before = reinterpret_cast<std::uintptr_t>(sbrk(0));
  const std::uintptr_t heap_begin = before - free_heap().heap;
  auto after = before;
  while (probes.size() < probes.capacity()) {
    void* probe = std::malloc(probe_size);
    asm volatile("" : : "r"(probe) : "memory");  // kept: GCC drops a malloc whose block is unused
    probes.push_back(probe);
    after = reinterpret_cast<std::uintptr_t>(sbrk(0));
    // Go on only while the probes come from free blocks of the heap as it was; one from
    // anywhere else (the grown heap, or a mapping when brk was refused) ends it.
    const auto at = reinterpret_cast<std::uintptr_t>(probe);
    if (after != before || probe == nullptr || at < heap_begin || at >= before)
      break;
  }
  for (void* probe : probes)
    std::free(probe);
  // Splitting a probe off a free block wrote a header into pages the trim had given back
  // (a whole huge page, in the marked part of the heap): given back again, the top kept.
  if (probes.size() > 1)
    malloc_trim(free_heap().top);
  mallopt(M_TOP_PAD, kDefaultTopPad);  // growth past the reserve in the usual steps
  // Without the extension (brk refused, e.g. under an address-space limit) nothing is marked:
  // malloc went on elsewhere and the run is only slower.
  if (after < before + kReserve)
    return {};
  // The free top (the extension and what was free below it) from the start of its page: that
  // page's live blocks take the mark too, which is only a hint.
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const std::uintptr_t begin = (after - free_heap().top) & ~(page - 1);
  if (madvise(reinterpret_cast<void*>(begin), after - begin, MADV_HUGEPAGE) != 0)
    return {};  // a kernel without transparent huge pages
  return {begin, after};
}
#endif

}  // namespace

std::optional<bool> parse_huge_pages_setting(const char* value) {
  if (value == nullptr || *value == '\0')  // unset, or set empty (FASTSIM_HUGE_PAGES= in a job script)
    return true;
  for (const char* on : {"on", "1", "true", "yes"}) {
    if (std::strcmp(value, on) == 0)
      return true;
  }
  for (const char* off : {"off", "0", "false", "no"}) {
    if (std::strcmp(value, off) == 0)
      return false;
  }
  return std::nullopt;
}

HugePageRange back_heap_with_huge_pages() {
#if defined(__linux__) && defined(__GLIBC__) && defined(MADV_HUGEPAGE)
  if (kSanitized || overcommit_is_strict())
    return {};
  mallopt(M_MMAP_THRESHOLD, static_cast<int>(kMmapThreshold));
  mallopt(M_TRIM_THRESHOLD, INT_MAX);   // free() never shrinks the heap
  const HugePageRange marked = reserve_and_mark();
  heap_backed = !marked.empty();
  return marked;
#else
  return {};
#endif
}

void unmark_heap_for_forking() {
#if defined(__linux__) && defined(__GLIBC__) && defined(MADV_HUGEPAGE)
  if (!heap_backed)
    return;
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto end = reinterpret_cast<std::uintptr_t>(sbrk(0));
  const std::uintptr_t begin = (end - free_heap().heap) & ~(page - 1);
  (void)madvise(reinterpret_cast<void*>(begin), end - begin, MADV_NOHUGEPAGE);  // only a hint
#endif
}

HugePageRange release_free_heap_memory() {
#if defined(__linux__) && defined(__GLIBC__)
  malloc_trim(0);
#if defined(MADV_HUGEPAGE)
  if (heap_backed)
    return reserve_and_mark();
#endif
#endif
  return {};
}

}  // namespace fastsim
