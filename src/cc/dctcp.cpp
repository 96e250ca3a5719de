// DCTCP window control (see dctcp.hpp).
#include "fastsim/cc/dctcp.hpp"

#include "fastsim/cc/reno.hpp"

namespace fastsim::cc {

std::vector<ParamSpec> Dctcp::param_specs() {
  return {
      {"g", 1.0 / 16, 1e-6, 1, "fraction", "weight of the latest window's marked fraction in alpha"},
      {"initial_alpha", 1, 0, 1, "fraction", "alpha before the first window ends (Linux: 1)"},
  };
}

Dctcp::Dctcp(const ParamValues& p) : g_(p.get("g")), alpha_(p.get("initial_alpha")) {}

void Dctcp::on_ack(const FlowView& flow, Window& w, const AckEvent& ack) {
  acked_ += ack.newly_acked;
  if (ack.ece)
    acked_ce_ += ack.newly_acked;
  if (ack.round_start && acked_ > 0) {
    const double fraction = static_cast<double>(acked_ce_) / static_cast<double>(acked_);
    alpha_ = (1 - g_) * alpha_ + g_ * fraction;
    acked_ = 0;
    acked_ce_ = 0;
  }
  const double acked = acked_for_avoidance(flow, w, ack);
  if (acked > 0)
    additive_increase(w, acked, 1.0);
}

LossResponse Dctcp::on_loss(const FlowView& /*flow*/, const Window& w) {
  const double ssthresh = at_least_min_window(w.cwnd_pkts / 2);
  return {ssthresh, ssthresh};
}

LossResponse Dctcp::on_ecn(const FlowView& /*flow*/, const Window& w) {
  const double ssthresh = at_least_min_window(w.cwnd_pkts * (1 - alpha_ / 2));
  return {ssthresh, ssthresh};
}

std::span<const TraceColumn> Dctcp::trace_columns() const {
  static constexpr TraceColumn kColumns[] = {
      {"dctcp_alpha", [](const CongestionControl& cc) { return static_cast<const Dctcp&>(cc).alpha_; }},
  };
  return kColumns;
}

}  // namespace fastsim::cc
