// 4-ary heap of (time, seq, event) entries with an in-place re-key of the firing event
// (see event_queue.hpp).
#include "fastsim/core/event_queue.hpp"

#include <cassert>

namespace fastsim {

namespace {
constexpr uint32_t kArity = 4;
}

Event::~Event() {
  if (index_ != kNotScheduled)
    queue_->cancel(*this);
}

Event* EventQueue::begin_fire() {
  assert(!heap_.empty() && !firing_);
  Event* ev = heap_.front().ev;
  ev->index_ = Event::kNotScheduled;
  firing_ = true;
  return ev;
}

void EventQueue::finish_pop() {
  firing_ = false;
  const Entry last = heap_.back();
  heap_.pop_back();
  if (heap_.empty())
    return;
  sift_down(0, last);
}

void EventQueue::schedule(Event& ev, Time t) {
  assert(!ev.scheduled() || ev.queue_ == this);  // an event is pending on one queue at a time
  const Entry e{t, next_seq_++, &ev};
  ev.time_ = t;
  ev.queue_ = this;
  if (firing_) {
    if (heap_.front().ev == &ev) {  // the firing event reschedules itself: re-key the root
      firing_ = false;
      sift_down(0, e);
      return;
    }
    finish_pop();
  }
  if (ev.index_ == Event::kNotScheduled) {
    heap_.push_back(e);
    sift_up(static_cast<uint32_t>(heap_.size() - 1), e);
  } else {
    // The new key may be earlier or later than the old one.
    const uint32_t i = ev.index_;
    if (i > 0 && before(e, heap_[(i - 1) / kArity]))
      sift_up(i, e);
    else
      sift_down(i, e);
  }
}

void EventQueue::cancel(Event& ev) {
  if (ev.index_ == Event::kNotScheduled)
    return;
  if (firing_)
    finish_pop();
  remove_at(ev.index_);
}

void EventQueue::remove_at(uint32_t i) {
  heap_[i].ev->index_ = Event::kNotScheduled;
  const Entry last = heap_.back();
  heap_.pop_back();
  if (i == heap_.size())
    return;
  if (i > 0 && before(last, heap_[(i - 1) / kArity]))
    sift_up(i, last);
  else
    sift_down(i, last);
}

void EventQueue::sift_up(uint32_t i, const Entry& e) {
  while (i > 0) {
    const uint32_t parent = (i - 1) / kArity;
    if (!before(e, heap_[parent]))
      break;
    place(heap_[parent], i);
    i = parent;
  }
  place(e, i);
}

void EventQueue::sift_down(uint32_t i, const Entry& e) {
  const auto n = static_cast<uint32_t>(heap_.size());
  for (;;) {
    const uint32_t first = i * kArity + 1;
    if (first >= n)
      break;
    // The best child's key is kept in registers while the others are compared.
    const Entry* h = heap_.data();
    uint32_t best = first;
    Time bt = h[first].time;
    uint64_t bs = h[first].seq;
    const uint32_t end = first + kArity < n ? first + kArity : n;
    for (uint32_t c = first + 1; c < end; ++c) {
      const Time ct = h[c].time;
      if (ct < bt || (ct == bt && h[c].seq < bs)) {
        best = c;
        bt = ct;
        bs = h[c].seq;
      }
    }
    if (bt > e.time || (bt == e.time && bs >= e.seq))
      break;
    place(h[best], i);
    i = best;
  }
  place(e, i);
}

}  // namespace fastsim
