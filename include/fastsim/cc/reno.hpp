// Reno / NewReno window control (RFC 5681, RFC 6582; docs/algorithms.md "reno").
// - Slow start with appropriate byte counting (RFC 3465, L = 2): one ACK covering
//   two packets grows the window by two.
// - Congestion avoidance: w += increase * acked / w (increase = 1 packet per RTT).
// - Fast retransmit: ssthresh = max(w * (1 - decrease), 2) (RFC 5681 section 3.2); the
//   sender recovers with cwnd = ssthresh (SACK) or ssthresh + 3 with inflation (NewReno).
// - Timeout: ssthresh = max(w/2, 2), w = 1 (RFC 5681 section 3.1; the base class default).
// - No growth during recovery or when the window did not limit sending.
#pragma once

#include "fastsim/cc/congestion_control.hpp"
#include "fastsim/cc/params.hpp"

namespace fastsim::cc {

/// Slow start with ABC (L = 2 packets per ACK); returns the acked packets left over
/// once cwnd reaches ssthresh (0 while still below it).
double slow_start(Window& w, double acked);
/// The common start of on_ack for window-growing algorithms: no growth in recovery or
/// when the window did not limit sending; slow start (ABC) below ssthresh. Returns the
/// acked packets left for congestion avoidance (0: nothing to do).
double acked_for_avoidance(const FlowView& flow, Window& w, const AckEvent& ack);
/// Additive increase of `per_rtt` packets per window of ACKed packets.
void additive_increase(Window& w, double acked, double per_rtt);

class Reno final : public CongestionControl {
 public:
  static std::vector<ParamSpec> param_specs();
  explicit Reno(const ParamValues& p);
  void on_ack(const FlowView& flow, Window& w, const AckEvent& ack) override;
  [[nodiscard]] LossResponse on_loss(const FlowView& flow, const Window& w) override;

 private:
  double increase_;
  double decrease_;
};

}  // namespace fastsim::cc
