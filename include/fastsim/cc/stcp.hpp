// Scalable TCP (Kelly 2003; Linux tcp_scalable; docs/algorithms.md "stcp").
// - Above low_window: w += a per packet acknowledged (counted in packets, so delayed
//   ACKs do not halve it, as Linux's per-packet counter), i.e. x(1 + a) per RTT;
//   on loss w = (1 - b) w.
// - At or below low_window (the legacy window): Reno (+1 per RTT, halve on loss).
// - Slow start: standard (ABC, L = 2).
// - Timeout: ssthresh from the same multiplicative decrease (Linux's ssthresh hook), w = 1.
#pragma once

#include "fastsim/cc/congestion_control.hpp"
#include "fastsim/cc/params.hpp"

namespace fastsim::cc {

class Scalable final : public CongestionControl {
 public:
  static std::vector<ParamSpec> param_specs();
  explicit Scalable(const ParamValues& p);
  void on_ack(const FlowView& flow, Window& w, const AckEvent& ack) override;
  [[nodiscard]] LossResponse on_loss(const FlowView& flow, const Window& w) override;
  [[nodiscard]] LossResponse on_timeout(const FlowView& flow, const Window& w) override;

 private:
  double a_;
  double b_;
  double low_window_;
};

}  // namespace fastsim::cc
