// Per-interval metrics (docs/outputs.md, "intervals"): the run is split wherever the set
// of active flows changes (and where a UDP source or arrival process starts or stops);
// over each interval's full sample periods, after the warm-up cut: throughput, Jain
// fairness, stability, responsiveness, bottleneck utilization and queue; from the
// interval start: the newest flow's fairness ratio and every flow's convergence time.
// Pure functions of the flow, UDP and link results (trace/metrics.hpp does the math).
#pragma once

#include <vector>

#include "fastsim/config/scenario.hpp"
#include "fastsim/run/results.hpp"

namespace fastsim::run {

/// Intervals of `r` (whose flows, udp, links and sample_times_s are filled) for
/// `scenario`, in time order while their flow entries stay within
/// scenario.limits.interval_flow_entries; the later ones are counted into `omitted`.
[[nodiscard]] std::vector<IntervalResult> interval_results(const RunResult& r, const config::Scenario& scenario,
                                                           trace::OmittedIntervals& omitted);

}  // namespace fastsim::run
