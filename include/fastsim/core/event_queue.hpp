// The pending-event set: a vector-backed 4-ary min-heap ordered by (time, seq).
// - seq is a global scheduling counter, so simultaneous events fire in the order they
//   were scheduled (ns-3's (time, uid) tie-break): runs are reproducible.
// - Each heap entry holds its key next to the event pointer, so sifting compares
//   contiguous memory and touches an event only to write back its index (OMNeT++'s
//   intrusive events): O(log n) schedule, cancel and reschedule without allocation.
// - Firing is a two-step protocol: begin_fire() hands out the earliest event but leaves
//   it at the root; if the handler reschedules that same event first (a link's next
//   delivery, a periodic timer), the root is re-keyed in place with one sift-down
//   instead of a removal plus an insertion. Any other operation completes the removal.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "fastsim/core/event.hpp"

namespace fastsim {

class EventQueue {
 public:
  EventQueue() = default;
  EventQueue(const EventQueue&) = delete;
  EventQueue& operator=(const EventQueue&) = delete;
  /// Unschedules the events still pending, so their owners may outlive the queue.
  ~EventQueue() { clear(); }

  /// Schedules `ev` at `t`; if it is already pending, moves it (new tie-break seq).
  void schedule(Event& ev, Time t);
  /// Removes `ev` if pending; no-op otherwise.
  void cancel(Event& ev);
  /// Unschedules every pending event (their owners may then be destroyed in any order).
  void clear() {
    // While firing, the root's event is already unscheduled (and its handler may have
    // destroyed it, or thrown): leave it alone.
    for (size_t i = firing_ ? 1 : 0; i < heap_.size(); ++i)
      heap_[i].ev->index_ = Event::kNotScheduled;
    heap_.clear();
    firing_ = false;
  }
  [[nodiscard]] bool empty() const { return size() == 0; }
  [[nodiscard]] size_t size() const { return heap_.size() - (firing_ ? 1 : 0); }
  /// Time of the earliest pending event. Precondition: !empty() and no event firing.
  [[nodiscard]] Time top_time() const { return heap_.front().time; }
  /// Hands out the earliest event, which counts as no longer pending from now on.
  /// Precondition: !empty(); end_fire() must follow before the next begin_fire().
  Event* begin_fire();
  /// Completes the removal of the fired event unless its handler rescheduled it; a no-op
  /// when no event is firing.
  void end_fire() {
    if (firing_)
      finish_pop();
  }

 private:
  struct Entry {
    Time time;
    uint64_t seq;
    Event* ev;
  };
  static bool before(const Entry& a, const Entry& b) { return a.time < b.time || (a.time == b.time && a.seq < b.seq); }
  void place(const Entry& e, uint32_t i) {
    heap_[i] = e;
    e.ev->index_ = i;
  }
  void finish_pop();
  // Both move the hole at `i` until `e` fits there, then place `e`: the entry is passed
  // in registers, never written and read back (a store-forwarding stall on 24-byte entries).
  void sift_up(uint32_t i, const Entry& e);
  void sift_down(uint32_t i, const Entry& e);
  void remove_at(uint32_t i);

  std::vector<Entry> heap_;
  uint64_t next_seq_ = 0;
  bool firing_ = false;  // heap_[0] is the event being fired, logically removed
};

}  // namespace fastsim
