// Per-interval metrics (see interval_results.hpp).
#include "fastsim/run/interval_results.hpp"

#include <algorithm>
#include <cmath>

#include "fastsim/trace/metrics.hpp"

namespace fastsim::run {

namespace {

constexpr double kEps = 1e-9;

/// Fairness ratio of a joining flow and the convergence times of one interval.
void interval_dynamics(const RunResult& r, const config::Scenario& scenario, const trace::IntervalPlan& plan,
                       const std::vector<double>& means, IntervalResult& ir) {
  const double tau = scenario.sample_interval.to_seconds();
  // Fairness ratio: exactly one flow started when the interval began, and others exist.
  std::vector<size_t> newest;
  for (size_t k = 0; k < plan.flows.size(); ++k) {
    if (std::fabs(r.flows[plan.flows[k]].start_s - plan.start) < kEps)
      newest.push_back(k);
  }
  if (newest.size() == 1 && plan.flows.size() > 1) {
    ir.newest_flow = r.flows[plan.flows[newest[0]]].id;
    std::vector<double> others;
    for (size_t k = 0; k < means.size(); ++k) {
      if (k != newest[0])
        others.push_back(means[k]);
    }
    ir.fairness_ratio = trace::fairness_ratio(means[newest[0]], others);
  }
  // Convergence time from the interval start (no warm-up cut), per flow.
  const auto first = static_cast<size_t>(std::ceil(plan.start / tau - kEps));
  const size_t end = std::min(plan.end_period, r.sample_times_s.size());
  if (end <= first)
    return;
  bool all_settled = true;
  double slowest = 0, slowest_rtts = 0;
  for (size_t fi : plan.flows) {
    const auto& s = r.flows[fi].goodput_samples_bps;
    const std::vector<double> window(s.begin() + static_cast<long>(first), s.begin() + static_cast<long>(end));
    const auto k = trace::convergence_periods(window, scenario.convergence_tolerance);
    if (!k) {
      ir.flow_convergence_s.emplace_back();
      all_settled = false;
      continue;
    }
    const double t = static_cast<double>(first + *k) * tau - plan.start;
    ir.flow_convergence_s.emplace_back(t);
    slowest = std::max(slowest, t);
    if (r.flows[fi].min_rtt_s > 0)
      slowest_rtts = std::max(slowest_rtts, t / r.flows[fi].min_rtt_s);
  }
  if (all_settled) {
    ir.convergence_s = slowest;
    ir.convergence_base_rtts = slowest_rtts;
  }
}

/// Window and bottleneck-queue convergence from the interval start (trace::settling_periods
/// over the periods from ceil(start / tau) to the interval's last whole period).
void level_convergence(const RunResult& r, const config::Scenario& scenario, const trace::IntervalPlan& plan,
                       const LinkResult* bottleneck, IntervalResult& ir) {
  const double tau = scenario.sample_interval.to_seconds();
  const auto first = static_cast<size_t>(std::ceil(plan.start / tau - kEps));
  const size_t end = std::min(plan.end_period, r.sample_times_s.size());
  if (end <= first)
    return;
  auto settled_s = [&](const std::vector<double>& s) -> std::optional<double> {
    if (s.size() < end)
      return std::nullopt;
    const std::vector<double> window(s.begin() + static_cast<long>(first), s.begin() + static_cast<long>(end));
    const auto k = trace::settling_periods(window);
    if (!k)
      return std::nullopt;
    return static_cast<double>(first + *k) * tau - plan.start;
  };
  bool all_settled = true;
  double slowest = 0;
  for (size_t fi : plan.flows) {
    const auto t = settled_s(r.flows[fi].cwnd_samples_pkts);
    ir.flow_window_convergence_s.push_back(t);
    all_settled = all_settled && t.has_value();
    slowest = std::max(slowest, t.value_or(0.0));
  }
  if (all_settled)
    ir.window_convergence_s = slowest;
  if (bottleneck != nullptr)
    ir.queue_convergence_s = settled_s(bottleneck->queue_samples);
}

/// Throughput, fairness, stability, responsiveness and the bottleneck's figures over the
/// interval's full periods after the warm-up cut.
void interval_equilibrium(const RunResult& r, const config::Scenario& scenario, const trace::IntervalPlan& plan,
                          const LinkResult* bottleneck, size_t end, IntervalResult& ir) {
  const double tau = scenario.sample_interval.to_seconds();
  std::vector<double> means;
  double stability_sum = 0;
  size_t stability_n = 0;
  size_t resp = 0;
  for (size_t fi : plan.flows) {
    const auto& s = r.flows[fi].goodput_samples_bps;
    const std::vector<double> window(s.begin() + static_cast<long>(plan.first_period),
                                     s.begin() + static_cast<long>(end));
    double mean = 0;
    for (double x : window)
      mean += x;
    mean /= static_cast<double>(window.size());
    means.push_back(mean);
    if (auto cv = trace::coefficient_of_variation(window)) {
      stability_sum += *cv;
      ++stability_n;
    }
    resp = std::max(resp, trace::responsiveness_periods(window));
  }
  double total = 0;
  for (double m : means)
    total += m;
  ir.flow_throughput_bps = means;
  ir.throughput_bps = total;
  ir.jain = trace::jain_index(means);
  if (stability_n > 0)
    ir.stability = stability_sum / static_cast<double>(stability_n);
  ir.responsiveness_periods = resp;
  ir.responsiveness_s = static_cast<double>(resp) * tau;
  interval_dynamics(r, scenario, plan, means, ir);
  level_convergence(r, scenario, plan, bottleneck, ir);
  if (bottleneck != nullptr && bottleneck->utilization_samples.size() >= end) {
    double u = 0, q = 0, qmax = 0, lost = 0;
    for (size_t k = plan.first_period; k < end; ++k) {
      u += bottleneck->utilization_samples[k];
      q += bottleneck->queue_samples[k];
      qmax = std::max(qmax, bottleneck->max_queue_samples[k]);
      lost += bottleneck->drop_samples[k];
    }
    ir.utilization = u / static_cast<double>(ir.periods);
    ir.mean_queue_pkts = q / static_cast<double>(ir.periods);
    ir.max_queue_pkts = qmax;
    ir.drops = static_cast<uint64_t>(lost);
  }
}

}  // namespace

std::vector<IntervalResult> interval_results(const RunResult& r, const config::Scenario& scenario,
                                             trace::OmittedIntervals& omitted) {
  const double duration = r.sim_time_s;
  const LinkResult* bottleneck = nullptr;
  for (const auto& l : r.links) {
    if (l.id == scenario.bottleneck)
      bottleneck = &l;
  }
  std::vector<trace::Span> spans;
  for (const auto& f : r.flows)
    spans.push_back({f.start_s, f.end_s});
  // UDP sources and arrival processes starting or stopping change the capacity left to
  // the flows: they split intervals (and start convergence clocks) without being flows.
  std::vector<double> events;
  for (const auto& u : r.udp) {
    events.push_back(u.start_s);
    events.push_back(u.stop_s);
  }
  for (const auto& a : scenario.arrivals) {
    events.push_back(a.start.to_seconds());
    events.push_back(a.stop ? a.stop->to_seconds() : duration);
  }
  std::vector<IntervalResult> out;
  const double tau = scenario.sample_interval.to_seconds();
  for (const auto& plan : trace::plan_intervals(spans, duration, tau, scenario.warmup.to_seconds(), events,
                                                scenario.limits.interval_flow_entries, &omitted)) {
    IntervalResult ir;
    ir.start_s = plan.start;
    ir.end_s = plan.end;
    const size_t end = std::min(plan.end_period, r.sample_times_s.size());
    ir.periods = end > plan.first_period ? end - plan.first_period : 0;
    for (size_t fi : plan.flows)
      ir.flows.push_back(r.flows[fi].id);
    if (ir.periods > 0)
      interval_equilibrium(r, scenario, plan, bottleneck, end, ir);
    out.push_back(std::move(ir));
  }
  return out;
}

}  // namespace fastsim::run
