// FAST TCP (Jin, Wei, Low, Infocom 2004 and IEEE/ACM ToN 2006; docs/algorithms.md
// "fast") with the two persistent-congestion remedies: the baseRTT correction of
// Rodriguez-Perez et al. 2010 and the rate reduction of Cui, Andrew, Zukerman, Tan 2006.
//
// Estimation: every RTT sample updates avgRTT with weight eta = min(3/w, eta_cap);
// baseRTT is the sender's minimum (RttView::min_rtt, lowered by the correction);
// qdelay = avgRTT - baseRTT.
// Window control, once per update period:
//   target = min(2w, (1 - gamma) w + gamma (baseRTT/avgRTT w + alpha(w)))
// alpha(w) = mi_a * w while qdelay <= mi_qdelay (multiplicative increase, off when
// mi_a = 0), alpha otherwise.
// Choices (written down in docs/algorithms.md):
// - Period "every other RTT" (update_interval = 0): at a round boundary the target is
//   computed, the next round moves the window there in equal per-packet steps (so it
//   at most doubles in that RTT) and ends exactly on it, the round after is frozen.
//   With update_interval > 0 the algorithm's timer computes the target every interval
//   and the step is spread over the ACKs of one interval (a window's worth, or the
//   interval's share f = interval / avgRTT of it when shorter than the RTT); the window
//   still at most doubles per RTT: a shorter interval's target is capped at 2^f w.
// - Slow start (slow_start = "on", default; the Linux prototype's behaviour): Reno's
//   doubling per RTT until the flow's own backlog estimate w qdelay / avgRTT exceeds
//   alpha or a loss occurs; then window control (ssthresh = w). "off": window control
//   from the first ACK (growth gamma*alpha per period, or MI with mi_a).
// - Loss: w and ssthresh become w/2, but not below min_loss_window for windows above
//   it; no delay reaction in Recovery/Loss (the estimator keeps running); control
//   restarts with a fresh update period when recovery ends. Timeout: as Reno.
// - Burstiness control (pacing = "on"): the sender paces at 1.2 w / avgRTT (2 w/avgRTT
//   in slow start, Linux's pacing ratios), so a window increase leaves spread over the RTT.
// - Windows never drop below 2 packets (a delayed-ACK receiver stalls at 1).
// - Rodriguez (base_rtt_correction = "rodriguez"): once window control has made
//   stable_updates consecutive updates changing w by less than stable_tolerance (0.2 %:
//   at 1 % the newcomer is still ~10 % short of its equilibrium rate, and the
//   estimate of n, which assumes it, is 40 % high), the flow probes: it holds
//   w = (1 - theta) w* for t_eps (0 = its avgRTT r*) paced at (1 - theta) w* / r* (the
//   rate eq. (22) assumes; an unpaced jump queues at the flow's own first hop), then w*.
//   Eq. (22) needs the other flows' rates constant, which holds for t_eps up to the
//   shortest RTT among them (their ACK clocks react after one RTT): r* on a dumbbell;
//   on paths where others have shorter RTTs t_eps must be set (docs/algorithms.md).
//   r_eps is the extreme RTT sample (largest for theta < 0) of the packets sent during
//   the probe (send time = now - sample), taken over ACKs covering two or more packets
//   when there are enough (a delayed-ACK timer inflates single-packet ACKs); the
//   measurement ends with the ACK of the first packet sent after the probe. With
//   u = |theta t_eps / (r_eps - r*)| it takes n = u (u - 1) and
//   C = (1 + sqrt(1 + 4n)) w* / (2 r*), sets baseRTT' = baseRTT - n alpha / C (the
//   baseRTT held when the probe began) and w = alpha + baseRTT' C / (n + 1), once. The
//   magnitude: the signed ratio theta t_eps / (r_eps - r*) is negative for every theta
//   (the RTT moves against theta), while the n formula is the fluid model's solution for
//   the positive root u = 1 + a (a = (sqrt(1 + 4n) - 1) / 2) (docs/algorithms.md "fast").
// - Rate reduction (base_rtt_correction = "rate_reduction"): once window control is
//   stable (the same test), i.e. at the equilibrium rate the persistent-congestion
//   paper's drain condition (eq. (19)) assumes, w drops to w / rr_factor for rr_rtts
//   avgRTTs (the queue drains; the few packets it sends measure the empty path), then
//   returns to its value and window control resumes with the new baseRTT.
// Both remedies report n-hat, C-hat and the baseRTT change they applied as trace
// columns and summary values.
#pragma once

