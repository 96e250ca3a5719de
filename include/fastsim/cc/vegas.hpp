// TCP Vegas (Brakmo & Peterson 1995; Linux tcp_vegas; docs/algorithms.md "vegas").
// Once per round, diff = w (RTT - baseRTT) / RTT estimates the packets this flow keeps
// queued; below alpha the window grows by one packet, above beta it shrinks by one.
// Choices:
// - RTT is the smallest sample of the round that just ended, baseRTT the smallest ever
//   (Linux's per-RTT minimum; Linux also resets baseRTT whenever it re-enters Open,
//   fastsim does not). A round with fewer than 3 samples makes no decision (Linux).
// - Slow start doubles the window every other round (growth rounds alternate with
//   rounds that only measure) and ends when diff > gamma, cutting the window by 1/8
//   (the seed paper; Linux instead sets w = min(w, target + 1)); ssthresh = w then.
// - Loss: as Reno (ssthresh = w/2, recovery with cwnd = ssthresh); the original 3/4 cut
//   for a first loss is not implemented. Timeout: as Reno. No decisions outside Open.
// - The +1/-1 is applied at the round boundary (Linux); the window never drops below 2,
//   and a decrease lowers ssthresh with it so the flow does not fall back into slow start.
#pragma once

#include "fastsim/cc/congestion_control.hpp"
#include "fastsim/cc/params.hpp"

namespace fastsim::cc {

/// Vegas's "extra data": packets queued by a flow with window `w` whose RTT is `rtt`.
double vegas_backlog(double w, Duration base_rtt, Duration rtt);

/// What the shared part of a Vegas-family ACK leaves to the algorithm.
struct VegasAck {
  bool avoidance = false;         ///< congestion avoidance: the algorithm's own rule applies
  std::optional<double> backlog;  ///< this ACK ended a round that allows a decision
};

/// The part Vegas and Quick Vegas share: nothing outside Open; at a round boundary the
/// round's backlog estimate (>= 3 samples and a baseRTT); below ssthresh the Vegas slow
/// start (doubling every other round, left when the backlog exceeds gamma with w cut by
/// 1/8 and ssthresh = w).
class VegasCore {
 public:
  explicit VegasCore(double gamma) : gamma_(gamma) {}
  VegasAck on_ack(const FlowView& flow, Window& w, const AckEvent& ack);
  /// The latest backlog estimate (packets).
  [[nodiscard]] double diff() const { return diff_; }

 private:
  double gamma_;
  bool grow_round_ = true;
  double diff_ = 0;
};

class Vegas final : public CongestionControl {
 public:
  static std::vector<ParamSpec> param_specs();
  /// alpha <= beta.
  static std::vector<std::pair<std::string, std::string>> check(const ParamValues& p);
  explicit Vegas(const ParamValues& p);

  void on_ack(const FlowView& flow, Window& w, const AckEvent& ack) override;
  [[nodiscard]] LossResponse on_loss(const FlowView& flow, const Window& w) override;
  [[nodiscard]] std::span<const TraceColumn> trace_columns() const override;
  [[nodiscard]] double diff() const { return core_.diff(); }

 private:
  double alpha_, beta_;
  VegasCore core_;
};

}  // namespace fastsim::cc
