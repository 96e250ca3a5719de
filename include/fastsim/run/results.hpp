// What a run measured: per-flow, per-link and per-interval results, from which
// summary.json is written (summary_json) and tests assert. Computed from the components'
// counters and the probes' samples by collect_results.hpp and interval_results.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "fastsim/config/scenario.hpp"
#include "fastsim/predict/predict.hpp"
#include "fastsim/trace/metrics.hpp"
#include "fastsim/traffic/completed_flow.hpp"

namespace fastsim::run {

/// A UDP source's totals.
struct UdpResult {
  std::string id;
  std::string type;  ///< "cbr", "burst" or "pareto"
  double rate_bps = 0;
  double start_s = 0;
  double stop_s = 0;
  uint64_t packets_sent = 0;
  uint64_t packets_delivered = 0;
  uint64_t drops = 0;
};

struct FlowResult {
  std::string id;
  std::string algorithm;
  double start_s = 0;
  double end_s = 0;                    ///< stop, completion or end of run
  std::optional<double> completion_s;  ///< finite flows: time the last byte was acknowledged
  uint64_t bytes_delivered = 0;
  double goodput_bps = 0;  ///< bytes_delivered * 8 / (end - start)
  uint64_t data_packets_sent = 0;
  uint64_t data_packets_delivered = 0;  ///< unique segments delivered in order
  uint64_t retransmits = 0;
  uint64_t timeouts = 0;
  uint64_t fast_recoveries = 0;
  uint64_t drops = 0;  ///< data packets dropped at queues or lost on the wire
  uint64_t acks_sent = 0;
  double mean_rtt_s = 0;
  double min_rtt_s = 0;   ///< the smallest RTT sample (0: none)
  double base_rtt_s = 0;  ///< the sender's final baseRTT estimate: min_rtt_s unless an algorithm corrected it
  double mean_cwnd_pkts = 0;                ///< time average of cwnd while active
  std::vector<double> goodput_samples_bps;  ///< one per sample period (whole run)
  std::vector<double> cwnd_samples_pkts;    ///< time-average window per sample period (whole run)
  /// CongestionControl::summary_values at the end of the run (name, value); often empty.
  std::vector<std::pair<std::string, double>> algorithm_values;
};

struct LinkResult {
  std::string id;
  double rate_bps = 0;
  bool monitored = false;
  double utilization = 0;  ///< busy time / run time
  double mean_queue_pkts = 0;
  uint64_t max_queue_pkts = 0;
  uint64_t arrivals = 0;
  uint64_t drops = 0;
  uint64_t early_drops = 0;          ///< of the drops, RED's or the AQM's early ones
  std::optional<uint64_t> ce_marks;  ///< packets marked CE, for links that mark (RED ecn, marking)
  uint64_t random_losses = 0;
  uint64_t departures = 0;
  /// An AQM link's discipline counters (net/aqm_queue.hpp), summary.json's "aqm".
  struct Aqm {
    std::string discipline;
    uint64_t aqm_drops = 0;
    uint64_t overflow_drops = 0;
    double mean_sojourn_s = 0;
    double max_sojourn_s = 0;
    double drop_prob = 0;  ///< pie: at the end of the run
  };
  std::optional<Aqm> aqm;
  std::vector<double> utilization_samples;  ///< monitored links: one per period
  std::vector<double> queue_samples;        ///< monitored links: mean queue per period
  std::vector<double> max_queue_samples;    ///< monitored links: max queue per period
  std::vector<double> drop_samples;         ///< monitored links: packets lost per period
};

struct IntervalResult {
  double start_s = 0;
  double end_s = 0;
  std::vector<std::string> flows;
  size_t periods = 0;
  std::optional<double> throughput_bps;
  std::optional<double> utilization;
  std::optional<double> jain;
  std::optional<double> stability;
  std::optional<size_t> responsiveness_periods;
  std::optional<double> responsiveness_s;
  std::optional<double> mean_queue_pkts;
  std::optional<double> max_queue_pkts;
  std::optional<uint64_t> drops;  ///< packets lost at the bottleneck in the interval's periods
  std::vector<double> flow_throughput_bps;                       ///< per flow, same order as `flows`
  std::optional<std::string> newest_flow;                        ///< the one flow that started when the interval began
  std::optional<double> fairness_ratio;                          ///< newest flow against the others
  std::vector<std::optional<double>> flow_convergence_s;         ///< per flow, from the interval start
  std::optional<double> convergence_s;                           ///< slowest flow (null if one never settles)
  std::optional<double> convergence_base_rtts;                   ///< largest convergence time / the flow's base RTT
  std::vector<std::optional<double>> flow_window_convergence_s;  ///< per flow: cwnd settled (trace::settling_periods)
  std::optional<double> window_convergence_s;                    ///< slowest flow (null if one never settles)
  std::optional<double> queue_convergence_s;                     ///< the bottleneck's mean queue settled
};

/// One Poisson arrival process of finite flows.
struct ArrivalResult {
  std::string id;
  double flows_per_s = 0;
  uint64_t started = 0;
  uint64_t completed = 0;
  uint64_t active_at_end = 0;
  std::optional<double> mean_fct_s;
  std::optional<double> mean_slowdown;  ///< mean of fct / fair_fct
  /// Every completed flow, in completion order, and the ids of the process's paths.
  std::vector<traffic::CompletedFlow> completed_flows;
  std::vector<std::string> path_ids;
};

struct RunResult {
  double sim_time_s = 0;
  double wall_time_s = 0;
  uint64_t events = 0;
  uint64_t data_packets_delivered = 0;
  double peak_rss_mb = 0;
  std::vector<double> sample_times_s;  ///< end of each sample period
  std::vector<FlowResult> flows;
  std::vector<UdpResult> udp;
  /// The monitored links and the bottleneck, in scenario order (another link's totals:
  /// collect_results.hpp's link_result on Experiment::link).
  std::vector<LinkResult> links;
  std::vector<IntervalResult> intervals;
  /// Intervals left out of `intervals` (Limits::interval_flow_entries spent).
  trace::OmittedIntervals intervals_omitted;
  std::vector<ArrivalResult> arrivals;
  /// run --predict: the predicted equilibria (summary.json's `prediction`, beside the measured).
  std::optional<predict::Prediction> prediction;
};

/// The summary.json document: `version`, the resolved scenario echo, run facts and every result.
nlohmann::json summary_json(const config::Scenario& scenario, const RunResult& result, std::string_view version);

}  // namespace fastsim::run
