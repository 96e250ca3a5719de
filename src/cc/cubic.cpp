// CUBIC window control (see cubic.hpp).
#include "fastsim/cc/cubic.hpp"

#include <algorithm>
#include <cmath>

#include "fastsim/cc/reno.hpp"

namespace fastsim::cc {

std::vector<ParamSpec> Cubic::param_specs() {
  return {
      {"c", 0.4, 1e-3, 100, "packets/s^3", "scaling constant C of the cubic function"},
      {"beta", 0.7, 0.01, 0.99, "fraction", "multiplicative decrease: the window keeps beta at a loss"},
      {"tcp_friendly", 1, 0, 1, "0 or 1", "use the TCP-friendly region (RFC 8312 section 4.2)"},
      {"fast_convergence", 1, 0, 1, "0 or 1", "release bandwidth faster when W_max shrinks"},
      choice_param("hystart", {"off", "linux"},
                   "hybrid slow start: none, or Linux's HyStart (ACK train and delay increase end slow start)"),
  };
}

std::vector<std::pair<std::string, std::string>> Cubic::check(const ParamValues& p) {
  std::vector<std::pair<std::string, std::string>> issues;
  for (const char* flag : {"tcp_friendly", "fast_convergence"}) {
    const double v = p.get(flag);
    if (v != 0 && v != 1)
      issues.emplace_back(flag, "must be 0 or 1");
  }
  return issues;
}

Cubic::Cubic(const ParamValues& p)
    : c_(p.get("c")),
      beta_(p.get("beta")),
      tcp_friendly_(p.get("tcp_friendly") != 0),
      fast_convergence_(p.get("fast_convergence") != 0),
      use_hystart_(p.choice("hystart") == "linux") {}

void Cubic::on_ack(const FlowView& flow, Window& w, const AckEvent& ack) {
  if (use_hystart_) {
    constexpr Duration kFreshEpoch = Duration::seconds_int(1);  // Linux: samples within HZ of the epoch start
    hystart_.on_ack(flow, w, ack, epoch_start_ && flow.now - *epoch_start_ < kFreshEpoch);
  }
  const double acked = acked_for_avoidance(flow, w, ack);
  if (acked <= 0)
    return;
  const double cwnd = w.cwnd_pkts;
  if (!epoch_start_) {
    epoch_start_ = flow.now;
    w0_ = cwnd;
    if (w_last_max_ > cwnd) {
      k_ = std::cbrt((w_last_max_ - cwnd) / c_);
      origin_ = w_last_max_;
    } else {
      k_ = 0;
      origin_ = cwnd;
    }
    w_max_ = origin_;
  }
  const double rtt = flow.rtt->srtt ? flow.rtt->srtt->to_seconds() : 0.0;
  const double t = (flow.now - *epoch_start_).to_seconds();
  const double dt = t + rtt - k_;
  double target = origin_ + c_ * dt * dt * dt;
  if (tcp_friendly_ && rtt > 0) {
    const double w_est = w0_ + 3.0 * (1.0 - beta_) / (1.0 + beta_) * t / rtt;
    target = std::max(target, w_est);
  }
  double per_packet = target > cwnd ? std::min((target - cwnd) / cwnd, 0.5) : 0.01 / cwnd;
  // Linux bictcp_update: while no W_max is known (after a HyStart exit) the window grows
  // at least 5 % per RTT ("if (last_max_cwnd == 0 && cnt > 20) cnt = 20"). Part of the
  // Linux CUBIC that HyStart comes with; without HyStart fastsim's CUBIC is RFC 8312's.
  if (use_hystart_ && w_last_max_ == 0)
    per_packet = std::max(per_packet, 0.05);
  w.cwnd_pkts = cwnd + per_packet * acked;
}

LossResponse Cubic::on_loss(const FlowView& /*flow*/, const Window& w) {
  epoch_start_.reset();
  const double cwnd = w.cwnd_pkts;
  w_last_max_ = (fast_convergence_ && cwnd < w_last_max_) ? cwnd * (1.0 + beta_) / 2.0 : cwnd;
  const double ssthresh = at_least_min_window(cwnd * beta_);
  return {ssthresh, ssthresh};
}

void Cubic::on_tx_start(const FlowView& flow, Duration idle) {
  if (epoch_start_ && idle > Duration::zero())
    epoch_start_ = std::min(*epoch_start_ + idle, flow.now);
}

LossResponse Cubic::on_timeout(const FlowView& flow, const Window& w) {
  const LossResponse r = timeout_from_loss(flow, w);
  w_last_max_ = 0;
  hystart_.reset();
  return r;
}

std::span<const TraceColumn> Cubic::trace_columns() const {
  static constexpr TraceColumn kColumns[] = {
      {"cu_wmax", [](const CongestionControl& cc) { return static_cast<const Cubic&>(cc).w_max_; }},
      {"cu_k_s", [](const CongestionControl& cc) { return static_cast<const Cubic&>(cc).k_; }},
  };
  return kColumns;
}

}  // namespace fastsim::cc
