// FAST TCP window control and its persistent-congestion remedies (see fast.hpp).
#include "fastsim/cc/fast.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "fastsim/cc/reno.hpp"

namespace fastsim::cc {

namespace {
constexpr double kPacingGainCa = 1.2;    // Linux tcp_pacing_ca_ratio
constexpr double kPacingGainSs = 2.0;    // Linux tcp_pacing_ss_ratio
constexpr double kMeasureRtts = 3;       // Rodriguez: give up waiting for the probe's ACKs after this many r*
constexpr int kMinImmediateSamples = 4;  // Rodriguez: fewer immediate ACKs: the receiver ACKs every packet

Fast::Correction correction_from(const std::string& name) {
  if (name == "rodriguez")
    return Fast::Correction::kRodriguez;
  if (name == "rate_reduction")
    return Fast::Correction::kRateReduction;
  if (name == "none")
    return Fast::Correction::kNone;
  throw std::invalid_argument("unknown base_rtt_correction \"" + name + "\"");
}
}  // namespace

std::vector<ParamSpec> Fast::param_specs() {
  return {
      {"alpha", 200, 0.1, 1e7, "packets", "packets the flow aims to keep queued"},
      {"gamma", 0.5, 0.001, 1, "fraction", "step towards the target per update, in (0, 1]"},
      {"update_interval", 0, 0, 100, "s", "window update period; 0 = every other RTT"},
      {"eta_cap", 0.25, 1e-6, 1, "weight", "cap of the avgRTT weight min(3/w, eta_cap) (ns-2 module: 1/256)"},
      {"mi_a", 0, 0, 100, "fraction", "multiplicative increase alpha(w) = mi_a w while qdelay <= mi_qdelay; 0 = off"},
      {"mi_qdelay", 0.0001, 0, 10, "s", "queueing delay at or below which the path counts as empty (MI)"},
      {"min_loss_window", 16, 1, 1e7, "packets", "a loss does not halve a larger window below this"},
      choice_param("slow_start", {"on", "off"}, "Reno slow start until alpha packets are queued, or none"),
      choice_param("pacing", {"off", "on"}, "burstiness control: pace at 1.2 w/avgRTT"),
      choice_param("base_rtt_correction", {"none", "rodriguez", "rate_reduction"},
                   "persistent-congestion remedy: Rodriguez-Perez 2010 or Cui et al. 2006"),
      {"theta", -0.5, -4, 0.99, "fraction", "rodriguez: perturbation w = (1 - theta) w* (negative: an increase)"},
      {"t_eps", 0, 0, 100, "s",
       "rodriguez: probe time (paced at (1 - theta) w*/avgRTT), at most the shortest RTT of the flows sharing the "
       "bottleneck; 0 = one avgRTT"},
      {"stable_updates", 4, 1, 10000, "updates", "both remedies: consecutive stable updates before acting"},
      {"stable_tolerance", 0.002, 1e-6, 0.5, "fraction",
       "both remedies: an update is stable if it moves w by less than this"},
      {"rr_factor", 50, 1, 1e7, "factor", "rate_reduction: window divided by this once the flow is stable"},
      {"rr_rtts", 2, 0.1, 1000, "RTTs", "rate_reduction: how long the window stays reduced"},
  };
}

std::vector<std::pair<std::string, std::string>> Fast::check(const ParamValues& p) {
  if (p.get("theta") == 0)
    return {{"theta", "must not be 0 (no perturbation, nothing to measure)"}};
  return {};
}

Fast::Fast(const ParamValues& p)
    : alpha_(p.get("alpha")),
      gamma_(p.get("gamma")),
      update_interval_s_(p.get("update_interval")),
      eta_cap_(p.get("eta_cap")),
      mi_a_(p.get("mi_a")),
      mi_qdelay_s_(p.get("mi_qdelay")),
      min_loss_window_(p.get("min_loss_window")),
      slow_start_(p.choice("slow_start") == "on"),
      pacing_(p.choice("pacing") == "on"),
      correction_(correction_from(p.choice("base_rtt_correction"))),
      theta_(p.get("theta")),
      t_eps_param_s_(p.get("t_eps")),
      stable_updates_(p.get("stable_updates")),
      stable_tolerance_(p.get("stable_tolerance")),
      rr_factor_(p.get("rr_factor")),
      rr_rtts_(p.get("rr_rtts")) {}

double Fast::base_rtt_s(const FlowView& flow) const {
  double b = flow.rtt->min_rtt ? flow.rtt->min_rtt->to_seconds() : 0.0;
  if (base_override_s_ > 0)
    b = b > 0 ? std::min(b, base_override_s_) : base_override_s_;
  return b;
}

double Fast::target(double w, double base_s, double avg_s) const {
  const double qdelay = std::max(avg_s - base_s, 0.0);
  const double a = mi_a_ > 0 && qdelay <= mi_qdelay_s_ ? mi_a_ * w : alpha_;
  // At most doubling per RTT: a period shorter than the RTT gets its share of a doubling.
  const double growth = std::exp2(period_share(avg_s));
  const double t = std::min(growth * w, (1 - gamma_) * w + gamma_ * (base_s / avg_s * w + a));
  return at_least_min_window(t);
}

void Fast::estimate(const Window& w, Duration sample) {
  const double s = sample.to_seconds();
  if (avg_rtt_s_ <= 0) {
    avg_rtt_s_ = s;
  } else {
    const double eta = std::min(3.0 / w.cwnd_pkts, eta_cap_);
    avg_rtt_s_ = (1 - eta) * avg_rtt_s_ + eta * s;
  }
}

void Fast::record_probe_sample(const FlowView& flow, const AckEvent& ack) {
  const Time sent = flow.now - *ack.rtt_sample;
  if (sent < probe_start_ || sent > probe_end_)
    return;  // only the packets sent during the probe measure it
  const double s = ack.rtt_sample->to_seconds();
  const auto extreme = [this](double a, double b) { return theta_ < 0 ? std::max(a, b) : std::min(a, b); };
  probe_.all = probe_.all_count++ == 0 ? s : extreme(probe_.all, s);
  if (ack.newly_acked >= 2)  // the receiver sent it at once: no delayed-ACK timer in the sample
    probe_.immediate = probe_.immediate_count++ == 0 ? s : extreme(probe_.immediate, s);
}

void Fast::arm() {
  if (control_ != nullptr)
    control_->set_timer(std::min(next_update_, phase_deadline_));
}

void Fast::update_pacing(const Window& w) {
  if (control_ == nullptr)
    return;
  if (phase_ == Phase::kPerturb) {
    control_->set_pacing_rate(probe_rate_pps_);
    probe_paced_ = true;
    return;
  }
  if (!pacing_ || avg_rtt_s_ <= 0) {
    if (probe_paced_)
      control_->set_pacing_rate(0);  // the probe is over: unpaced again
    probe_paced_ = false;
    return;
  }
  const double gain = w.cwnd_pkts < w.ssthresh_pkts ? kPacingGainSs : kPacingGainCa;
  control_->set_pacing_rate(gain * w.cwnd_pkts / avg_rtt_s_);
}

double Fast::period_share(double avg_s) const {
  if (update_interval_s_ <= 0 || avg_s <= 0)
    return 1;
  return std::min(1.0, update_interval_s_ / avg_s);
}

void Fast::step(Window& w, double acked) {
  if (step_per_pkt_ == 0)
    return;
  w.cwnd_pkts += step_per_pkt_ * acked;
  w.cwnd_pkts = step_per_pkt_ > 0 ? std::min(w.cwnd_pkts, target_) : std::max(w.cwnd_pkts, target_);
}

void Fast::begin_update(const FlowView& flow, Window& w) {
  const double base = base_rtt_s(flow);
  if (base <= 0 || avg_rtt_s_ <= 0)
    return;
  target_ = target(w.cwnd_pkts, base, avg_rtt_s_);
  // Spread over the ACKs of one period: a window's worth per RTT, its share per shorter period.
  step_per_pkt_ = (target_ - w.cwnd_pkts) / (w.cwnd_pkts * period_share(avg_rtt_s_));
  if (phase_ != Phase::kWaitStable)
    return;
  stable_ = std::abs(target_ - w.cwnd_pkts) <= stable_tolerance_ * w.cwnd_pkts ? stable_ + 1 : 0;
  if (stable_ < stable_updates_)
    return;
  if (correction_ == Correction::kRodriguez)
    begin_perturbation(flow, w);
  else
    begin_throttle(flow, w);
}

void Fast::on_ack(const FlowView& flow, Window& w, const AckEvent& ack) {
  if (!started_) {
    started_ = true;
    if (!slow_start_)
      w.ssthresh_pkts = std::min(w.ssthresh_pkts, w.cwnd_pkts);
  }
  if (ack.rtt_sample) {
    estimate(w, *ack.rtt_sample);
    if (phase_ == Phase::kPerturb || phase_ == Phase::kMeasure)
      record_probe_sample(flow, ack);
  }
  if (phase_ == Phase::kMeasure && ack.rtt_sample && flow.now - *ack.rtt_sample > probe_end_) {
    finish_measurement(flow, w);  // the first packet sent after the probe: every probe packet is acked
    return;
  }
  if (flow.state == CaState::kLoss) {  // after a timeout: slow start back to ssthresh, as Reno
    if (flow.cwnd_limited && w.cwnd_pkts < w.ssthresh_pkts)
      slow_start(w, ack.newly_acked);
    return;
  }
  if (flow.state != CaState::kOpen)
    return;  // no delay reaction until recovery ends
  if (phase_ != Phase::kControl && phase_ != Phase::kWaitStable) {
    update_pacing(w);
    return;  // the window is held
  }
  if (w.cwnd_pkts < w.ssthresh_pkts) {
    const double base = base_rtt_s(flow);
    if (base > 0 && avg_rtt_s_ > 0 && w.cwnd_pkts * (avg_rtt_s_ - base) / avg_rtt_s_ > alpha_) {
      end_slow_start(flow, w);
    } else if (flow.cwnd_limited) {
      slow_start(w, ack.newly_acked);
    }
    update_pacing(w);
    return;
  }
  if (update_interval_s_ > 0) {
    if (next_update_ == Time::never()) {
      next_update_ = flow.now + Duration::seconds(update_interval_s_);
      arm();
    }
  } else if (ack.round_start) {
    if (update_round_ && step_per_pkt_ != 0)
      w.cwnd_pkts = target_;  // the update round ends exactly on the target
    step_per_pkt_ = 0;
    update_round_ = !update_round_;
    if (update_round_)
      begin_update(flow, w);
  }
  step(w, ack.newly_acked);
  w.ssthresh_pkts = std::min(w.ssthresh_pkts, w.cwnd_pkts);  // window control never re-enters slow start
  update_pacing(w);
}

void Fast::on_timer(const FlowView& flow, Window& w) {
  const Time now = flow.now;
  if (phase_deadline_ <= now) {
    phase_deadline_ = Time::never();
    if (phase_ == Phase::kPerturb) {
      w.cwnd_pkts = w_star_;
      phase_ = Phase::kMeasure;
      phase_deadline_ = now + Duration::seconds(kMeasureRtts * r_star_s_);  // fallback: no ACK came
    } else if (phase_ == Phase::kMeasure) {
      finish_measurement(flow, w);
    } else if (phase_ == Phase::kThrottle) {
      w.cwnd_pkts = std::max(w_star_, w.cwnd_pkts);
      phase_ = Phase::kControl;
      remedy_done_ = true;
      update_round_ = false;
      correction_s_ = std::max(base_before_s_ - base_rtt_s(flow), 0.0);
    }
  }
  if (next_update_ <= now) {
    next_update_ = now + Duration::seconds(update_interval_s_);
    const bool controlling = phase_ == Phase::kControl || phase_ == Phase::kWaitStable;
    if (flow.state == CaState::kOpen && controlling && w.cwnd_pkts >= w.ssthresh_pkts) {
      if (step_per_pkt_ != 0)
        w.cwnd_pkts = target_;
      w.ssthresh_pkts = std::min(w.ssthresh_pkts, w.cwnd_pkts);
      step_per_pkt_ = 0;
      begin_update(flow, w);
    }
  }
  arm();
  update_pacing(w);
}

void Fast::end_slow_start(const FlowView& /*flow*/, Window& w) {
  w.ssthresh_pkts = w.cwnd_pkts;
  update_round_ = false;
  step_per_pkt_ = 0;
  if (remedy_done_)
    return;
  if (correction_ != Correction::kNone) {
    phase_ = Phase::kWaitStable;  // both remedies act on the flow at its equilibrium rate
    stable_ = 0;
  }
}

void Fast::begin_throttle(const FlowView& flow, Window& w) {
  base_before_s_ = base_rtt_s(flow);
  w_star_ = w.cwnd_pkts;
  w.cwnd_pkts = at_least_min_window(w.cwnd_pkts / rr_factor_);
  step_per_pkt_ = 0;
  phase_ = Phase::kThrottle;
  phase_deadline_ = flow.now + Duration::seconds(rr_rtts_ * avg_rtt_s_);
  arm();
}

void Fast::begin_perturbation(const FlowView& flow, Window& w) {
  w_star_ = w.cwnd_pkts;
  r_star_s_ = avg_rtt_s_;
  base_before_s_ = base_rtt_s(flow);  // the probe's own dip may lower the minimum: correct this one
  t_eps_s_ = t_eps_param_s_ > 0 ? t_eps_param_s_ : r_star_s_;
  probe_ = {};
  w.cwnd_pkts = at_least_min_window((1 - theta_) * w_star_);
  step_per_pkt_ = 0;
  phase_ = Phase::kPerturb;
  probe_start_ = flow.now;
  probe_end_ = flow.now + Duration::seconds(t_eps_s_);
  phase_deadline_ = probe_end_;
  probe_rate_pps_ = w.cwnd_pkts / r_star_s_;  // eq. (22): the rate (1 - theta) x*, not a burst
  update_pacing(w);
  arm();
}

void Fast::finish_measurement(const FlowView& /*flow*/, Window& w) {
  phase_ = Phase::kControl;
  phase_deadline_ = Time::never();
  remedy_done_ = true;
  update_round_ = false;
  step_per_pkt_ = 0;
  arm();
  update_pacing(w);
  // Immediate ACKs when there are enough of them (one delayed-ACK timer sample would
  // decide the extreme otherwise); every sample when the receiver ACKs every packet.
  const bool immediate = probe_.immediate_count >= kMinImmediateSamples;
  if (probe_.all_count == 0)
    return;  // nothing measured
  const double dr = (immediate ? probe_.immediate : probe_.all) - r_star_s_;
  if (std::abs(dr) < 1e-9)
    return;  // nothing moved: no estimate
  const double u = std::abs(theta_ * t_eps_s_ / dr);
  n_hat_ = std::max(u * (u - 1), 0.0);
  c_hat_ = (1 + std::sqrt(1 + 4 * n_hat_)) * w_star_ / (2 * r_star_s_);
  const double corrected = base_before_s_ - n_hat_ * alpha_ / c_hat_;
  if (corrected <= 0)
    return;  // implausible estimate: keep the measured baseRTT
  correction_s_ = base_before_s_ - corrected;
  base_override_s_ = corrected;
  if (control_ != nullptr)
    control_->set_base_rtt(Duration::seconds(corrected));
  w.cwnd_pkts = at_least_min_window(alpha_ + corrected * c_hat_ / (n_hat_ + 1));
  w.ssthresh_pkts = std::min(w.ssthresh_pkts, w.cwnd_pkts);
}

void Fast::abandon_remedy(const Window& w) {
  if (phase_ == Phase::kPerturb || phase_ == Phase::kMeasure) {
    phase_ = Phase::kWaitStable;  // measure again once stable
    stable_ = 0;
  } else if (phase_ == Phase::kThrottle) {
    phase_ = Phase::kControl;
    remedy_done_ = true;
  }
  phase_deadline_ = Time::never();
  step_per_pkt_ = 0;
  update_round_ = false;
  arm();
  update_pacing(w);
}

LossResponse Fast::on_loss(const FlowView& /*flow*/, const Window& w) {
  abandon_remedy(w);
  double cut = w.cwnd_pkts / 2;
  if (w.cwnd_pkts > min_loss_window_)
    cut = std::max(cut, min_loss_window_);
  cut = at_least_min_window(cut);
  return {cut, cut};
}

LossResponse Fast::on_timeout(const FlowView& flow, const Window& w) {
  abandon_remedy(w);
  return CongestionControl::on_timeout(flow, w);
}

void Fast::on_recovery_exit(const FlowView& /*flow*/, Window& /*w*/) {
  update_round_ = false;  // a fresh update period starts at the next round
  step_per_pkt_ = 0;
}

std::span<const TraceColumn> Fast::trace_columns() const {
  static constexpr TraceColumn kColumns[] = {
      {"fast_avg_rtt_s", [](const CongestionControl& cc) { return static_cast<const Fast&>(cc).avg_rtt_s_; }},
      {"fast_target_pkts", [](const CongestionControl& cc) { return static_cast<const Fast&>(cc).target_; }},
      {"fast_phase",
       [](const CongestionControl& cc) { return static_cast<double>(static_cast<const Fast&>(cc).phase_); }},
      {"fast_n_hat", [](const CongestionControl& cc) { return static_cast<const Fast&>(cc).n_hat_; }},
      {"fast_c_hat_pps", [](const CongestionControl& cc) { return static_cast<const Fast&>(cc).c_hat_; }},
      {"fast_base_rtt_correction_s",
       [](const CongestionControl& cc) { return static_cast<const Fast&>(cc).correction_s_; }},
  };
  // The correction column only when a remedy runs (plain FAST traces keep their columns).
  return std::span<const TraceColumn>(kColumns).first(correction_ == Correction::kNone ? 5 : 6);
}

std::span<const TraceColumn> Fast::summary_values() const {
  static constexpr TraceColumn kValues[] = {
      {"n_hat", [](const CongestionControl& cc) { return static_cast<const Fast&>(cc).n_hat_; }},
      {"c_hat_pps", [](const CongestionControl& cc) { return static_cast<const Fast&>(cc).c_hat_; }},
      {"base_rtt_correction_s", [](const CongestionControl& cc) { return static_cast<const Fast&>(cc).correction_s_; }},
  };
  if (correction_ == Correction::kNone)
    return {};
  return kValues;
}

}  // namespace fastsim::cc
