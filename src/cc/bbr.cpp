// BBR v1 (see bbr.hpp; Linux net/ipv4/tcp_bbr.c 4.9+).
#include "fastsim/cc/bbr.hpp"

#include <algorithm>
#include <cmath>

namespace fastsim::cc {

namespace {
constexpr double kPacingGainCycle[Bbr::kCycleLength] = {1.25, 0.75, 1, 1, 1, 1, 1, 1};
constexpr double kCwndMinTarget = 4;       // bbr_cwnd_min_target
constexpr double kQuantizationBudget = 3;  // 3 * tso_segs_goal, one segment per send
constexpr double kPacingMargin = 0.01;     // bbr_pacing_margin_percent
constexpr double kInitialWindowPkts = 10;  // TCP_INIT_CWND
}  // namespace

std::vector<ParamSpec> Bbr::param_specs() {
  return {
      {"high_gain", 2.885, 1.5, 10, "factor",
       "Startup pacing and cwnd gain (2/ln 2, the smallest that doubles the delivery rate each round); Drain "
       "paces at its inverse"},
      {"cwnd_gain", 2, 1, 10, "factor", "ProbeBW cwnd gain: cwnd = cwnd_gain * BtlBw * RTprop + 3"},
      {"min_rtt_window", 10, 0.1, 3600, "s", "RTprop filter window: ProbeRTT when the minimum RTT is this old"},
      {"probe_rtt_time", 0.2, 0.001, 10, "s", "time ProbeRTT holds cwnd at 4 packets (at least one round)"},
      {"bw_window_rounds", 10, 2, static_cast<double>(kMaxBwRounds), "rounds",
       "BtlBw max-filter window in packet-timed rounds (Linux: cycle length + 2)"},
      {"full_bw_growth", 1.25, 1.01, 4, "factor", "Startup ends when BtlBw grows less than this ..."},
      {"full_bw_rounds", 3, 1, 100, "rounds", "... in this many consecutive rounds"},
  };
}

std::vector<std::pair<std::string, std::string>> Bbr::check(const ParamValues& p) {
  std::vector<std::pair<std::string, std::string>> issues;
  for (const char* name : {"bw_window_rounds", "full_bw_rounds"}) {
    if (const double v = p.get(name); v != std::floor(v))
      issues.emplace_back(name, "must be a whole number of rounds");
  }
  return issues;
}

Bbr::Bbr(const ParamValues& p)
    : high_gain_(p.get("high_gain")),
      drain_gain_(1.0 / high_gain_),
      cwnd_gain_param_(p.get("cwnd_gain")),
      min_rtt_window_(Duration::seconds(p.get("min_rtt_window"))),
      probe_rtt_time_(Duration::seconds(p.get("probe_rtt_time"))),
      bw_rounds_(static_cast<uint64_t>(p.get("bw_window_rounds"))),
      full_bw_growth_(p.get("full_bw_growth")),
      full_bw_rounds_(static_cast<uint32_t>(p.get("full_bw_rounds"))),
      pacing_gain_(high_gain_),
      cwnd_gain_(high_gain_) {}

double Bbr::bandwidth() const {
  double bw = 0;
  for (size_t i = 0; i < bw_rounds_; ++i) {
    if (bw_round_[i] + bw_rounds_ > rtt_cnt_)
      bw = std::max(bw, bw_max_[i]);
  }
  return bw;
}

double Bbr::target_cwnd(double gain) const {
  if (!min_rtt_)
    return kInitialWindowPkts;  // Linux: no RTT sample yet
  const double bdp = bandwidth() * min_rtt_->to_seconds();
  double cwnd = std::ceil(bdp * gain - 1e-9) + kQuantizationBudget;
  cwnd = 2 * std::ceil(cwnd / 2);  // round up to even (Linux: for delayed-ACK receivers)
  return cwnd;
}

void Bbr::on_ack(const FlowView& flow, Window& w, const AckEvent& ack) {
  update(flow, w, ack);
}

void Bbr::on_delivery(const FlowView& flow, Window& w, const AckEvent& ack) {
  update(flow, w, ack);
}

void Bbr::update(const FlowView& flow, Window& w, const AckEvent& ack) {
  if (ack.rate == nullptr)
    return;  // driven without a rate sampler
  const RateSample& rs = *ack.rate;
  if (!has_seen_rtt_ && flow.rtt != nullptr && flow.rtt->srtt && *flow.rtt->srtt > Duration::zero()) {
    has_seen_rtt_ = true;  // Linux bbr_init_pacing_rate_from_rtt
    pacing_rate_ = high_gain_ * w.cwnd_pkts / flow.rtt->srtt->to_seconds();
    if (control_ != nullptr)
      control_->set_pacing_rate(pacing_rate_);
  }
  update_bw(rs);
  update_cycle_phase(flow, flow.in_flight_pkts + rs.acked_sacked);
  check_full_bw_reached(rs);
  check_drain(flow);
  update_min_rtt(flow, rs);
  set_pacing(flow, w.cwnd_pkts);
  set_cwnd(flow, w, rs);
}

void Bbr::update_bw(const RateSample& rs) {
  round_start_ = false;
  if (rs.acked_sacked == 0)
    return;
  if (rs.prior_delivered >= next_rtt_delivered_) {  // a packet-timed round ended
    next_rtt_delivered_ = rs.flow_delivered;
    ++rtt_cnt_;
    round_start_ = true;
    packet_conservation_ = false;
  }
  if (!rs.valid)
    return;
  const double bw = rs.delivery_rate;
  if (!rs.is_app_limited || bw >= bandwidth()) {
    const size_t slot = rtt_cnt_ % bw_rounds_;
    if (bw_round_[slot] != rtt_cnt_ || bw_max_[slot] < bw) {
      bw_max_[slot] = bw_round_[slot] != rtt_cnt_ ? bw : std::max(bw_max_[slot], bw);
      bw_round_[slot] = rtt_cnt_;
    }
  }
}

void Bbr::update_cycle_phase(const FlowView& flow, double prior_in_flight) {
  if (mode_ != Mode::kProbeBw || !min_rtt_)
    return;
  const bool full_length = flow.now - cycle_stamp_ > *min_rtt_;
  bool next = false;
  if (pacing_gain_ == 1) {
    next = full_length;
  } else if (pacing_gain_ > 1) {  // probe until the extra in flight is out (no loss count here)
    next = full_length && prior_in_flight >= target_cwnd(pacing_gain_);
  } else {  // drain until the queue is gone, or a full phase
    next = full_length || prior_in_flight <= target_cwnd(1);
  }
  if (next)
    advance_cycle_phase(flow.now);
}

void Bbr::advance_cycle_phase(Time now) {
  cycle_idx_ = (cycle_idx_ + 1) % kCycleLength;
  cycle_stamp_ = now;
  pacing_gain_ = kPacingGainCycle[cycle_idx_];
}

void Bbr::check_full_bw_reached(const RateSample& rs) {
  if (full_bw_reached_ || !round_start_ || rs.is_app_limited)
    return;
  const double bw = bandwidth();
  if (bw >= full_bw_ * full_bw_growth_) {
    full_bw_ = bw;
    full_bw_cnt_ = 0;
    return;
  }
  ++full_bw_cnt_;
  full_bw_reached_ = full_bw_cnt_ >= full_bw_rounds_;
}

void Bbr::check_drain(const FlowView& flow) {
  if (mode_ == Mode::kStartup && full_bw_reached_) {
    mode_ = Mode::kDrain;
    pacing_gain_ = drain_gain_;
    cwnd_gain_ = high_gain_;
  }
  if (mode_ == Mode::kDrain && flow.in_flight_pkts <= target_cwnd(1))
    enter_probe_bw(flow.now);
}

void Bbr::enter_probe_bw(Time now) {
  mode_ = Mode::kProbeBw;
  cwnd_gain_ = cwnd_gain_param_;
  // Linux: cycle_idx = CYCLE_LEN - 1 - prandom(7), then one advance: any phase but 0.75.
  const uint64_t h = static_cast<uint64_t>(now.since_start().ps()) ^
                     (min_rtt_ ? static_cast<uint64_t>(min_rtt_->ps()) * 0x9E3779B97F4A7C15ULL : 0);
  const auto r = static_cast<int>((h ^ (h >> 29) ^ (h >> 47)) % (kCycleLength - 1));
  cycle_idx_ = kCycleLength - 1 - r;
  advance_cycle_phase(now);
}

void Bbr::reset_mode(Time now) {
  if (!full_bw_reached_) {
    mode_ = Mode::kStartup;
    pacing_gain_ = high_gain_;
    cwnd_gain_ = high_gain_;
  } else {
    enter_probe_bw(now);
  }
}

void Bbr::update_min_rtt(const FlowView& flow, const RateSample& rs) {
  const bool expired = min_rtt_ && flow.now > min_rtt_stamp_ + min_rtt_window_;
  if (rs.rtt && (!min_rtt_ || *rs.rtt <= *min_rtt_ || expired)) {
    min_rtt_ = *rs.rtt;
    min_rtt_stamp_ = flow.now;
  }
  if (expired && mode_ != Mode::kProbeRtt) {
    mode_ = Mode::kProbeRtt;
    pacing_gain_ = 1;
    cwnd_gain_ = 1;
    prior_cwnd_ = prev_state_ == CaState::kOpen ? last_cwnd_ : std::max(prior_cwnd_, last_cwnd_);  // save_cwnd
    probe_rtt_done_.reset();
  }
  if (mode_ != Mode::kProbeRtt)
    return;
  if (control_ != nullptr)
    control_->mark_app_limited();  // the samples of the drained pipe understate BtlBw
  if (!probe_rtt_done_ && flow.in_flight_pkts <= kCwndMinTarget) {
    probe_rtt_done_ = flow.now + probe_rtt_time_;
    probe_rtt_round_done_ = false;
    next_rtt_delivered_ = rs.flow_delivered;
  } else if (probe_rtt_done_) {
    if (round_start_)
      probe_rtt_round_done_ = true;
    if (probe_rtt_round_done_ && flow.now > *probe_rtt_done_) {
      min_rtt_stamp_ = flow.now;
      restore_cwnd_ = true;
      reset_mode(flow.now);
    }
  }
}

void Bbr::set_pacing(const FlowView& /*flow*/, double /*w_cwnd*/) {
  const double bw = bandwidth();
  if (bw <= 0)
    return;
  const double rate = pacing_gain_ * bw * (1 - kPacingMargin);
  // Linux bbr_set_pacing_rate: only upwards until the pipe is known to be full.
  if (full_bw_reached_ || rate > pacing_rate_) {
    pacing_rate_ = rate;
    if (control_ != nullptr)
      control_->set_pacing_rate(rate);
  }
}

void Bbr::set_cwnd(const FlowView& flow, Window& w, const RateSample& rs) {
  const double acked = rs.acked_sacked;
  double cwnd = w.cwnd_pkts;
  bool conserving = false;
  if (acked > 0) {
    // bbr_set_cwnd_to_recover_or_restore
    if (flow.state == CaState::kRecovery && prev_state_ != CaState::kRecovery) {
      packet_conservation_ = true;
      next_rtt_delivered_ = rs.flow_delivered;
      cwnd = flow.in_flight_pkts + acked;
    } else if (prev_state_ != CaState::kOpen && flow.state == CaState::kOpen) {
      cwnd = std::max(cwnd, prior_cwnd_);
      packet_conservation_ = false;
    }
    prev_state_ = flow.state;
    if (restore_cwnd_) {
      cwnd = std::max(cwnd, prior_cwnd_);
      restore_cwnd_ = false;
    }
    if (packet_conservation_) {
      cwnd = std::max(cwnd, flow.in_flight_pkts + acked);
      conserving = true;
    }
    if (!conserving) {
      const double target = target_cwnd(cwnd_gain_);
      if (full_bw_reached_) {
        cwnd = std::min(cwnd + acked, target);
      } else if (cwnd < target || rs.flow_delivered < kInitialWindowPkts) {
        cwnd += acked;
      }
      cwnd = std::max(cwnd, kCwndMinTarget);
    }
  }
  if (mode_ == Mode::kProbeRtt)
    cwnd = std::min(cwnd, kCwndMinTarget);
  w.cwnd_pkts = cwnd;
  last_cwnd_ = cwnd;
}

void Bbr::save_cwnd(const Window& w) {
  // Linux bbr_save_cwnd: the window before the first loss episode or ProbeRTT.
  if (prev_state_ == CaState::kOpen && mode_ != Mode::kProbeRtt)
    prior_cwnd_ = w.cwnd_pkts;
  else
    prior_cwnd_ = std::max(prior_cwnd_, w.cwnd_pkts);
}

LossResponse Bbr::on_loss(const FlowView& flow, const Window& w) {
  save_cwnd(w);
  return {kInfiniteSsthresh, std::max(flow.in_flight_pkts, kMinWindow)};
}

void Bbr::on_recovery_exit(const FlowView& /*flow*/, Window& w) {
  // The sender set cwnd = ssthresh ("infinite"): restore the pre-loss window instead.
  w.cwnd_pkts = std::max(last_cwnd_, prior_cwnd_);
  packet_conservation_ = false;
  prev_state_ = CaState::kOpen;
  last_cwnd_ = w.cwnd_pkts;
}

LossResponse Bbr::on_timeout(const FlowView& /*flow*/, const Window& w) {
  save_cwnd(w);
  // Linux bbr_set_state(TCP_CA_Loss): restart the full-bandwidth check, start a new round.
  prev_state_ = CaState::kLoss;
  full_bw_ = 0;
  round_start_ = true;
  return {kInfiniteSsthresh, 1};
}

std::span<const TraceColumn> Bbr::trace_columns() const {
  static constexpr TraceColumn kColumns[] = {
      {"bbr_mode", [](const CongestionControl& cc) { return static_cast<double>(static_cast<const Bbr&>(cc).mode_); }},
      {"bbr_bw_pps", [](const CongestionControl& cc) { return static_cast<const Bbr&>(cc).bandwidth(); }},
      {"bbr_min_rtt_s",
       [](const CongestionControl& cc) {
         const auto& b = static_cast<const Bbr&>(cc);
         return b.min_rtt_ ? b.min_rtt_->to_seconds() : 0.0;
       }},
      {"bbr_pacing_gain", [](const CongestionControl& cc) { return static_cast<const Bbr&>(cc).pacing_gain_; }},
  };
  return kColumns;
}

}  // namespace fastsim::cc
