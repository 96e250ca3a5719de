// Two-level timing wheel with a 4-ary far-future heap, popping in (time, seq) order
// (see event_queue.hpp).
#include "fastsim/core/event_queue.hpp"

namespace fastsim {

namespace {
constexpr uint32_t kArity = 4;
}

Event::~Event() {
  if (index_ != kNotScheduled)
    queue_->cancel(*this);
}

void EventQueue::cancel(Event& ev) {
  if (ev.index_ == Event::kNotScheduled)
    return;
  unlink(ev);
  ev.index_ = Event::kNotScheduled;
  --size_;
}

void EventQueue::clear() {
  const auto unschedule = [](auto& buckets, auto& used) {
    for (Bucket& bk : buckets) {
      for (Event* e = bk.head; e != nullptr; e = e->next_)
        e->index_ = Event::kNotScheduled;
      bk = {};
    }
    used = {};
  };
  unschedule(fine_, fine_used_);
  unschedule(coarse_, coarse_used_);
  for (const Entry& e : heap_)
    e.ev->index_ = Event::kNotScheduled;
  heap_.clear();
  far_due_ = false;
  size_ = 0;
}

// Files `ev` (time_ and seq_ set, not in any structure) by its fine index `f`: the
// general case of schedule().
void EventQueue::file(Event& ev, uint64_t f) {
  if (f - cursor_ < period_end_ - cursor_) {  // cursor_ <= f < period_end_ (unsigned wrap)
    insert_fine(ev, f);
  } else if (f - period_end_ < coarse_end_ - period_end_) {
    const auto b = static_cast<uint32_t>(f >> kFineBits) & (kCoarseN - 1);
    Bucket& bk = coarse_[b];
    ev.index_ = Event::kInWheel;
    ev.next_ = nullptr;
    ev.prev_ = bk.tail;
    if (bk.tail != nullptr) {
      bk.tail->next_ = &ev;
    } else {
      bk.head = &ev;
      coarse_used_.set(b);
    }
    bk.tail = &ev;
  } else {
    const Entry e{ev.time_, ev.seq_, &ev};
    heap_.push_back(e);
    sift_up(static_cast<uint32_t>(heap_.size() - 1), e);
    if (ev.time_ < period_end_time())
      far_due_ = true;
  }
}

// Inserts `ev` into its fine bucket after the last event before it in (time, seq) order
// (a fresh schedule has the largest seq yet: after the last event not later than it).
void EventQueue::insert_fine(Event& ev, uint64_t f) {
  const auto b = static_cast<uint32_t>(f) & (kFineN - 1);
  Bucket& bk = fine_[b];
  ev.index_ = Event::kInWheel;
  Event* after = bk.tail;
  while (after != nullptr && (after->time_ > ev.time_ || (after->time_ == ev.time_ && after->seq_ > ev.seq_)))
    after = after->prev_;
  ev.prev_ = after;
  if (after != nullptr) {
    ev.next_ = after->next_;
    after->next_ = &ev;
  } else {
    ev.next_ = bk.head;
    if (bk.head == nullptr)
      fine_used_.set(b);
    bk.head = &ev;
  }
  if (ev.next_ != nullptr)
    ev.next_->prev_ = &ev;
  else
    bk.tail = &ev;
}

// Removes a pending `ev` from whichever structure holds it (index_ left to the caller).
void EventQueue::unlink(Event& ev) {
  if (ev.index_ != Event::kInWheel) {
    heap_remove(ev.index_);
    return;
  }
  // A wheel event is in the fine wheel iff it is in the current period: the period only
  // moves on when the fine wheel is empty, pouring in the whole next occupied period.
  const uint64_t f = fine_index(ev.time_);
  const bool fine = f < period_end_;
  const uint32_t b =
      fine ? static_cast<uint32_t>(f) & (kFineN - 1) : static_cast<uint32_t>(f >> kFineBits) & (kCoarseN - 1);
  Bucket& bk = fine ? fine_[b] : coarse_[b];
  if (ev.prev_ != nullptr)
    ev.prev_->next_ = ev.next_;
  else
    bk.head = ev.next_;
  if (ev.next_ != nullptr)
    ev.next_->prev_ = ev.prev_;
  else
    bk.tail = ev.prev_;
  if (bk.head == nullptr) {
    if (fine)
      fine_used_.reset(b);
    else
      coarse_used_.reset(b);
  }
}

void EventQueue::set_period(uint64_t period) {
  period_ = period;
  period_end_ = (period + 1) << kFineBits;
  coarse_end_ = (period + kCoarseN) << kFineBits;
  far_due_ = !heap_.empty() && heap_.front().time < period_end_time();
}

// Makes `period` (occupied in the coarse wheel, the fine wheel empty) the current one.
void EventQueue::pour(uint64_t period) {
  const auto b = static_cast<uint32_t>(period) & (kCoarseN - 1);
  Event* e = coarse_[b].head;
  coarse_[b] = {};
  coarse_used_.reset(b);
  set_period(period);
  cursor_ = period << kFineBits;
  while (e != nullptr) {
    Event* next = e->next_;
    insert_fine(*e, fine_index(e->time_));
    e = next;
  }
}

Event* EventQueue::pop_heap() {
  Event* ev = heap_.front().ev;
  heap_remove(0);
  ev->index_ = Event::kNotScheduled;
  --size_;
  if (!fine_used_.any() && !coarse_used_.any() && ev->time_ >= Time::zero() && ev->time_ < Time::never()) {
    // The wheel is empty: re-anchor it at now, so that what follows is filed there.
    const uint64_t f = fine_index(ev->time_);
    set_period(f >> kFineBits);
    cursor_ = f;
  }
  return ev;
}

Event* EventQueue::pop_slow(Time end) {
  for (;;) {
    const uint32_t b = fine_used_.find_from(static_cast<uint32_t>(cursor_) & (kFineN - 1));
    if (b < kFineN) {
      Event* ev = fine_[b].head;
      if (!heap_.empty() && heap_first(*ev))
        return heap_.front().time <= end ? pop_heap() : nullptr;
      return ev->time_ <= end ? take_fine(b) : nullptr;
    }
    if (coarse_used_.any()) {
      // The next occupied period, searching circularly from the one after the current.
      const auto from = static_cast<uint32_t>(period_ + 1) & (kCoarseN - 1);
      uint32_t c = coarse_used_.find_from(from);
      if (c == kCoarseN)
        c = coarse_used_.find_from(0);
      const uint64_t next = period_ + 1 + ((c - from) & (kCoarseN - 1));
      const Time start = Time::from_ps(static_cast<int64_t>(next << (kFineShift + kFineBits)));
      if (heap_.empty() || heap_.front().time >= start) {
        if (start > end)
          return nullptr;
        pour(next);
        continue;
      }
    }
    if (heap_.empty() || heap_.front().time > end)
      return nullptr;
    return pop_heap();
  }
}

void EventQueue::heap_remove(uint32_t i) {
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
    heap_place(heap_[parent], i);
    i = parent;
  }
  heap_place(e, i);
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
    heap_place(h[best], i);
    i = best;
  }
  heap_place(e, i);
}

}  // namespace fastsim
