// TCP Vegas window control (see vegas.hpp).
#include "fastsim/cc/vegas.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "fastsim/cc/reno.hpp"

namespace fastsim::cc {

namespace {
constexpr uint32_t kMinRoundSamples = 3;  // Linux tcp_vegas: fewer samples, no decision
}  // namespace

double vegas_backlog(double w, Duration base_rtt, Duration rtt) {
  if (rtt.ps() <= 0)
    return 0;
  return w * static_cast<double>((rtt - base_rtt).ps()) / static_cast<double>(rtt.ps());
}

double vegas_diff(DiffArithmetic arithmetic, double w, Duration base_rtt, Duration rtt) {
  switch (arithmetic) {
    case DiffArithmetic::kLinux:
      if (base_rtt.ps() <= 0)
        return 0;
      return std::floor(std::floor(w) * static_cast<double>((rtt - base_rtt).ps()) /
                        static_cast<double>(base_rtt.ps()));
    case DiffArithmetic::kNs2:
      return std::trunc(vegas_backlog(w, base_rtt, rtt) + 0.5);
    case DiffArithmetic::kExact:
      break;
  }
  return vegas_backlog(w, base_rtt, rtt);
}

ParamSpec diff_arithmetic_param() {
  return choice_param("diff_arithmetic", {"exact", "linux", "ns2"},
                      "how diff is computed: the real w (RTT - baseRTT) / RTT, Linux's integer "
                      "floor(cwnd (RTT - baseRTT) / baseRTT), or ns-2's rounding int(diff + 0.5)");
}

DiffArithmetic diff_arithmetic_from(const ParamValues& p) {
  const std::string& name = p.choice("diff_arithmetic");
  if (name == "linux")
    return DiffArithmetic::kLinux;
  if (name == "ns2")
    return DiffArithmetic::kNs2;
  if (name == "exact")
    return DiffArithmetic::kExact;
  throw std::invalid_argument("unknown diff_arithmetic \"" + name + "\"");
}

ParamSpec rtt_statistic_param() {
  return choice_param("rtt_statistic", {"round_min", "round_mean", "srtt"},
                      "RTT compared with baseRTT once per round: the round's smallest sample (Linux), the mean of "
                      "its samples (ns-2) or the smoothed RTT");
}

RttStatistic rtt_statistic_from(const ParamValues& p) {
  const std::string& name = p.choice("rtt_statistic");
  if (name == "round_min")
    return RttStatistic::kRoundMin;
  if (name == "round_mean")
    return RttStatistic::kRoundMean;
  if (name == "srtt")
    return RttStatistic::kSrtt;
  throw std::invalid_argument("unknown rtt_statistic \"" + name + "\"");
}

std::optional<Duration> VegasCore::round_rtt(const FlowView& flow, const AckEvent& ack) {
  if (statistic_ == RttStatistic::kRoundMean) {
    // ns-2 tcp-vegas.cc: the per-RTT decision runs before this ACK's own sample is
    // added, so the ACK that ends a round counts in the next one; a round without a
    // sample uses the time since it began.
    std::optional<Duration> rtt;
    if (ack.round_start) {
      if (round_samples_ > 0) {
        rtt = Duration::picoseconds(round_sum_ps_ / round_samples_);
      } else if (flow.now > round_begin_) {
        rtt = flow.now - round_begin_;
      }
      round_sum_ps_ = 0;
      round_samples_ = 0;
      round_begin_ = flow.now;
    }
    if (ack.rtt_sample) {
      round_sum_ps_ += ack.rtt_sample->ps();
      ++round_samples_;
    }
    return rtt;
  }
  const RoundRtt& r = flow.rtt->last_round;
  if (!ack.round_start || r.samples < kMinRoundSamples)
    return std::nullopt;
  if (statistic_ == RttStatistic::kSrtt)
    return flow.rtt->srtt;
  return r.min;
}

VegasAck VegasCore::on_ack(const FlowView& flow, Window& w, const AckEvent& ack) {
  VegasAck out;
  const std::optional<Duration> rtt = round_rtt(flow, ack);
  if (flow.state == CaState::kLoss) {
    // After a timeout: Reno's slow start back to ssthresh (Linux runs cong_avoid in the
    // Loss state; Vegas's own control resumes once the lost window is repaired).
    if (flow.cwnd_limited && w.cwnd_pkts < w.ssthresh_pkts)
      slow_start(w, ack.newly_acked);
    return out;
  }
  if (flow.state != CaState::kOpen)
    return out;
  if (rtt && flow.rtt->min_rtt) {
    out.backlog = vegas_diff(arithmetic_, w.cwnd_pkts, *flow.rtt->min_rtt, *rtt);
    diff_ = *out.backlog;
  }
  if (w.cwnd_pkts >= w.ssthresh_pkts) {
    out.avoidance = true;
    return out;
  }
  if (ack.round_start) {
    if (out.backlog && *out.backlog > gamma_) {
      w.cwnd_pkts = at_least_min_window(w.cwnd_pkts * 7.0 / 8.0);
      w.ssthresh_pkts = w.cwnd_pkts;
      return out;
    }
    grow_round_ = !grow_round_;
  }
  if (grow_round_ && flow.cwnd_limited)
    slow_start(w, ack.newly_acked);
  return out;
}

std::vector<ParamSpec> Vegas::param_specs() {
  return {
      {"alpha", 2, 0, 1e6, "packets", "grow by one packet per RTT while fewer than alpha are queued"},
      {"beta", 4, 0, 1e6, "packets", "shrink by one packet per RTT while more than beta are queued"},
      {"gamma", 1, 0, 1e6, "packets", "leave slow start once more than gamma are queued"},
      rtt_statistic_param(),
      diff_arithmetic_param(),
  };
}

std::vector<std::pair<std::string, std::string>> Vegas::check(const ParamValues& p) {
  if (p.get("alpha") > p.get("beta"))
    return {{"alpha", fmt::format("alpha ({:g}) must not exceed beta ({:g})", p.get("alpha"), p.get("beta"))}};
  return {};
}

Vegas::Vegas(const ParamValues& p)
    : alpha_(p.get("alpha")),
      beta_(p.get("beta")),
      core_(p.get("gamma"), rtt_statistic_from(p), diff_arithmetic_from(p)) {}

void Vegas::on_ack(const FlowView& flow, Window& w, const AckEvent& ack) {
  const VegasAck a = core_.on_ack(flow, w, ack);
  if (!a.avoidance || !a.backlog)
    return;
  if (*a.backlog < alpha_) {
    w.cwnd_pkts += 1;
  } else if (*a.backlog > beta_) {
    w.cwnd_pkts = at_least_min_window(w.cwnd_pkts - 1);
    w.ssthresh_pkts = std::min(w.ssthresh_pkts, w.cwnd_pkts);  // stay out of slow start (Linux)
  }
}

LossResponse Vegas::on_loss(const FlowView& /*flow*/, const Window& w) {
  const double half = at_least_min_window(w.cwnd_pkts / 2.0);
  return {half, half};
}

std::span<const TraceColumn> Vegas::trace_columns() const {
  static constexpr TraceColumn kColumns[] = {
      {"vegas_diff", [](const CongestionControl& cc) { return static_cast<const Vegas&>(cc).core_.diff(); }},
  };
  return kColumns;
}

}  // namespace fastsim::cc
