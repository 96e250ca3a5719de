// Run loop and one-shot callbacks of the simulation kernel (see simulator.hpp).
#include "fastsim/core/simulator.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace fastsim {

class Simulator::CallbackEvent final : public Event {
 public:
  CallbackEvent(Simulator& sim, std::function<void()> fn, size_t index)
      : sim_(sim), fn_(std::move(fn)), index_(index) {}
  /// Frees itself (a fired callback holds nothing the run needs: at 10 000 flows their start
  /// events were 1 MB kept to the end), then calls the function.
  void fire() override {
    std::function<void()> fn = std::move(fn_);
    sim_.release_callback(index_);  // destroys *this: no member is used after it
    fn();
  }
  void set_index(size_t i) { index_ = i; }

 private:
  Simulator& sim_;
  std::function<void()> fn_;
  size_t index_;  // position in Simulator::callbacks_
};

Simulator::Simulator() = default;
Simulator::~Simulator() = default;

void Simulator::throw_in_past(Time t) const {
  throw std::logic_error("event scheduled in the past: at " + std::to_string(t.ps()) + " ps, now " +
                         std::to_string(now_.ps()) + " ps");
}

void Simulator::call_at(Time t, std::function<void()> fn) {
  callbacks_.push_back(std::make_unique<CallbackEvent>(*this, std::move(fn), callbacks_.size()));
  queue_.schedule(*callbacks_.back(), t < now_ ? now_ : t);
}

void Simulator::release_callback(size_t index) {
  // The last one takes the freed place (the order of pending callbacks does not matter:
  // the event queue orders them).
  if (index + 1 != callbacks_.size()) {
    callbacks_[index].swap(callbacks_.back());
    callbacks_[index]->set_index(index);
  }
  callbacks_.pop_back();
}

void Simulator::run_until(Time end, const std::function<void()>& on_progress, uint64_t progress_every) {
  stop_requested_ = false;
  uint64_t progress_at = events_ + progress_every;
  check_at_ = std::min(progress_at, events_ + kWarmCheckEvery);
  for (;;) {
    // Many pending events mean per-component state spread over more memory than the caches
    // hold: prefetch each next event's (docs/performance.md, issue 18's eleventh round).
    const bool paused = queue_.size() >= kWarmFromPending ? dispatch<true>(end) : dispatch<false>(end);
    if (!paused)
      break;
    if (stop_requested_)
      return;
    if (events_ >= progress_at) {
      progress_at = events_ + progress_every;
      if (on_progress)
        on_progress();
    }
    // stop() from the progress call: return after the next event, as from inside one.
    check_at_ = stop_requested_ ? 0 : std::min(progress_at, events_ + kWarmCheckEvery);
  }
  if (now_ < end)
    now_ = end;
}

template <bool kWarm>
bool Simulator::dispatch(Time end) {
  while (Event* ev = queue_.pop_until(end)) {
    now_ = ev->time();
    ++events_;
    if constexpr (kWarm)
      queue_.warm_next();
    ev->fire();
    // One test per event: check_at_ is the next mode choice or progress call, or 0 after stop().
    if (events_ >= check_at_) [[unlikely]]
      return true;
  }
  return false;
}

}  // namespace fastsim
