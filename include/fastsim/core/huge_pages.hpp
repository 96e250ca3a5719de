// Transparent huge pages for the simulation's heap: the packet pool, the links' rings and the
// per-flow state spread over tens of megabytes at many flows or large windows, and with 4-KiB
// pages most of their loads also miss the TLB (docs/performance.md, issue 18's twelfth round).
// Debian's kernels give huge pages only to memory marked MADV_HUGEPAGE (THP "madvise" mode).
#pragma once

namespace fastsim {

/// Marks the heap that malloc grows from here on as wanting huge pages (glibc on Linux; a no-op
/// elsewhere and under AddressSanitizer, whose allocator is not glibc's). Call once, at the start
/// of main(), before the large allocations. Outputs never depend on it, only the time.
void back_heap_with_huge_pages();

}  // namespace fastsim
