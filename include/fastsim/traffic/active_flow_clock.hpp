// The number of flows crossing the bottleneck over time, and its time integral: the
// denominator of fair-share completion times (flow_arrivals.hpp). Scenario flows and
// arriving flows both report their start and completion here, at the exact instant
// (the sender's completion callback), so the count is right between sample instants.
#pragma once

#include <cstdint>

#include "fastsim/core/simulator.hpp"

namespace fastsim::traffic {

/// The time integral of the number of flows crossing the bottleneck.
class ActiveFlowClock {
 public:
  explicit ActiveFlowClock(const Simulator& sim) : sim_(sim) {}
  void change(int delta) {
    advance();
    active_ += delta;
  }
  /// Flows crossing the bottleneck now.
  [[nodiscard]] int64_t active() const { return active_; }
  /// Flow-seconds since the start of the run.
  [[nodiscard]] double integral() {
    advance();
    return area_;
  }

 private:
  void advance() {
    area_ += static_cast<double>(active_) * (sim_.now() - since_).to_seconds();
    since_ = sim_.now();
  }
  const Simulator& sim_;
  Time since_ = Time::zero();
  int64_t active_ = 0;
  double area_ = 0;
};

}  // namespace fastsim::traffic
