// An intrusive, reusable simulation event (OMNeT++/htsim style).
// - Components own their events as members (a link's next delivery, RTO, delayed-ACK
//   timer, sampler tick); nothing is allocated to schedule one.
// - The event carries its own place in the queue (list links for the timing wheel, an
//   index for the far-future heap), so cancel and reschedule need no search.
// - Ordering is (time, seq): seq is assigned when the event is (re)scheduled, so
//   simultaneous events fire in scheduling order (ns-3's FIFO tie-break).
// - Destroying a pending event cancels it (OMNeT++ cancels a message its owner deletes):
//   the event keeps a pointer to the queue it was last scheduled on, and a queue that is
//   destroyed or cleared first unschedules its events, so owners and the simulator may
//   be destroyed in either order. An event is pending on one queue at a time (checked
//   by an assertion in debug builds).
// - Prefetch hints: an event names the memory its fire() reads first (its owner object's
//   cache lines, and for a HintedEvent two addresses the owner sets when it schedules: a
//   link's next packet and its ring slot); in runs with many pending events the queue
//   prefetches them for the next event while the current one runs (Simulator::run_until).
//   A hint is never read through, so a stale one costs a wasted prefetch, never a result.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "fastsim/core/time.hpp"

namespace fastsim {

class EventQueue;

class Event {
 public:
  Event() = default;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  /// Cancels the event if it is pending.
  virtual ~Event();

  /// Called by the simulator when the event's time is reached.
  virtual void fire() = 0;

  [[nodiscard]] bool scheduled() const { return index_ != kNotScheduled; }
  [[nodiscard]] Time time() const { return time_; }
  /// Tie-break order among simultaneous events (the queue's counter when it was filed).
  [[nodiscard]] uint64_t seq() const { return seq_; }

 protected:
  /// The object fire() works on: its first `lines` cache lines are prefetched with the hints.
  void set_owner(void* owner, uint16_t lines) {
    owner_ = owner;
    owner_lines_ = lines;
  }
  [[nodiscard]] void* owner() const { return owner_; }

 private:
  friend class EventQueue;
  friend class HintedEvent;
  static constexpr uint32_t kNotScheduled = UINT32_MAX;
  static constexpr uint32_t kInWheel = UINT32_MAX - 1;
  Time time_;
  uint64_t seq_ = 0;
  Event* next_ = nullptr;  // the wheel bucket's list (index_ == kInWheel)
  Event* prev_ = nullptr;
  EventQueue* queue_ = nullptr;     // the queue it was last scheduled on (valid while index_ is set)
  void* owner_ = nullptr;           // the object fire() works on, if any (set_owner)
  uint32_t index_ = kNotScheduled;  // kNotScheduled, kInWheel or the position in the far heap
  uint16_t owner_lines_ = 0;        // cache lines of owner_ to prefetch
  bool hinted_ = false;             // a HintedEvent
};

/// An event with two more addresses to prefetch, set each time its owner schedules it.
class HintedEvent : public Event {
 public:
  /// Two addresses fire() will read (any, valid or not: they are only prefetched).
  void set_warm(const void* a, const void* b) {
    warm_[0] = a;
    warm_[1] = b;
  }

 protected:
  HintedEvent() { hinted_ = true; }

 private:
  friend class EventQueue;
  const void* warm_[2] = {this, this};
};

/// An event that calls a member function of its owner: `MemberEvent<Link, &Link::on_delivery>`
/// (`Base` HintedEvent for one with per-schedule prefetch hints).
template <class Owner, void (Owner::*Method)(), class Base = Event>
class MemberEvent final : public Base {
 public:
  /// The owner's cache lines to prefetch: at most 10 (Link, 592 bytes aligned to 16, spans
  /// exactly 10), enough for an object of its size at any alignment.
  explicit MemberEvent(Owner* owner) {
    this->set_owner(owner, static_cast<uint16_t>(std::min<size_t>(10, (sizeof(Owner) + 127) / 64)));
  }
  void fire() override { (static_cast<Owner*>(this->owner())->*Method)(); }
};

}  // namespace fastsim
