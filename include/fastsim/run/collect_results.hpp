// The results of a finished run as pure functions of the components' counters and the
// probes' samples: one function per kind of result, and collect_results for the whole
// RunResult (intervals from interval_results.hpp). Nothing here changes a component.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "fastsim/config/scenario.hpp"
#include "fastsim/run/network.hpp"
#include "fastsim/run/results.hpp"
#include "fastsim/trace/flow_probe.hpp"
#include "fastsim/trace/link_probe.hpp"

namespace fastsim::run {

/// Facts of the run itself (not of the network).
struct RunFacts {
  double sim_time_s = 0;  ///< simulated time at the end (the run's end for flows still active)
  double wall_time_s = 0;
  uint64_t events = 0;
};

/// The probes of a run: one per scenario flow (same order as the flows), one per monitored
/// link. The flow probes give their samples up to the results (collect_results).
struct RunProbes {
  std::vector<trace::FlowProbe*> flows;
  std::map<std::string, const trace::LinkProbe*> links;
};

/// Takes `probe`'s per-period samples (FlowProbe::take_samples).
[[nodiscard]] FlowResult flow_result(const FlowRuntime& f, trace::FlowProbe& probe, double run_end_s);
[[nodiscard]] UdpResult udp_result(const UdpRuntime& u, double run_end_s);
[[nodiscard]] ArrivalResult arrival_result(const traffic::FlowArrivals& a);
/// `probe`: null for a link that is not monitored (no per-period samples). Non-const only
/// because a link brings its lazily kept counters up to date when read.
[[nodiscard]] LinkResult link_result(net::Link& link, const trace::LinkProbe* probe, double run_end_s);

/// Takes the flow probes' samples: call once, at the end of the run.
[[nodiscard]] RunResult collect_results(const config::Scenario& scenario, Network& network, const RunProbes& probes,
                                        const std::vector<double>& sample_times_s, const RunFacts& facts);

}  // namespace fastsim::run
