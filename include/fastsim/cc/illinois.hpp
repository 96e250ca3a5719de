// TCP Illinois (Liu, Basar, Srikant 2008; Linux tcp_illinois; docs/algorithms.md
// "illinois"). AIMD whose increase alpha and decrease beta follow the average
// queueing delay da = avgRTT - baseRTT relative to the largest seen dm = maxRTT - baseRTT.
// Choices:
// - Once per round (at the ACK that ends it) from that round's samples: avgRTT is the
//   mean of the round's samples, maxRTT the largest sample ever, baseRTT the smallest
//   ever (never aged, as Linux). Rounds without samples leave alpha and beta unchanged.
// - alpha = alpha_max only after theta consecutive rounds with da <= d1 once the delay has
//   been above d1 (Linux counts such rounds without resetting on the way up; here they
//   must be consecutive, as the Illinois paper's "theta RTTs in that state" reads).
// - Post-loss RTT filtering (the evaluation paper's fix against maxRTT outliers) is the
//   parameter loss_filter_rtts: the samples of that many rounds after a loss or a
//   timeout are ignored for maxRTT and for the averages. Default 0 = Linux.
// - Below win_thresh alpha = alpha_base and beta = beta_base (Reno).
// - Loss: ssthresh = w (1 - beta). Timeout: the same ssthresh with the current beta,
//   then alpha and beta reset to their base values (Linux's TCP_CA_Loss hook).
// - Slow start: standard (ABC, L = 2).
#pragma once

#include "fastsim/cc/congestion_control.hpp"
#include "fastsim/cc/params.hpp"

namespace fastsim::cc {

class Illinois final : public CongestionControl {
 public:
  static std::vector<ParamSpec> param_specs();
  /// Cross-parameter constraints (alpha_min < alpha_max, beta_min <= beta_max).
  static std::vector<std::pair<std::string, std::string>> check(const ParamValues& p);
  explicit Illinois(const ParamValues& p);

  /// alpha for average delay da and maximum delay dm (seconds), ignoring the theta rule.
  [[nodiscard]] double alpha_curve(double da, double dm) const;
  /// beta for average delay da and maximum delay dm (seconds).
  [[nodiscard]] double beta_curve(double da, double dm) const;
  [[nodiscard]] double alpha() const { return alpha_; }
  [[nodiscard]] double beta() const { return beta_; }

  void on_ack(const FlowView& flow, Window& w, const AckEvent& ack) override;
  [[nodiscard]] LossResponse on_loss(const FlowView& flow, const Window& w) override;
  [[nodiscard]] LossResponse on_timeout(const FlowView& flow, const Window& w) override;
  [[nodiscard]] std::span<const TraceColumn> trace_columns() const override;

 private:
  void update_params(const FlowView& flow, const Window& w);

  double alpha_max_, alpha_min_, alpha_base_;
  double beta_min_, beta_max_, beta_base_;
  double win_thresh_;
  double theta_;
  double loss_filter_rtts_;

  double alpha_;
  double beta_;
  double max_rtt_s_ = 0;
  double da_s_ = 0;
  double dm_s_ = 0;
  bool rtt_above_ = false;
  int rtt_low_ = 0;
  uint64_t filter_until_round_ = 0;  // rounds ending at or before this are ignored
};

}  // namespace fastsim::cc
