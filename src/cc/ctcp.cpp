// Compound TCP window control (see ctcp.hpp).
#include "fastsim/cc/ctcp.hpp"

#include <algorithm>
#include <cmath>

#include "fastsim/cc/reno.hpp"

namespace fastsim::cc {

namespace {
constexpr uint32_t kMinSamples = 3;  // Linux compound/Vegas: fewer means delayed ACKs only
// draft-sridharan-tcpm-ctcp-02 section 5: gamma_low, gamma_high, and g_sample = 3/4 diff_reno
constexpr double kGammaLow = 5;
constexpr double kGammaHigh = 30;
constexpr double kSampleShare = 0.75;
}  // namespace

std::vector<ParamSpec> Compound::param_specs() {
  return {
      {"alpha", 0.125, 0.001, 10, "", "dwnd growth alpha * w^k per RTT while the backlog is below gamma"},
      {"beta", 0.5, 0.01, 0.99, "fraction", "fraction of the whole window removed at a loss"},
      {"k", 0.75, 0.1, 1.5, "", "exponent of the dwnd growth (0.75: HSTCP-like response)"},
      {"gamma", 30, 0.1, 1e6, "packets", "backlog above which dwnd shrinks"},
      {"zeta", 1, 0.01, 100, "", "dwnd decrease per packet of backlog above gamma"},
      choice_param("tube", {"off", "on"},
                   "gamma auto-tuning (draft section 5): at each loss gamma moves towards 3/4 of the loss window's "
                   "backlog, within [5, 30]"),
      {"tube_lambda", 0.8, 0.01, 1, "weight", "TUBE: weight of the new sample in gamma's moving average"},
      {"low_window", 0, 0, 1e6, "packets",
       "below this window dwnd is 0 and not updated: CTCP is Reno (0: never; L. Andrew's Linux CTCP 1.1+: 38)"},
  };
}

Compound::Compound(const ParamValues& p)
    : alpha_(p.get("alpha")),
      beta_(p.get("beta")),
      k_(p.get("k")),
      gamma_(p.get("gamma")),
      zeta_(p.get("zeta")),
      tube_(p.choice("tube") == "on"),
      tube_lambda_(p.get("tube_lambda")),
      low_window_(p.get("low_window")) {}

void Compound::update_dwnd(const FlowView& flow, const Window& w) {
  const double window = round_window_;
  const double loss_window = round_wnd_;
  round_window_ = w.cwnd_pkts;
  round_wnd_ = w.cwnd_pkts - dwnd_;
  if (flow.state != CaState::kOpen) {
    skip_round_ = true;  // the round after recovery straddles it
    return;
  }
  if (w.cwnd_pkts < low_window_) {
    dwnd_ = 0;  // a small window: Reno alone, and no diff_reno either (as the Linux module)
    skip_round_ = false;
    return;
  }
  if (skip_round_) {
    skip_round_ = false;
    return;
  }
  const RoundRtt& r = flow.rtt->last_round;
  if (r.samples < kMinSamples || !flow.rtt->min_rtt || !flow.cwnd_limited)
    return;
  const double rtt = r.min.to_seconds();
  const double base = flow.rtt->min_rtt->to_seconds();
  if (tube_)
    diff_reno_ = rtt > 0 ? loss_window * (rtt - base) / rtt : 0.0;
  if (w.cwnd_pkts < w.ssthresh_pkts)
    return;
  diff_ = rtt > 0 ? window * (rtt - base) / rtt : 0.0;
  if (diff_ < gamma_) {
    dwnd_ += std::max(alpha_ * std::pow(window, k_) - 1.0, 0.0);
  } else {
    dwnd_ = std::max(dwnd_ - zeta_ * diff_, 0.0);
  }
}

void Compound::on_ack(const FlowView& flow, Window& w, const AckEvent& ack) {
  if (w.cwnd_pkts < dwnd_)
    dwnd_ = 0;  // the sender cut the window below dwnd: the loss window is what is left
  if (w.cwnd_pkts < w.ssthresh_pkts)
    dwnd_ = 0;
  double wnd = w.cwnd_pkts - dwnd_;
  if (!ack.in_recovery && flow.cwnd_limited) {
    double acked = ack.newly_acked;
    if (w.cwnd_pkts < w.ssthresh_pkts) {
      Window reno{wnd, w.ssthresh_pkts};
      acked = slow_start(reno, acked);
      wnd = reno.cwnd_pkts;
    }
    if (acked > 0)
      wnd += acked / w.cwnd_pkts;  // 1 packet per RTT of the whole window
  }
  if (ack.round_start) {
    w.cwnd_pkts = wnd + dwnd_;
    update_dwnd(flow, w);
  }
  wnd_ = wnd;
  w.cwnd_pkts = wnd + dwnd_;
}

LossResponse Compound::on_loss(const FlowView& /*flow*/, const Window& w) {
  if (tube_ && diff_reno_) {
    gamma_ = std::clamp((1 - tube_lambda_) * gamma_ + tube_lambda_ * kSampleShare * *diff_reno_, kGammaLow, kGammaHigh);
    diff_reno_.reset();
  }
  const double window = w.cwnd_pkts;
  const double wnd = std::max(window - std::min(dwnd_, window), 0.0);
  dwnd_ = std::max(window * (1.0 - beta_) - wnd / 2.0, 0.0);
  const double total = at_least_min_window(wnd / 2.0 + dwnd_);
  dwnd_ = std::min(dwnd_, total);
  wnd_ = total - dwnd_;
  skip_round_ = true;
  return {total, total};
}

LossResponse Compound::on_timeout(const FlowView& flow, const Window& w) {
  const LossResponse r = timeout_from_loss(flow, w);
  dwnd_ = 0;
  wnd_ = 1;
  return r;
}

std::span<const TraceColumn> Compound::trace_columns() const {
  static constexpr TraceColumn kColumns[] = {
      {"ct_wnd", [](const CongestionControl& cc) { return static_cast<const Compound&>(cc).wnd_; }},
      {"ct_dwnd", [](const CongestionControl& cc) { return static_cast<const Compound&>(cc).dwnd_; }},
      {"ct_diff", [](const CongestionControl& cc) { return static_cast<const Compound&>(cc).diff_; }},
      {"ct_gamma", [](const CongestionControl& cc) { return static_cast<const Compound&>(cc).gamma_; }},
  };
  return std::span<const TraceColumn>(kColumns).first(tube_ ? 4 : 3);  // ct_gamma only with TUBE
}

}  // namespace fastsim::cc
