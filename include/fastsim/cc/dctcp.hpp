// DCTCP (RFC 8257; Alizadeh et al., SIGCOMM 2010; Linux tcp_dctcp.c):
// - The fraction of packets acknowledged with ECE over one window of data (from the ACK
//   that ended the previous window, when snd_una passed its snd_nxt: AckEvent::round_start)
//   feeds alpha <- (1 - g) alpha + g F, once per window (RFC 8257 section 3.3).
// - An ECN-Echo reduces the window at most once per window (the sender's rule):
//   cwnd = cwnd (1 - alpha / 2), at least 2 packets.
// - Growth is Reno's (slow start with ABC, +1 packet per RTT); a loss or a timeout is
//   answered as Reno (halve; RFC 8257 section 3.5).
// - Needs ECN: its flows send ECT and their receivers echo CE exactly (section 3.2).
// - Parameters: g (1/16) and the initial alpha (1, as Linux's dctcp_alpha_on_init = 1024).
#pragma once

#include "fastsim/cc/congestion_control.hpp"
#include "fastsim/cc/params.hpp"

namespace fastsim::cc {

class Dctcp final : public CongestionControl {
 public:
  static std::vector<ParamSpec> param_specs();
  explicit Dctcp(const ParamValues& p);
  void on_ack(const FlowView& flow, Window& w, const AckEvent& ack) override;
  [[nodiscard]] LossResponse on_loss(const FlowView& flow, const Window& w) override;
  [[nodiscard]] LossResponse on_ecn(const FlowView& flow, const Window& w) override;
  [[nodiscard]] bool needs_ecn() const override { return true; }
  [[nodiscard]] std::span<const TraceColumn> trace_columns() const override;
  [[nodiscard]] double alpha() const { return alpha_; }

 private:
  double g_;
  double alpha_;
  uint64_t acked_ = 0;     // packets acknowledged in the current window
  uint64_t acked_ce_ = 0;  // of which with ECE
};

}  // namespace fastsim::cc
