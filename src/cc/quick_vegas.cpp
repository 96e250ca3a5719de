// Quick Vegas window control (see quick_vegas.hpp).
#include "fastsim/cc/quick_vegas.hpp"

#include <algorithm>

namespace fastsim::cc {

std::vector<ParamSpec> QuickVegas::param_specs() {
  return {
      {"alpha", 2, 0, 1e6, "packets", "grow while fewer than alpha are queued"},
      {"beta", 4, 0, 1e6, "packets", "cut to (alpha+beta)/2 queued when more than beta are"},
      {"gamma", 1, 0, 1e6, "packets", "leave slow start once more than gamma are queued"},
      rtt_statistic_param(),
      diff_arithmetic_param(),
  };
}

QuickVegas::QuickVegas(const ParamValues& p)
    : alpha_(p.get("alpha")),
      beta_(p.get("beta")),
      core_(p.get("gamma"), rtt_statistic_from(p), diff_arithmetic_from(p)) {}

void QuickVegas::adjust(Window& w, double diff) {
  const double mid = (alpha_ + beta_) / 2;
  if (diff > beta_) {
    w.cwnd_pkts = at_least_min_window(w.cwnd_pkts - (diff - mid));
    incr_ = 0;
    succ_ = 0;
  } else if (diff < alpha_) {
    ++succ_;
    const double wanted = (beta_ - diff) * succ_;
    incr_ = wanted > w.cwnd_pkts ? 1.0 : wanted / w.cwnd_pkts;
  } else if (diff > mid) {
    w.cwnd_pkts = at_least_min_window(w.cwnd_pkts - 1);
    incr_ = 0;
    succ_ = 0;
  } else if (diff < mid) {
    incr_ = 1 / w.cwnd_pkts;
    succ_ = 0;
  } else {
    incr_ = 0;
    succ_ = 0;
  }
  w.ssthresh_pkts = std::min(w.ssthresh_pkts, w.cwnd_pkts);
}

void QuickVegas::on_ack(const FlowView& flow, Window& w, const AckEvent& ack) {
  const VegasAck a = core_.on_ack(flow, w, ack);
  if (!a.avoidance)
    return;
  if (ack.round_start) {
    // Only the round after an adjustment adds incr per ACK; the next one holds the
    // window, so each estimation grows it by (beta - diff) succ at most (eq. 3).
    incr_ = 0;
    adjust_round_ = !adjust_round_;
    if (adjust_round_ && a.backlog)
      adjust(w, *a.backlog);
  }
  if (flow.cwnd_limited)
    w.cwnd_pkts += incr_ * ack.newly_acked;
}

LossResponse QuickVegas::on_loss(const FlowView& /*flow*/, const Window& w) {
  incr_ = 0;
  succ_ = 0;
  const double half = at_least_min_window(w.cwnd_pkts / 2.0);
  return {half, half};
}

std::span<const TraceColumn> QuickVegas::trace_columns() const {
  static constexpr TraceColumn kColumns[] = {
      {"qv_diff", [](const CongestionControl& cc) { return static_cast<const QuickVegas&>(cc).core_.diff(); }},
      {"qv_incr", [](const CongestionControl& cc) { return static_cast<const QuickVegas&>(cc).incr_; }},
      {"qv_succ",
       [](const CongestionControl& cc) { return static_cast<double>(static_cast<const QuickVegas&>(cc).succ_); }},
  };
  return kColumns;
}

}  // namespace fastsim::cc
