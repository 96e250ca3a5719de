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
#pragma once

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

 private:
  friend class EventQueue;
  static constexpr uint32_t kNotScheduled = UINT32_MAX;
  static constexpr uint32_t kInWheel = UINT32_MAX - 1;
  Time time_;
  uint64_t seq_ = 0;
  Event* next_ = nullptr;  // the wheel bucket's list (index_ == kInWheel)
  Event* prev_ = nullptr;
  EventQueue* queue_ = nullptr;     // the queue it was last scheduled on (valid while index_ is set)
  uint32_t index_ = kNotScheduled;  // kNotScheduled, kInWheel or the position in the far heap
};

/// An event that calls a member function of its owner: `MemberEvent<Link, &Link::on_arrival>`.
template <class Owner, void (Owner::*Method)()>
class MemberEvent final : public Event {
 public:
  explicit MemberEvent(Owner* owner) : owner_(owner) {}
  void fire() override { (owner_->*Method)(); }

 private:
  Owner* owner_;
};

}  // namespace fastsim
