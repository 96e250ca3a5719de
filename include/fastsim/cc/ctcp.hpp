// Compound TCP (Tan, Song, Zhang, Sridharan, Infocom 2006; draft-sridharan-tcpm-ctcp;
// docs/algorithms.md "ctcp"). The window is w = wnd + dwnd: wnd is Reno's loss
// window, dwnd a delay-based window. fastsim's sender owns w (cwnd); CTCP keeps dwnd
// and reads wnd = w - dwnd, so a window the sender sets (recovery exit, timeout)
// stays consistent: if the sender leaves w below dwnd, dwnd is reset to 0.
// Choices:
// - Once per round, with RTT the smallest sample of the round that just ended (Linux's
//   compound/Vegas filter against delayed-ACK inflation) and w the window at that
//   round's start: diff = w (RTT - baseRTT) / RTT. Rounds with fewer than 3 samples,
//   rounds that ended in recovery and the first round after a loss are skipped.
// - diff < gamma: dwnd += max(alpha w^k - 1, 0); otherwise dwnd = max(dwnd - zeta diff, 0).
//   wnd grows by 1 packet per RTT (per ACK: acked / w), so w grows by alpha w^k per RTT
//   while the backlog is below gamma.
// - dwnd is only updated in congestion avoidance while the window limits sending; in
//   slow start dwnd = 0.
// - Loss: wnd' = wnd/2, dwnd' = max(w (1 - beta) - wnd/2, 0); ssthresh and the window
//   after recovery are wnd' + dwnd' (at least 2).
// - Timeout: ssthresh as for a loss, w = 1, dwnd = 0 (slow start).
// - TUBE (gamma tuned from the backlog seen at losses) is not implemented: gamma is fixed.
#pragma once

#include "fastsim/cc/congestion_control.hpp"
#include "fastsim/cc/params.hpp"

namespace fastsim::cc {

class Compound final : public CongestionControl {
 public:
  static std::vector<ParamSpec> param_specs();
  explicit Compound(const ParamValues& p);

  [[nodiscard]] double dwnd() const { return dwnd_; }

  void on_ack(const FlowView& flow, Window& w, const AckEvent& ack) override;
  [[nodiscard]] LossResponse on_loss(const FlowView& flow, const Window& w) override;
  [[nodiscard]] LossResponse on_timeout(const FlowView& flow, const Window& w) override;
  [[nodiscard]] std::span<const TraceColumn> trace_columns() const override;

 private:
  void update_dwnd(const FlowView& flow, const Window& w);

  double alpha_, beta_, k_, gamma_, zeta_;
  double dwnd_ = 0;
  double wnd_ = 0;           // for the trace
  double diff_ = 0;          // last backlog estimate (packets)
  double round_window_ = 0;  // w at the start of the current round
  bool skip_round_ = true;
};

}  // namespace fastsim::cc
