// Reno window control (see reno.hpp).
#include "fastsim/cc/reno.hpp"

#include <algorithm>

namespace fastsim::cc {

double slow_start(Window& w, double acked) {
  constexpr double kAbcLimit = 2;  // RFC 3465 L
  const double counted = std::min(acked, kAbcLimit);
  const double room = w.ssthresh_pkts - w.cwnd_pkts;
  if (room <= 0)
    return acked;
  if (counted <= room) {
    w.cwnd_pkts += counted;
    return 0;
  }
  w.cwnd_pkts = w.ssthresh_pkts;
  return acked - room;
}

double acked_for_avoidance(const FlowView& flow, Window& w, const AckEvent& ack) {
  if (ack.in_recovery || !flow.cwnd_limited)
    return 0;
  double acked = ack.newly_acked;
  if (w.cwnd_pkts < w.ssthresh_pkts)
    acked = slow_start(w, acked);
  return acked;
}

void additive_increase(Window& w, double acked, double per_rtt) {
  w.cwnd_pkts += per_rtt * acked / w.cwnd_pkts;
}

std::vector<ParamSpec> Reno::param_specs() {
  return {
      {"increase", 1.0, 1e-3, 1e3, "packets/RTT", "additive increase per RTT in congestion avoidance"},
      {"decrease", 0.5, 0.01, 0.99, "fraction", "fraction of the window removed at a loss"},
  };
}

Reno::Reno(const ParamValues& p) : increase_(p.get("increase")), decrease_(p.get("decrease")) {}

void Reno::on_ack(const FlowView& flow, Window& w, const AckEvent& ack) {
  const double acked = acked_for_avoidance(flow, w, ack);
  if (acked <= 0)
    return;
  additive_increase(w, acked, increase_);
}

LossResponse Reno::on_loss(const FlowView& /*flow*/, const Window& w) {
  const double ssthresh = at_least_min_window(w.cwnd_pkts * (1.0 - decrease_));
  return {ssthresh, ssthresh};
}

}  // namespace fastsim::cc
