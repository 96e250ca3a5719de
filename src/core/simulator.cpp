// Run loop and one-shot callbacks of the simulation kernel (see simulator.hpp).
#include "fastsim/core/simulator.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace fastsim {

class Simulator::CallbackEvent final : public Event {
 public:
  explicit CallbackEvent(std::function<void()> fn) : fn_(std::move(fn)) {}
  void fire() override { fn_(); }

 private:
  std::function<void()> fn_;
};

Simulator::Simulator() = default;
Simulator::~Simulator() = default;

void Simulator::throw_in_past(Time t) const {
  throw std::logic_error("event scheduled in the past: at " + std::to_string(t.ps()) + " ps, now " +
                         std::to_string(now_.ps()) + " ps");
}

void Simulator::call_at(Time t, std::function<void()> fn) {
  callbacks_.push_back(std::make_unique<CallbackEvent>(std::move(fn)));
  queue_.schedule(*callbacks_.back(), t < now_ ? now_ : t);
}

void Simulator::run_until(Time end, const std::function<void()>& on_progress, uint64_t progress_every) {
  stop_requested_ = false;
  check_at_ = events_ + progress_every;
  while (Event* ev = queue_.pop_until(end)) {
    now_ = ev->time();
    ++events_;
    ev->fire();
    // One test per event: check_at_ is the next progress call, or 0 once stop() was called.
    if (events_ >= check_at_) [[unlikely]] {
      if (stop_requested_)
        return;
      check_at_ = events_ + progress_every;
      if (on_progress)
        on_progress();
    }
  }
  if (now_ < end)
    now_ = end;
}

}  // namespace fastsim
