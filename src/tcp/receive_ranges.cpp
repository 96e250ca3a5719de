// Out-of-order segment ranges of a TCP receiver (see receive_ranges.hpp).
#include "fastsim/tcp/receive_ranges.hpp"

#include <iterator>

namespace fastsim::tcp {

ReceiveRanges::Range& ReceiveRanges::make(uint64_t start, uint64_t end) {
  Range* r = nullptr;
  if (free_.empty()) {
    r = storage_.emplace_back(std::make_unique<Range>()).get();
  } else {
    r = free_.back();
    free_.pop_back();
  }
  r->block = {start, end};
  return *r;
}

void ReceiveRanges::pop_front() {
  Range& r = *set_.begin();
  set_.erase(set_.begin());
  recycle(r);
}

bool ReceiveRanges::add(uint64_t seq) {
  if (set_.empty() || seq > set_.rbegin()->block.end) {  // beyond every hole: the usual case
    set_.insert(set_.end(), make(seq, seq + 1));
    return true;
  }
  if (seq == set_.rbegin()->block.end) {
    ++set_.rbegin()->block.end;
    return true;
  }
  auto next = set_.upper_bound(seq, StartKey{});
  const bool has_prev = next != set_.begin();
  auto prev = has_prev ? std::prev(next) : set_.end();
  if (has_prev && seq < prev->block.end)
    return false;  // already held
  const bool join_prev = has_prev && prev->block.end == seq;
  const bool join_next = next != set_.end() && next->block.start == seq + 1;
  if (join_prev && join_next) {
    prev->block.end = next->block.end;
    Range& gone = *next;
    set_.erase(next);
    recycle(gone);
  } else if (join_prev) {
    ++prev->block.end;
  } else if (join_next) {
    --next->block.start;  // still above prev's end: the order is unchanged
  } else {
    set_.insert(next, make(seq, seq + 1));
  }
  return true;
}

size_t ReceiveRanges::sack_blocks(uint64_t trigger, std::span<net::SackBlock> out) const {
  if (set_.empty() || out.empty())
    return 0;
  size_t n = 0;
  auto first = set_.end();
  auto it = set_.upper_bound(trigger, StartKey{});
  if (it != set_.begin()) {
    first = std::prev(it);
    out[n++] = first->block;
  }
  const Range* skip = first != set_.end() ? &*first : nullptr;
  for (auto r = set_.rbegin(); r != set_.rend() && n < out.size(); ++r) {
    if (&*r != skip)
      out[n++] = r->block;
  }
  return n;
}

}  // namespace fastsim::tcp
