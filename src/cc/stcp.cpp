// Scalable TCP window control (see stcp.hpp).
#include "fastsim/cc/stcp.hpp"

#include <algorithm>

#include "fastsim/cc/reno.hpp"

namespace fastsim::cc {

std::vector<ParamSpec> Scalable::param_specs() {
  return {
      {"a", 0.01, 1e-5, 1, "packets/ack", "window increase per packet acknowledged above low_window"},
      {"b", 0.125, 0.001, 0.99, "fraction", "fraction of the window removed at a loss above low_window"},
      {"low_window", 16, 1, 1e7, "packets", "legacy window: at or below it Scalable TCP is Reno"},
  };
}

Scalable::Scalable(const ParamValues& p) : a_(p.get("a")), b_(p.get("b")), low_window_(p.get("low_window")) {}

void Scalable::on_ack(const FlowView& flow, Window& w, const AckEvent& ack) {
  const double acked = acked_for_avoidance(flow, w, ack);
  if (acked <= 0)
    return;
  if (w.cwnd_pkts <= low_window_) {
    additive_increase(w, acked, 1.0);
  } else {
    w.cwnd_pkts += a_ * acked;
  }
}

LossResponse Scalable::on_loss(const FlowView& /*flow*/, const Window& w) {
  const double cut = w.cwnd_pkts <= low_window_ ? 0.5 : b_;
  const double ssthresh = at_least_min_window(w.cwnd_pkts * (1.0 - cut));
  return {ssthresh, ssthresh};
}

LossResponse Scalable::on_timeout(const FlowView& flow, const Window& w) {
  return timeout_from_loss(flow, w);
}

}  // namespace fastsim::cc