#include "fastsim/cc/congestion_control.hpp"
#include "fastsim/cc/params.hpp"

namespace fastsim::cc {

class Fast final : public CongestionControl {
 public:
  /// base_rtt_correction: "none", "rodriguez", "rate_reduction".
  enum class Correction { kNone, kRodriguez, kRateReduction };
  /// The window-control phase; its number is the trace's fast_phase column.
  enum class Phase { kControl, kWaitStable, kPerturb, kMeasure, kThrottle };

  static std::vector<ParamSpec> param_specs();
  /// theta != 0.
  static std::vector<std::pair<std::string, std::string>> check(const ParamValues& p);
  explicit Fast(const ParamValues& p);

  void on_ack(const FlowView& flow, Window& w, const AckEvent& ack) override;
  [[nodiscard]] LossResponse on_loss(const FlowView& flow, const Window& w) override;
  [[nodiscard]] LossResponse on_timeout(const FlowView& flow, const Window& w) override;
  void on_recovery_exit(const FlowView& flow, Window& w) override;
  void on_timer(const FlowView& flow, Window& w) override;
  [[nodiscard]] bool wants_timer() const override { return true; }
  [[nodiscard]] bool wants_pacing() const override { return true; }
  [[nodiscard]] std::span<const TraceColumn> trace_columns() const override;
  [[nodiscard]] std::span<const TraceColumn> summary_values() const override;

  /// The window-control target for window w, baseRTT and avgRTT (seconds).
  [[nodiscard]] double target(double w, double base_s, double avg_s) const;
  /// The update period as a fraction of the RTT avg_s, at most 1 (1 in "every other RTT").
  [[nodiscard]] double period_share(double avg_s) const;
  [[nodiscard]] double avg_rtt_s() const { return avg_rtt_s_; }
  [[nodiscard]] Phase phase() const { return phase_; }
  [[nodiscard]] double n_estimate() const { return n_hat_; }
  [[nodiscard]] double capacity_estimate_pps() const { return c_hat_; }
  /// The baseRTT change a remedy applied (seconds, >= 0; 0 before or without one).
  [[nodiscard]] double base_rtt_correction_s() const { return correction_s_; }
  [[nodiscard]] double base_rtt_s(const FlowView& flow) const;

 private:
  void estimate(const Window& w, Duration sample);
  void begin_update(const FlowView& flow, Window& w);
  void step(Window& w, double acked);
  void end_slow_start(const FlowView& flow, Window& w);
  void begin_perturbation(const FlowView& flow, Window& w);
  void begin_throttle(const FlowView& flow, Window& w);
  void record_probe_sample(const FlowView& flow, const AckEvent& ack);
  void finish_measurement(const FlowView& flow, Window& w);
  void arm();
  void abandon_remedy(const Window& w);
  void update_pacing(const Window& w);

  double alpha_, gamma_, update_interval_s_, eta_cap_, mi_a_, mi_qdelay_s_, min_loss_window_;
  bool slow_start_, pacing_;
  Correction correction_;
  double theta_, t_eps_param_s_, stable_updates_, stable_tolerance_, rr_factor_, rr_rtts_;

  double avg_rtt_s_ = 0;
  bool started_ = false;
  bool update_round_ = false;
  double target_ = 0;
  double step_per_pkt_ = 0;
  Time next_update_ = Time::never();
  Phase phase_ = Phase::kControl;
  Time phase_deadline_ = Time::never();
  int stable_ = 0;
  bool remedy_done_ = false;
  double w_star_ = 0;
  double r_star_s_ = 0;
  double t_eps_s_ = 0;
  /// The largest RTT sample (smallest for theta > 0) of the packets sent during the
  /// probe, over every ACK and over the ACKs that covered two or more packets (the
  /// receiver sent those at once: no delayed-ACK timer in their samples).
  struct ProbeSamples {
    double all = 0;
    double immediate = 0;
    int all_count = 0;
    int immediate_count = 0;
  };
  ProbeSamples probe_;
  Time probe_start_ = Time::never();
  Time probe_end_ = Time::never();
  double probe_rate_pps_ = 0;
  bool probe_paced_ = false;  // the sender is paced for the remedy
  double base_before_s_ = 0;
  double correction_s_ = 0;
  double n_hat_ = 0;
  double c_hat_ = 0;
  double base_override_s_ = 0;  // > 0: corrected baseRTT (kept for runs without a sender)
};

}  // namespace fastsim::cc
