// The theory's answer for a scenario (docs/predict.md): per interval of constant flow set,
// the equilibrium of its FAST, Vegas and Quick Vegas flows (weighted proportional
// fairness with the persistent-congestion baseRTT errors), the response-function rates
// of loss-based flows under random loss, the links' queues, and for every flow the model
// does not cover the reason instead of a number.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "fastsim/config/scenario.hpp"
#include "fastsim/predict/equilibrium.hpp"

namespace fastsim::predict {

struct FlowPrediction {
  std::string id;
  std::string algorithm;
  std::optional<std::string> reason;  ///< set: no prediction for this flow, and why
  std::string model;                  ///< what the numbers come from
  std::vector<std::string> notes;
  double rate_bps = 0;                    ///< on the wire (packet_size bytes per packet)
  double goodput_bps = 0;                 ///< payload: rate * mss / packet_size
  double queueing_delay_s = 0;            ///< sum of the link prices on its path
  double rtt_s = 0;                       ///< base RTT + queueing delay
  double window_pkts = 0;                 ///< rate * RTT
  double queued_pkts = 0;                 ///< its packets in the queues: rate * queueing delay
  double target_low_pkts = 0;             ///< delay-based: alpha (Vegas: alpha of the [alpha, beta] band)
  double target_high_pkts = 0;            ///< delay-based: alpha (Vegas: beta)
  double base_rtt_error_s = 0;            ///< how much its baseRTT exceeds the true one
  std::optional<double> loss_rate;        ///< loss-based: the path's random loss rate
  std::optional<std::string> bottleneck;  ///< the link of largest price on its path
  /// Vegas/Quick Vegas on a single shared bottleneck: the rates (on the wire) of every
  /// equilibrium in the [alpha, beta] bands, lowest and highest (see docs/predict.md).
  std::optional<std::pair<double, double>> rate_band_bps;
};

struct LinkPrediction {
  std::string id;
  double capacity_bps = 0;
  double load_bps = 0;  ///< TCP flows' predicted rates plus UDP load
  double utilization = 0;
  double queueing_delay_s = 0;  ///< the link's price
  double queue_pkts = 0;
  double queue_bytes = 0;
  std::optional<std::string> reason;  ///< set: the link's queue is not predicted
};

struct IntervalPrediction {
  double start_s = 0;
  double end_s = 0;
  std::vector<FlowPrediction> flows;  ///< active TCP flows in scenario order
  std::vector<LinkPrediction> links;  ///< links carrying traffic, in scenario order
  size_t sweeps = 0;
  double residual = 0;
  bool converged = true;
};

struct Prediction {
  double tolerance = 0;
  std::vector<IntervalPrediction> intervals;
  size_t intervals_omitted = 0;  ///< left out once Limits::interval_flow_entries was spent
};

/// Predicts every interval of `scenario`. Never throws for a valid scenario: what the
/// model does not cover is said per flow (FlowPrediction::reason).
Prediction predict(const config::Scenario& scenario, const EqOptions& options = {});

/// The prediction as JSON (the `fastsim predict --json` document and summary.json's
/// `prediction.model`).
nlohmann::json to_json(const Prediction& p);

/// The prediction as text tables, one per interval.
std::string format_text(const Prediction& p);

}  // namespace fastsim::predict
