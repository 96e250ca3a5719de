// Quick Vegas (Chan, Lin, Chan, Ho: an improved Vegas for high bandwidth-delay
// product networks; docs/algorithms.md "quick-vegas"). The Vegas backlog estimate
// diff, but the window is adjusted only every other round: an adjustment sets a per-ACK
// increment incr that grows with the number succ of consecutive estimations below
// alpha (in total (beta - diff) succ packets, at most a doubling, per estimation) or
// cuts the window at once (above beta to the middle of [alpha, beta]); the round after
// it spreads incr over its ACKs and the next one holds the window.
// Choices:
// - The decision uses the round that just ended, judged by the RTT statistic of
//   parameter rtt_statistic (round_min, round_mean, srtt; as Vegas, vegas.hpp), with
//   diff computed and rounded as parameter diff_arithmetic says (exact, linux, ns2; as
//   Vegas); decisions happen at every other round boundary once slow start is over.
// - incr applies during the round that follows the adjustment only (the paper: the
//   window is adjusted every other RTT, like Vegas's slow start, whose in-between round
//   keeps the window fixed; eq. 3 adds (beta - diff) succ per estimation). A round that
//   ends without an estimate (too few samples) adds nothing.
// - incr is added per packet acknowledged (a delayed ACK covering two packets adds
//   2 incr), so the growth per estimation does not depend on the receiver's ACK policy.
// - Slow start, loss and timeout as Vegas (vegas.hpp); the window never drops below 2.
#pragma once

#include "fastsim/cc/congestion_control.hpp"
#include "fastsim/cc/params.hpp"
#include "fastsim/cc/vegas.hpp"

namespace fastsim::cc {

class QuickVegas final : public CongestionControl {
 public:
  static std::vector<ParamSpec> param_specs();
  explicit QuickVegas(const ParamValues& p);

  void on_ack(const FlowView& flow, Window& w, const AckEvent& ack) override;
  [[nodiscard]] LossResponse on_loss(const FlowView& flow, const Window& w) override;
  [[nodiscard]] std::span<const TraceColumn> trace_columns() const override;
  [[nodiscard]] double incr() const { return incr_; }
  [[nodiscard]] int succ() const { return succ_; }

 private:
  void adjust(Window& w, double diff);

  double alpha_, beta_;
  VegasCore core_;
  double incr_ = 0;
  int succ_ = 0;
  bool adjust_round_ = false;
};

}  // namespace fastsim::cc
