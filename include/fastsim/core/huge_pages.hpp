// Transparent huge pages for the simulation's heap: the packet pool, the links' rings and the
// per-flow state spread over tens of megabytes at many flows or large windows, and with 4-KiB
// pages most of their loads also miss the TLB (docs/performance.md, issue 18's twelfth round).
// Debian's kernels give huge pages only to memory marked MADV_HUGEPAGE (THP "madvise" mode).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

namespace fastsim {

/// The addresses [begin, end) of malloc's heap marked MADV_HUGEPAGE; empty when nothing was.
struct HugePageRange {
  std::uintptr_t begin = 0;
  std::uintptr_t end = 0;
  bool empty() const { return end <= begin; }
  std::size_t bytes() const { return empty() ? 0 : end - begin; }
};

/// The values FASTSIM_HUGE_PAGES takes, for the error message.
inline constexpr const char* kHugePagesValues = "on, off, 1, 0, true, false, yes, no";

/// FASTSIM_HUGE_PAGES read: unset or one of on/1/true/yes gives true, off/0/false/no gives
/// false, anything else nullopt (main() reports it and exits with the usage status).
std::optional<bool> parse_huge_pages_setting(const char* value);

/// Reserves 1 GiB of address space at the top of malloc's heap, keeps blocks up to 32 MiB on
/// the heap and marks the reserve as wanting huge pages (glibc on Linux). Returns what it
/// marked: empty under AddressSanitizer (whose allocator is not glibc's), on other platforms,
/// and when the reserve or the mark is refused (an address-space limit, a kernel without
/// THP), and under strict overcommit (vm.overcommit_memory = 2, where the reserve would count
/// against the commit limit in every process). Call once, at the start of main(), before the
/// large allocations. Outputs never depend on it, only the time.
HugePageRange back_heap_with_huge_pages();

/// Gives the heap's free pages back to the system (malloc_trim). Trimming also shrinks the
/// reserve, so in a process whose heap back_heap_with_huge_pages() backed, the reserve is made
/// and marked again: what comes next (a sweep's forked workers, a packed task's next run) has
/// it too. Returns the range marked again (empty when the heap was not backed).
HugePageRange release_free_heap_memory();

/// For a process that forks workers (a sweep's or a check's driver): takes the mark off its
/// whole heap. khugepaged collapses any marked 2-MiB range with a page in use, making all of
/// it resident, and a forked worker's peak resident size counts the driver's resident pages:
/// a driver alive longer than khugepaged's scan period (10 s by default) passed up to 10 MB
/// more to every worker (measured). Each worker calls release_free_heap_memory() first, which
/// marks its own free top again. Nothing happens where the heap was not backed.
void unmark_heap_for_forking();

}  // namespace fastsim
