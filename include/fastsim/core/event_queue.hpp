// Pending-event set: a vector-backed 4-ary min-heap of intrusive events keyed by
// (time, seq), writing each event's index back into it.
// Complexity: schedule, cancel, reschedule O(log4 n); pop O(4 log4 n); no allocation
// once the vector has grown to the peak number of pending events.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "fastsim/core/event.hpp"

namespace fastsim {

class EventQueue {
 public:
  /// Schedules `ev` at `t`; if it is already pending, moves it (new tie-break seq).
  void schedule(Event& ev, Time t);
  /// Removes `ev` if pending; no-op otherwise.
  void cancel(Event& ev);
  [[nodiscard]] bool empty() const { return heap_.empty(); }
  [[nodiscard]] size_t size() const { return heap_.size(); }
  [[nodiscard]] Time top_time() const { return heap_.front()->time_; }
  /// Removes and returns the earliest event. Precondition: !empty().
  Event* pop();

 private:
  static bool before(const Event* a, const Event* b) {
    return a->time_ < b->time_ || (a->time_ == b->time_ && a->seq_ < b->seq_);
  }
  void place(Event* ev, uint32_t i) {
    heap_[i] = ev;
    ev->index_ = i;
  }
  void sift_up(uint32_t i);
  void sift_down(uint32_t i);
  void remove_at(uint32_t i);

  std::vector<Event*> heap_;
  uint64_t next_seq_ = 0;
};

}  // namespace fastsim
