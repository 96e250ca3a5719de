// Out-of-order segment ranges of a TCP receiver (see receive_ranges.hpp).
#include "fastsim/tcp/receive_ranges.hpp"

#include <iterator>

namespace fastsim::tcp {

ReceiveRanges::Range& ReceiveRanges::make(uint64_t start, uint64_t end, Range* below) {
  Range* r = free_;
  if (r == nullptr)
    r = storage_.emplace_back(std::make_unique<Range>()).get();
  else
    free_ = r->below;
  r->block = {start, end};
  r->below = below;
  return *r;
}

void ReceiveRanges::pop_front() {
  Range& r = *set_.begin();
  if (&r == last_added_)
    last_added_ = nullptr;
  set_.erase(set_.begin());
  if (!set_.empty())
    set_.begin()->below = nullptr;
  recycle(r);
}

bool ReceiveRanges::add(uint64_t seq) {
  Range* top = set_.empty() ? nullptr : &*std::prev(set_.end());
  if (top == nullptr || seq > top->block.end) {  // beyond every hole: the usual case
    Range& r = make(seq, seq + 1, top);
    set_.insert(set_.end(), r);
    last_added_ = &r;
    return true;
  }
  if (seq == top->block.end) {
    ++top->block.end;
    last_added_ = top;
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
    auto after = set_.erase(next);
    if (after != set_.end())
      after->below = &*prev;
    recycle(gone);
    last_added_ = &*prev;
  } else if (join_prev) {
    ++prev->block.end;
    last_added_ = &*prev;
  } else if (join_next) {
    --next->block.start;  // still above prev's end: the order is unchanged
    last_added_ = &*next;
  } else {
    Range& r = make(seq, seq + 1, has_prev ? &*prev : nullptr);
    if (next != set_.end())
      next->below = &r;
    set_.insert(next, r);
    last_added_ = &r;
  }
  return true;
}

size_t ReceiveRanges::sack_blocks(uint64_t trigger, std::span<net::SackBlock> out) const {
  if (set_.empty() || out.empty())
    return 0;
  size_t n = 0;
  // The first block: the range with the largest start <= trigger (the one holding it, if
  // held). Without a search when it is the highest range (an arrival above every hole, or
  // no trigger) or the range the last arrival went to (a retransmission filling a hole).
  const Range* skip = nullptr;
  const Range* const top = &*std::prev(set_.end());
  if (trigger >= top->block.start) {
    skip = top;
  } else if (last_added_ != nullptr && last_added_->block.start <= trigger && trigger < last_added_->block.end) {
    skip = last_added_;
  } else {
    auto it = set_.upper_bound(trigger, StartKey{});
    if (it != set_.begin())
      skip = &*std::prev(it);
  }
  if (skip != nullptr)
    out[n++] = skip->block;
  // Downwards along the `below` links (a tree's predecessor is a walk of its own).
  for (const Range* r = top; r != nullptr && n < out.size(); r = r->below) {
    if (r != skip)
      out[n++] = r->block;
  }
  return n;
}

}  // namespace fastsim::tcp
