// HighSpeed TCP window control (see hstcp.hpp).
#include "fastsim/cc/hstcp.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "fastsim/cc/reno.hpp"

namespace fastsim::cc {

namespace {
constexpr double kLowP = 1e-3;  // RFC 3649: Reno's loss rate at low_window
}

std::vector<ParamSpec> HighSpeed::param_specs() {
  return {
      {"low_window", 38, 2, 1e7, "packets", "at or below this window HSTCP is Reno"},
      {"high_window", 83000, 3, 1e9, "packets", "window reached at loss rate high_p (must exceed low_window)"},
      {"high_p", 1e-7, 1e-15, 1e-3, "loss rate", "loss rate at which the window is high_window"},
      {"high_decrease", 0.1, 0.001, 0.5, "fraction", "decrease factor b at high_window (0.5 at low_window)"},
  };
}

std::vector<std::pair<std::string, std::string>> HighSpeed::check(const ParamValues& p) {
  if (p.get("high_window") <= p.get("low_window"))
    return {{"high_window", fmt::format("high_window ({:g}) must be larger than low_window ({:g})",
                                        p.get("high_window"), p.get("low_window"))}};
  return {};
}

HighSpeed::HighSpeed(const ParamValues& p)
    : low_window_(p.get("low_window")),
      high_window_(p.get("high_window")),
      high_p_(p.get("high_p")),
      high_decrease_(p.get("high_decrease")),
      slope_(std::log(high_p_ / kLowP) / std::log(high_window_ / low_window_)) {}

double HighSpeed::decrease(double w) const {
  if (w <= low_window_)
    return 0.5;
  return (high_decrease_ - 0.5) * std::log(w / low_window_) / std::log(high_window_ / low_window_) + 0.5;
}

double HighSpeed::increase(double w) const {
  if (w <= low_window_)
    return 1.0;
  const double p = kLowP * std::pow(w / low_window_, slope_);
  const double b = decrease(w);
  return std::max(w * w * p * 2.0 * b / (2.0 - b), 1.0);
}

void HighSpeed::refresh(double w) {
  const double whole = std::floor(w);
  if (whole == cached_w_)
    return;
  cached_w_ = whole;
  a_ = increase(whole);
  b_ = decrease(whole);
}

void HighSpeed::on_ack(const FlowView& flow, Window& w, const AckEvent& ack) {
  const double acked = acked_for_avoidance(flow, w, ack);
  if (acked <= 0)
    return;
  refresh(w.cwnd_pkts);
  additive_increase(w, acked, a_);
}

LossResponse HighSpeed::on_loss(const FlowView& /*flow*/, const Window& w) {
  const double ssthresh = at_least_min_window(w.cwnd_pkts * (1.0 - decrease(w.cwnd_pkts)));
  return {ssthresh, ssthresh};
}

LossResponse HighSpeed::on_timeout(const FlowView& flow, const Window& w) {
  return timeout_from_loss(flow, w);
}

std::span<const TraceColumn> HighSpeed::trace_columns() const {
  static constexpr TraceColumn kColumns[] = {
      {"hs_a", [](const CongestionControl& cc) { return static_cast<const HighSpeed&>(cc).a_; }},
      {"hs_b", [](const CongestionControl& cc) { return static_cast<const HighSpeed&>(cc).b_; }},
  };
  return kColumns;
}

}  // namespace fastsim::cc
