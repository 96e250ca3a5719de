// The flow lifecycle of the scenario's flows: starts each flow at its start time, pauses
// and resumes on/off flows (one pending event per flow, the next toggle scheduled when
// one fires, so memory does not grow with the number of periods), stops new data at its
// stop time, and ends it at its stop or
// at the exact instant its last byte is acknowledged (the sender's completion callback,
// the same mechanism arrival processes use). Flows crossing the bottleneck are counted in
// the active-flow clock from start to end, so fair-share completion times see the true
// number of competing flows at every instant.
#pragma once

#include <memory>
#include <vector>

#include "fastsim/core/simulator.hpp"
#include "fastsim/run/network.hpp"
#include "fastsim/traffic/active_flow_clock.hpp"

namespace fastsim::run {

class FlowLifecycle {
 public:
  /// `run_end`: the end of the run (on/off toggles stop there).
  FlowLifecycle(Simulator& sim, traffic::ActiveFlowClock& clock, Time run_end);

  FlowLifecycle(const FlowLifecycle&) = delete;
  FlowLifecycle& operator=(const FlowLifecycle&) = delete;
  ~FlowLifecycle();

  /// Schedules `f`'s start, on/off toggles and stop, and watches its completion.
  /// `f` must outlive the lifecycle.
  void manage(FlowRuntime& f);

 private:
  class OnOffToggle;
  void start(FlowRuntime& f);
  /// The flow ends now (stop or completion); a second call is ignored.
  void end(FlowRuntime& f);

  Simulator& sim_;
  traffic::ActiveFlowClock& clock_;
  Time run_end_;
  std::vector<std::unique_ptr<OnOffToggle>> toggles_;
};

}  // namespace fastsim::run
