// Out-of-order data held by a TCP receiver: disjoint, non-adjacent segment ranges above
// the cumulative ACK point, and the SACK blocks reported from them (RFC 2018 section 4).
// Kept in a Boost.Intrusive red-black tree ordered by start, with nodes recycled through
// a free list, so every operation is O(log holes) and allocation-free once warm (a node
// is allocated only when the count of ranges reaches a new peak: a receiver that never
// sees out-of-order data allocates nothing, which matters at 10 000 flows). A plain
// sorted vector costs O(holes) per arrival, which after a slow-start overshoot (thousands
// of holes per window) made the per-packet cost grow with the window.
// The SACK blocks of an ACK need no tree walk: the range that took the last arrival is
// remembered (the block the ACK that arrival triggers starts with, unless it is the
// highest), and each range links to the next lower one (the highest ranges follow). A
// 10 Gb/s x 100 ms slow-start overshoot's recovery acknowledges ~800 000 segments with
// SACK blocks in its first 2 s.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <boost/intrusive/set.hpp>

#include "fastsim/net/packet.hpp"

namespace fastsim::tcp {

class ReceiveRanges {
 public:
  ReceiveRanges() = default;
  ReceiveRanges(const ReceiveRanges&) = delete;
  ReceiveRanges& operator=(const ReceiveRanges&) = delete;
  ~ReceiveRanges() { set_.clear(); }

  [[nodiscard]] bool empty() const { return set_.empty(); }
  [[nodiscard]] size_t size() const { return set_.size(); }
  /// The lowest range. Precondition: !empty().
  [[nodiscard]] net::SackBlock front() const { return set_.begin()->block; }
  /// Removes the lowest range. Precondition: !empty().
  void pop_front();
  /// Records segment `seq`; returns false if it was already held.
  bool add(uint64_t seq);
  /// Range nodes allocated so far (the peak number of ranges held at once).
  [[nodiscard]] size_t nodes() const { return storage_.size(); }
  /// Fills `out` with SACK blocks: first the range holding `trigger` (the arrival that
  /// caused this ACK, if it is held), then the highest other ranges. Returns the count.
  size_t sack_blocks(uint64_t trigger, std::span<net::SackBlock> out) const;

 private:
  using Hook = boost::intrusive::set_base_hook<boost::intrusive::optimize_size<true>,
                                               boost::intrusive::link_mode<boost::intrusive::normal_link>>;
  struct Range : Hook {
    net::SackBlock block;
    Range* below = nullptr;  // the next lower range (null for the lowest); a free node: the next free one
  };
  struct ByStart {
    bool operator()(const Range& a, const Range& b) const { return a.block.start < b.block.start; }
  };
  struct StartKey {
    bool operator()(uint64_t s, const Range& r) const { return s < r.block.start; }
    bool operator()(const Range& r, uint64_t s) const { return r.block.start < s; }
  };
  using Set = boost::intrusive::set<Range, boost::intrusive::compare<ByStart>>;

  Range& make(uint64_t start, uint64_t end, Range* below);
  void recycle(Range& r) {
    r.below = free_;
    free_ = &r;
  }

  std::vector<std::unique_ptr<Range>> storage_;  // owns the nodes; grows to the peak number of ranges
  Range* free_ = nullptr;                        // recycled nodes, linked through `below`
  const Range* last_added_ = nullptr;            // holds the segment add() last recorded; null if it was removed
  Set set_;                                      // declared last: unlinked before the nodes are destroyed
};

}  // namespace fastsim::tcp
