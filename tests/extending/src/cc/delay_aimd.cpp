// Delay-triggered AIMD window control (see delay_aimd.hpp).
#include "fastsim/cc/delay_aimd.hpp"

#include "fastsim/cc/reno.hpp"

namespace fastsim::cc {

std::vector<ParamSpec> DelayAimd::param_specs() {
  return {
      {"increase", 1.0, 1e-3, 1e3, "packets/RTT", "additive increase per RTT in congestion avoidance"},
      {"decrease", 0.5, 0.01, 0.99, "fraction", "fraction of the window removed at a loss"},
      {"delay_threshold", 0.005, 0, 10, "s", "queueing delay (a round's smallest RTT above baseRTT) that cuts"},
      {"delay_decrease", 0.2, 0.01, 0.99, "fraction", "fraction of the window removed at a delay cut"},
  };
}

std::vector<std::pair<std::string, std::string>> DelayAimd::check(const ParamValues& p) {
  if (p.get("delay_decrease") > p.get("decrease"))
    return {{"delay_decrease", "must not exceed decrease (a delay cut removes at most what a loss does)"}};
  return {};
}

DelayAimd::DelayAimd(const ParamValues& p)
    : increase_(p.get("increase")),
      decrease_(p.get("decrease")),
      delay_threshold_s_(p.get("delay_threshold")),
      delay_decrease_(p.get("delay_decrease")) {}

void DelayAimd::on_ack(const FlowView& flow, Window& w, const AckEvent& ack) {
  const RttView& rtt = *flow.rtt;
  if (ack.round_start && rtt.last_round.samples > 0 && rtt.min_rtt) {
    queueing_delay_s_ = (rtt.last_round.min - *rtt.min_rtt).to_seconds();
    const bool after_cut = delay_cuts_ > 0 && flow.round <= last_cut_round_ + 1;
    if (queueing_delay_s_ > delay_threshold_s_ && !ack.in_recovery && !after_cut) {
      w.cwnd_pkts = at_least_min_window(w.cwnd_pkts * (1.0 - delay_decrease_));
      w.ssthresh_pkts = w.cwnd_pkts;
      delay_cuts_ += 1;
      last_cut_round_ = flow.round;
      return;
    }
  }
  const double acked = acked_for_avoidance(flow, w, ack);  // slow start below ssthresh
  if (acked > 0)
    additive_increase(w, acked, increase_);
}

LossResponse DelayAimd::on_loss(const FlowView& /*flow*/, const Window& w) {
  const double ssthresh = at_least_min_window(w.cwnd_pkts * (1.0 - decrease_));
  return {ssthresh, ssthresh};
}

std::span<const TraceColumn> DelayAimd::trace_columns() const {
  static constexpr TraceColumn kColumns[] = {
      {"da_qdelay_s", [](const CongestionControl& cc) { return static_cast<const DelayAimd&>(cc).queueing_delay_s_; }},
  };
  return kColumns;
}

std::span<const TraceColumn> DelayAimd::summary_values() const {
  static constexpr TraceColumn kValues[] = {
      {"delay_cuts", [](const CongestionControl& cc) { return static_cast<const DelayAimd&>(cc).delay_cuts_; }},
  };
  return kValues;
}

}  // namespace fastsim::cc
