// The simulation kernel: current time, the pending-event set and the run loop.
// Passed by reference to every component; never a singleton, so tests and
// in-process sweeps can hold several at once.
#pragma once

#include <cassert>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "fastsim/core/event_queue.hpp"

namespace fastsim {

class Simulator {
 public:
  Simulator();
  ~Simulator();
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  [[nodiscard]] Time now() const { return now_; }
  [[nodiscard]] uint64_t events_processed() const { return events_; }

  /// Schedules (or moves) `ev` at absolute time `t`; a time before now() is a logic
  /// error and throws std::logic_error (one compare, always checked).
  void schedule_at(Event& ev, Time t) {
    if (t < now_) [[unlikely]]
      throw_in_past(t);
    queue_.schedule(ev, t);
  }
  /// Schedules (or moves) `ev` at now() + `d`; a negative `d` throws std::logic_error.
  void schedule_in(Event& ev, Duration d) { schedule_at(ev, now_ + d); }
  /// schedule_at() of an event that is not pending at a time known to be >= now() (both
  /// asserted in debug builds, unchecked in release): an event re-scheduling itself from
  /// its own firing (a link's next delivery).
  void schedule_unpending(Event& ev, Time t) {
    assert(t >= now_);
    queue_.schedule_unpending(ev, t);
  }
  /// Takes a tie-break seq now for an event filed later with schedule_reserved().
  uint64_t reserve_seq() { return queue_.reserve_seq(); }
  /// Files `ev` (not pending) at `t` (>= now, asserted in debug builds) with a seq from
  /// reserve_seq(): it fires among simultaneous events as if scheduled when the seq was taken.
  void schedule_reserved(Event& ev, Time t, uint64_t seq) {
    assert(t >= now_);
    queue_.schedule_reserved(ev, t, seq);
  }
  void cancel(Event& ev) { queue_.cancel(ev); }
  /// Unschedules every pending event: call before destroying the components that own
  /// events, so none of them is left in the queue whatever the destruction order.
  void clear() { queue_.clear(); }

  /// Runs `fn` once at `t`, or now if `t` has passed. Allocates: for rare setup events (flow start/stop), not the
  /// packet path. The event is freed when it fires (before `fn` runs).
  void call_at(Time t, std::function<void()> fn);

  /// Fires events in (time, seq) order until the next one is later than `end` or none are left.
  /// Leaves now() == end unless stopped early. `on_progress` (optional) is called every
  /// `progress_every` events.
  void run_until(Time end, const std::function<void()>& on_progress = {}, uint64_t progress_every = 1u << 22);

  /// Makes run_until return after the current event.
  void stop() {
    stop_requested_ = true;
    check_at_ = 0;
  }

  [[nodiscard]] size_t pending() const { return queue_.size(); }
  /// call_at callbacks not yet fired (a fired one is freed).
  [[nodiscard]] size_t callbacks_held() const { return callbacks_.size(); }

 private:
  class CallbackEvent;
  [[noreturn]] void throw_in_past(Time t) const;
  // From this many pending events (about 300 flows: 3.5 per flow) each event's memory is
  // prefetched while the one before it runs (EventQueue::warm_next); measured break-even
  // (docs/performance.md). Below it the prefetches cost instructions and save no time.
  static constexpr size_t kWarmFromPending = 1000;
  // Events between two choices of the mode (and progress checks).
  static constexpr uint64_t kWarmCheckEvery = uint64_t{1} << 16;
  /// Fires events until `end` (returns false) or until events_ reaches check_at_ (true);
  /// with kWarm, prefetches the next event's memory while each one runs.
  template <bool kWarm>
  bool dispatch(Time end);
  /// Destroys the fired callback at `index` of callbacks_.
  void release_callback(size_t index);
  EventQueue queue_;
  Time now_ = Time::zero();
  uint64_t events_ = 0;
  bool stop_requested_ = false;
  // run_until tests the stop request, the progress call and the loop's mode only once
  // events_ reaches this: the earlier of the next progress call and the next mode choice
  // (kWarmCheckEvery events on), or 0 after stop().
  uint64_t check_at_ = 0;
  std::vector<std::unique_ptr<CallbackEvent>> callbacks_;  // pending one-shot callbacks
};

}  // namespace fastsim
