// BBR v1 (Cardwell et al., "BBR: Congestion-Based Congestion Control", ACM Queue 2016;
// draft-cardwell-iccrg-bbr-congestion-control-00), as Linux net/ipv4/tcp_bbr.c since 4.9
// (docs/algorithms.md "bbr"). A model-based algorithm: it does not react to loss or delay
// but estimates the bottleneck bandwidth (BtlBw) and the round-trip propagation time
// (RTprop) from the sender's delivery-rate samples (tcp/rate_sampler.hpp, asked for with
// wants_rate_samples) and sets a pacing rate and a window from them:
//   BtlBw   = max of the delivery rates over the last 10 packet-timed rounds (samples that
//             are app-limited count only if they raise it);
//   RTprop  = min RTT over 10 s;
//   pacing  = pacing_gain * BtlBw * (1 - 1 %);
//   cwnd    = cwnd_gain * BtlBw * RTprop + 3 packets, rounded up to even, at least 4.
// - Startup: pacing and cwnd gain 2/ln 2 = 2.885 until the bandwidth estimate has not grown
//   by 25 % for 3 rounds (non-app-limited round starts); then Drain (pacing gain 1/2.885)
//   until in flight <= BtlBw * RTprop; then ProbeBW: pacing gain cycles through
//   [1.25, 0.75, 1, 1, 1, 1, 1, 1], one phase per RTprop (the 1.25 phase also waits for
//   in flight to reach 1.25 BDP, the 0.75 phase ends early once in flight <= BDP), cwnd gain 2.
//   The first phase is picked among all but 0.75 by a deterministic hash of the time and
//   RTprop (Linux: prandom), so flows started at different times are not in step.
// - ProbeRTT: when RTprop is 10 s old, pacing gain 1 and cwnd 4 until in flight <= 4, then
//   for max(200 ms, one round); RTprop's timestamp restarts and the previous cwnd is
//   restored; back to ProbeBW (or Startup if the pipe was never filled). The rate samples
//   taken meanwhile are marked app-limited (SenderControl::mark_app_limited).
// - Loss: ssthresh stays "infinite" (BBR ignores it); entering fast recovery, cwnd = packets in
//   flight (packet conservation for one round: cwnd >= in flight + acked), restored to the
//   pre-loss window when recovery ends; after an RTO, cwnd = 1 and grows by the packets
//   acked, the full-bandwidth counter restarts, and the pre-loss window is restored on the
//   way out of the Loss state.
// - The bandwidth window is exact (the max over the per-round maxima of the last 10
//   rounds) where Linux keeps Nichols' 3-sample approximation.
// Simplifications (not modelled): the long-term bandwidth sampling of token-bucket
// policers (lt_bw), the idle restart (CA_EVENT_TX_START pacing at BtlBw), TSO sizing
// (the quantization budget is 3 packets, Linux's 3 * tso_segs_goal with one segment per
// send), the ACK-aggregation extra_acked of 4.20+, the reduction by newly lost packets
// (rs->losses: the sender does not count them per ACK), and pacing before the first RTT
// sample (Linux paces at 2.885 * IW / 1 ms then; here the first window leaves unpaced).
// With the `prr` switch the window during fast recovery is PRR's, which the sender applies
// after the algorithm (Linux lets BBR's cong_control override PRR).
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "fastsim/cc/congestion_control.hpp"
#include "fastsim/cc/params.hpp"

namespace fastsim::cc {

class Bbr final : public CongestionControl {
 public:
  enum class Mode : uint8_t { kStartup = 0, kDrain = 1, kProbeBw = 2, kProbeRtt = 3 };
  static constexpr int kCycleLength = 8;
  static constexpr size_t kMaxBwRounds = 64;

  static std::vector<ParamSpec> param_specs();
  /// The round counts must be whole numbers.
  static std::vector<std::pair<std::string, std::string>> check(const ParamValues& p);
  explicit Bbr(const ParamValues& p);

