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
// - Parameter tube: "off" (default) keeps gamma fixed; "on" runs the draft's gamma
//   auto-tuning (draft-sridharan-tcpm-ctcp-02 section 5, "tuning by emulation"/TUBE):
//   at the end of every measured round (Open, not the round after a loss, >= 3 samples,
//   window-limited; slow start included) diff_reno = wnd_r (RTT - baseRTT) / RTT, the
//   backlog of the loss window alone (wnd_r: wnd at the round's start; RTT as for diff,
//   the draft's text uses srtt); at a loss (fast retransmit or timeout), if a diff_reno
//   was taken since the previous loss: gamma = (1 - lambda) gamma + lambda 3/4 diff_reno,
//   clamped to [5, 30] packets (the draft's gamma_low, gamma_high), and diff_reno becomes
//   invalid. The draft leaves lambda open: parameter tube_lambda, default 0.8 (ns-3's;
//   L. Andrew's Linux re-implementation used 1/2, then 1/4 from its release 1.1). The
//   initial gamma is parameter gamma (the draft: 30).
// - Parameter low_window (default 0: off): at a round end with w below it, dwnd = 0 and
//   neither dwnd nor diff_reno is updated, so CTCP is Reno there (the Linux module's
//   LOW_WINDOW, 38 from its release 1.1).
#pragma once

#include <optional>

#include "fastsim/cc/congestion_control.hpp"
#include "fastsim/cc/params.hpp"

namespace fastsim::cc {

class Compound final : public CongestionControl {
 public:
  static std::vector<ParamSpec> param_specs();
  explicit Compound(const ParamValues& p);

  [[nodiscard]] double dwnd() const { return dwnd_; }
  /// The backlog threshold in use (fixed, or tuned by TUBE).
  [[nodiscard]] double gamma() const { return gamma_; }
  /// TUBE's latest diff_reno, while valid (none: not taken since the last loss).
  [[nodiscard]] std::optional<double> diff_reno() const { return diff_reno_; }

  void on_ack(const FlowView& flow, Window& w, const AckEvent& ack) override;
  [[nodiscard]] LossResponse on_loss(const FlowView& flow, const Window& w) override;
  [[nodiscard]] LossResponse on_timeout(const FlowView& flow, const Window& w) override;
  [[nodiscard]] std::span<const TraceColumn> trace_columns() const override;

 private:
  void update_dwnd(const FlowView& flow, const Window& w);

  double alpha_, beta_, k_, gamma_, zeta_;
  bool tube_;
  double tube_lambda_;
  double low_window_;
  std::optional<double> diff_reno_;
  double dwnd_ = 0;
  double wnd_ = 0;           // for the trace
  double diff_ = 0;          // last backlog estimate (packets)
  double round_window_ = 0;  // w at the start of the current round
  double round_wnd_ = 0;     // wnd at the start of the current round
  bool skip_round_ = true;
};

}  // namespace fastsim::cc
