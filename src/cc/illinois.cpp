// TCP Illinois window control (see illinois.hpp).
#include "fastsim/cc/illinois.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "fastsim/cc/reno.hpp"

namespace fastsim::cc {

std::vector<ParamSpec> Illinois::param_specs() {
  return {
      {"alpha_max", 10, 0.01, 1000, "packets/RTT", "increase per RTT while the queueing delay is low"},
      {"alpha_min", 0.3, 0.001, 1000, "packets/RTT", "increase per RTT at the maximum queueing delay"},
      {"alpha_base", 1, 0.001, 1000, "packets/RTT", "increase below win_thresh and after a timeout"},
      {"beta_min", 0.125, 0.001, 0.99, "fraction", "decrease at low queueing delay (da <= dm/10)"},
      {"beta_max", 0.5, 0.001, 0.99, "fraction", "decrease at high queueing delay (da >= 8 dm/10)"},
      {"beta_base", 0.5, 0.001, 0.99, "fraction", "decrease below win_thresh and after a timeout"},
      {"win_thresh", 15, 0, 1e7, "packets", "below this window Illinois uses alpha_base and beta_base"},
      {"theta", 5, 0, 1000, "rounds", "consecutive low-delay rounds before alpha returns to alpha_max"},
      {"loss_filter_rtts", 0, 0, 100, "rounds", "rounds after a loss whose RTT samples are ignored (0 = Linux)"},
  };
}

std::vector<std::pair<std::string, std::string>> Illinois::check(const ParamValues& p) {
  std::vector<std::pair<std::string, std::string>> issues;
  if (p.get("alpha_min") >= p.get("alpha_max"))
    issues.emplace_back("alpha_min", fmt::format("alpha_min ({:g}) must be smaller than alpha_max ({:g})",
                                                 p.get("alpha_min"), p.get("alpha_max")));
  if (p.get("beta_min") > p.get("beta_max"))
    issues.emplace_back("beta_min", fmt::format("beta_min ({:g}) must not exceed beta_max ({:g})", p.get("beta_min"),
                                                p.get("beta_max")));
  return issues;
}

Illinois::Illinois(const ParamValues& p)
    : alpha_max_(p.get("alpha_max")),
      alpha_min_(p.get("alpha_min")),
      alpha_base_(p.get("alpha_base")),
      beta_min_(p.get("beta_min")),
      beta_max_(p.get("beta_max")),
      beta_base_(p.get("beta_base")),
      win_thresh_(p.get("win_thresh")),
      theta_(p.get("theta")),
      loss_filter_rtts_(p.get("loss_filter_rtts")),
      alpha_(alpha_max_),
      beta_(beta_base_) {}

double Illinois::alpha_curve(double da, double dm) const {
  const double d1 = dm / 100;
  if (da <= d1)
    return alpha_max_;
  const double span = alpha_max_ - alpha_min_;
  const double k1 = (dm - d1) * alpha_min_ * alpha_max_ / span;
  const double k2 = (dm - d1) * alpha_min_ / span - d1;
  return k1 / (k2 + da);
}

double Illinois::beta_curve(double da, double dm) const {
  const double d2 = dm / 10;
  const double d3 = 8 * dm / 10;
  if (da <= d2)
    return beta_min_;
  if (da >= d3 || d3 <= d2)
    return beta_max_;
  return beta_min_ + (beta_max_ - beta_min_) * (da - d2) / (d3 - d2);
}

void Illinois::update_params(const FlowView& flow, const Window& w) {
  const RoundRtt& r = flow.rtt->last_round;
  if (r.samples == 0 || !flow.rtt->min_rtt || flow.round <= filter_until_round_)
    return;
  const double base = flow.rtt->min_rtt->to_seconds();
  max_rtt_s_ = std::max(max_rtt_s_, r.max.to_seconds());
  dm_s_ = std::max(max_rtt_s_ - base, 0.0);
  da_s_ = std::max(r.mean.to_seconds() - base, 0.0);
  if (w.cwnd_pkts < win_thresh_) {
    alpha_ = alpha_base_;
    beta_ = beta_base_;
    return;
  }
  if (da_s_ <= dm_s_ / 100) {
    if (!rtt_above_) {
      alpha_ = alpha_max_;
    } else if (++rtt_low_ >= theta_) {
      rtt_low_ = 0;
      rtt_above_ = false;
      alpha_ = alpha_max_;
    }
  } else {
    rtt_above_ = true;
    rtt_low_ = 0;
    alpha_ = alpha_curve(da_s_, dm_s_);
  }
  beta_ = beta_curve(da_s_, dm_s_);
}

void Illinois::on_ack(const FlowView& flow, Window& w, const AckEvent& ack) {
  if (ack.round_start)
    update_params(flow, w);
  const double acked = acked_for_avoidance(flow, w, ack);
  if (acked <= 0)
    return;
  additive_increase(w, acked, alpha_);
}

LossResponse Illinois::on_loss(const FlowView& flow, const Window& w) {
  filter_until_round_ = flow.round + static_cast<uint64_t>(loss_filter_rtts_);
  const double ssthresh = at_least_min_window(w.cwnd_pkts * (1.0 - beta_));
  return {ssthresh, ssthresh};
}

LossResponse Illinois::on_timeout(const FlowView& flow, const Window& w) {
  const LossResponse r = timeout_from_loss(flow, w);
  alpha_ = alpha_base_;
  beta_ = beta_base_;
  rtt_low_ = 0;
  rtt_above_ = false;
  return r;
}

std::span<const TraceColumn> Illinois::trace_columns() const {
  static constexpr TraceColumn kColumns[] = {
      {"il_alpha", [](const CongestionControl& cc) { return static_cast<const Illinois&>(cc).alpha_; }},
      {"il_beta", [](const CongestionControl& cc) { return static_cast<const Illinois&>(cc).beta_; }},
      {"il_da_s", [](const CongestionControl& cc) { return static_cast<const Illinois&>(cc).da_s_; }},
      {"il_dm_s", [](const CongestionControl& cc) { return static_cast<const Illinois&>(cc).dm_s_; }},
  };
  return kColumns;
}

}  // namespace fastsim::cc