  [[nodiscard]] Mode mode() const { return mode_; }
  /// BtlBw, packets per second (0 before the first valid sample).
  [[nodiscard]] double bandwidth() const;
  [[nodiscard]] std::optional<Duration> min_rtt() const { return min_rtt_; }
  /// When RTprop was last set (or ProbeRTT last ended).
  [[nodiscard]] Time min_rtt_stamp() const { return min_rtt_stamp_; }
  [[nodiscard]] double pacing_gain() const { return pacing_gain_; }
  [[nodiscard]] double cwnd_gain() const { return cwnd_gain_; }
  [[nodiscard]] int cycle_index() const { return cycle_idx_; }
  [[nodiscard]] bool full_bw_reached() const { return full_bw_reached_; }
  [[nodiscard]] uint64_t rounds() const { return rtt_cnt_; }
  /// The window BBR aims at with `gain`: gain * BtlBw * RTprop + 3, rounded up to even.
  [[nodiscard]] double target_cwnd(double gain) const;

  [[nodiscard]] bool wants_rate_samples() const override { return true; }
  [[nodiscard]] bool wants_pacing() const override { return true; }
  [[nodiscard]] bool exempt_from_idle_restart() const override { return true; }  // Linux: cong_control
  void on_ack(const FlowView& flow, Window& w, const AckEvent& ack) override;
  void on_delivery(const FlowView& flow, Window& w, const AckEvent& ack) override;
  [[nodiscard]] LossResponse on_loss(const FlowView& flow, const Window& w) override;
  void on_recovery_exit(const FlowView& flow, Window& w) override;
  [[nodiscard]] LossResponse on_timeout(const FlowView& flow, const Window& w) override;
  [[nodiscard]] std::span<const TraceColumn> trace_columns() const override;

 private:
  void update(const FlowView& flow, Window& w, const AckEvent& ack);
  void update_bw(const RateSample& rs);
  void update_cycle_phase(const FlowView& flow, double prior_in_flight);
  void advance_cycle_phase(Time now);
  void check_full_bw_reached(const RateSample& rs);
  void check_drain(const FlowView& flow);
  void update_min_rtt(const FlowView& flow, const RateSample& rs);
  void reset_mode(Time now);
  void enter_probe_bw(Time now);
  void set_pacing(const FlowView& flow, double w_cwnd);
  void set_cwnd(const FlowView& flow, Window& w, const RateSample& rs);
  void save_cwnd(const Window& w);

  // Parameters.
  double high_gain_, drain_gain_, cwnd_gain_param_;
  Duration min_rtt_window_, probe_rtt_time_;
  uint64_t bw_rounds_;
  double full_bw_growth_;
  uint32_t full_bw_rounds_;

  Mode mode_ = Mode::kStartup;
  double pacing_gain_, cwnd_gain_;
  // BtlBw: per-round maxima of the last bw_rounds_ rounds.
  std::array<double, kMaxBwRounds> bw_max_{};
  std::array<uint64_t, kMaxBwRounds> bw_round_{};
  uint64_t rtt_cnt_ = 0;
  uint64_t next_rtt_delivered_ = 0;
  bool round_start_ = false;
  std::optional<Duration> min_rtt_;
  Time min_rtt_stamp_ = Time::zero();
  // Startup.
  bool full_bw_reached_ = false;
  double full_bw_ = 0;
  uint32_t full_bw_cnt_ = 0;
  // ProbeBW.
  int cycle_idx_ = 0;
  Time cycle_stamp_ = Time::zero();
  // ProbeRTT.
  std::optional<Time> probe_rtt_done_;
  bool probe_rtt_round_done_ = false;
  // Loss handling.
  CaState prev_state_ = CaState::kOpen;
  bool packet_conservation_ = false;
  bool restore_cwnd_ = false;
  double prior_cwnd_ = 0;
  double last_cwnd_ = 0;
  bool has_seen_rtt_ = false;
  double pacing_rate_ = 0;
};

}  // namespace fastsim::cc
