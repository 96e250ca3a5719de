// CUBIC (RFC 8312; Linux tcp_cubic; docs/algorithms.md "cubic"), for comparison.
// - W(t) = C (t - K)^3 + W_max with K = cbrt((W_max - w0) / C), w0 the window when the
//   epoch starts (= W_max (1 - beta_cubic) right after a loss, as RFC 8312's K).
//   The epoch starts at the first ACK in congestion avoidance after a loss (Linux).
// - Per ACK the window moves towards the target W(t + RTT) by (target - w)/w per packet
//   acknowledged, at most 0.5 per packet (Linux's cnt >= 2); when the target is below
//   the window it grows by 0.01/w per packet (Linux's cnt = 100 w). RTT is the smoothed RTT.
// - TCP-friendly region (RFC 8312 section 4.2): W_est(t) = w0 + 3 (1 - beta)/(1 + beta) t / RTT;
//   the target is max(W(t + RTT), W_est(t)).
// - Fast convergence: a loss below the previous W_max sets W_max = w (1 + beta)/2.
// - Loss: ssthresh = w beta_cubic. Timeout: the same ssthresh, then W_max and the epoch are
//   reset (Linux bictcp_reset), so the next epoch starts with K = 0 at the window it has then.
// - Idle: when data leaves again with nothing in flight, the epoch start moves on by the
//   idle time (at most to now), so the curve continues where it stopped instead of
//   counting the pause (Linux cubictcp_cwnd_event, CA_EVENT_TX_START).
// - Slow start is standard (ABC, L = 2). Parameter hystart: "off" (RFC 8312 does not use
//   it; the rfc and ns2 stacks' value) or "linux" (the linux stack's), Linux's HyStart (hystart.hpp: ACK-train and
//   delay-increase detection end slow start with ssthresh = cwnd before a loss).
#pragma once

#include <optional>

#include "fastsim/cc/congestion_control.hpp"
#include "fastsim/cc/hystart.hpp"
#include "fastsim/cc/params.hpp"

namespace fastsim::cc {

class Cubic final : public CongestionControl {
 public:
  static std::vector<ParamSpec> param_specs();
  static std::vector<std::pair<std::string, std::string>> check(const ParamValues& p);
  explicit Cubic(const ParamValues& p);

  [[nodiscard]] double w_max() const { return w_max_; }
  [[nodiscard]] double k_seconds() const { return k_; }
  /// HyStart's state (meaningful with hystart = "linux").
  [[nodiscard]] const Hystart& hystart() const { return hystart_; }

  void on_ack(const FlowView& flow, Window& w, const AckEvent& ack) override;
  [[nodiscard]] LossResponse on_loss(const FlowView& flow, const Window& w) override;
  [[nodiscard]] LossResponse on_timeout(const FlowView& flow, const Window& w) override;
  [[nodiscard]] bool wants_tx_start() const override { return true; }
  void on_tx_start(const FlowView& flow, Duration idle) override;
  [[nodiscard]] std::span<const TraceColumn> trace_columns() const override;

 private:
  double c_, beta_;
  bool tcp_friendly_, fast_convergence_;
  bool use_hystart_;
  Hystart hystart_;
  double w_max_ = 0;  // W_max of the current epoch (0: none yet)
  double w_last_max_ = 0;
  std::optional<Time> epoch_start_;
  double origin_ = 0;
  double k_ = 0;
  double w0_ = 0;
};

}  // namespace fastsim::cc
