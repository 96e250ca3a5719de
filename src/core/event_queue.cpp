// 4-ary heap implementation of the pending-event set (see event_queue.hpp).
#include "fastsim/core/event_queue.hpp"

#include <cassert>

namespace fastsim {

namespace {
constexpr uint32_t kArity = 4;
}

void EventQueue::schedule(Event& ev, Time t) {
  ev.time_ = t;
  ev.seq_ = next_seq_++;
  if (ev.index_ == Event::kNotScheduled) {
    heap_.push_back(&ev);
    ev.index_ = static_cast<uint32_t>(heap_.size() - 1);
    sift_up(ev.index_);
  } else {
    // The new key may be earlier or later than the old one.
    sift_up(ev.index_);
    sift_down(ev.index_);
  }
}

void EventQueue::cancel(Event& ev) {
  if (ev.index_ == Event::kNotScheduled)
    return;
  remove_at(ev.index_);
}

Event* EventQueue::pop() {
  assert(!heap_.empty());
  Event* top = heap_.front();
  remove_at(0);
  return top;
}

void EventQueue::remove_at(uint32_t i) {
  Event* gone = heap_[i];
  Event* last = heap_.back();
  heap_.pop_back();
  gone->index_ = Event::kNotScheduled;
  if (last == gone)
    return;
  place(last, i);
  sift_up(i);
  sift_down(last->index_);
}

void EventQueue::sift_up(uint32_t i) {
  Event* ev = heap_[i];
  while (i > 0) {
    const uint32_t parent = (i - 1) / kArity;
    if (!before(ev, heap_[parent]))
      break;
    place(heap_[parent], i);
    i = parent;
  }
  place(ev, i);
}

void EventQueue::sift_down(uint32_t i) {
  Event* ev = heap_[i];
  const auto n = static_cast<uint32_t>(heap_.size());
  for (;;) {
    const uint32_t first = i * kArity + 1;
    if (first >= n)
      break;
    uint32_t best = first;
    const uint32_t end = first + kArity < n ? first + kArity : n;
    for (uint32_t c = first + 1; c < end; ++c) {
      if (before(heap_[c], heap_[best]))
        best = c;
    }
    if (!before(heap_[best], ev))
      break;
    place(heap_[best], i);
    i = best;
  }
  place(ev, i);
}

}  // namespace fastsim
