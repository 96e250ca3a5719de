// Drives a congestion-control algorithm without a network (ns-3's TcpGeneralTest
// style): rounds of ACKs with a chosen RTT sample, losses and timeouts, so per-RTT
// increases and per-loss decreases can be compared with the published formulas.
#pragma once

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "fastsim/cc/registry.hpp"
#include "fastsim/tcp/rtt_estimator.hpp"

namespace fastsim::testing {

/// `algorithm` from the registry with its default parameters, except the numbers in
/// `params` and the string options in `choices`.
inline std::unique_ptr<cc::CongestionControl> make_algorithm(const std::string& algorithm,
                                                             const std::map<std::string, double>& params = {},
                                                             const std::map<std::string, std::string>& choices = {}) {
  const cc::AlgorithmInfo* info = cc::find_algorithm(algorithm);
  if (info == nullptr)
    throw std::invalid_argument("unknown algorithm " + algorithm);
  cc::ParamValues values = cc::ParamValues::defaults(info->params);
  for (const auto& [k, v] : params)
    values.set(k, v);
  for (const auto& [k, v] : choices)
    values.set_choice(k, v);
  return info->make(values);
}

class CcDriver {
 public:
  explicit CcDriver(const std::string& algorithm, const std::map<std::string, double>& params = {},
                    const std::map<std::string, std::string>& choices = {})
      : cc(make_algorithm(algorithm, params, choices)) {}

  [[nodiscard]] cc::FlowView view() const {
    cc::FlowView v;
    v.now = now;
    v.in_flight_pkts = w.cwnd_pkts;
    v.rtt = &rtt.view();
    v.state = state;
    v.cwnd_limited = true;
    v.round = round;
    return v;
  }

  /// One round trip: a window of ACKs (`per_ack` packets each, delayed ACK when 2), each
  /// with RTT sample `sample`, spread evenly over `sample`; the last ACK ends the round.
  void round_trip(Duration sample, uint32_t per_ack = 1) {
    const auto acks = std::max<int64_t>(1, static_cast<int64_t>(w.cwnd_pkts / per_ack));
    const Duration step = Duration::picoseconds(sample.ps() / acks);
    for (int64_t i = 0; i < acks; ++i) {
      now = now + step;
      add_sample(sample);
      cc::AckEvent ev;
      ev.newly_acked = per_ack;
      ev.rtt_sample = sample;
      ev.in_recovery = state == cc::CaState::kRecovery;
      ev.round_start = i + 1 == acks;
      if (ev.round_start)
        end_round();
      cc->on_ack(view(), w, ev);
    }
  }
  /// One round trip with one ACK per entry of `samples` (each acking one packet, with
  /// that RTT sample), spread evenly over the last sample; the last ACK ends the round.
  void round_trip_samples(const std::vector<Duration>& samples) {
    const auto acks = static_cast<int64_t>(samples.size());
    const Duration step = Duration::picoseconds(samples.back().ps() / acks);
    for (int64_t i = 0; i < acks; ++i) {
      now = now + step;
      add_sample(samples[static_cast<size_t>(i)]);
      cc::AckEvent ev;
      ev.newly_acked = 1;
      ev.rtt_sample = samples[static_cast<size_t>(i)];
      ev.in_recovery = state == cc::CaState::kRecovery;
      ev.round_start = i + 1 == acks;
      if (ev.round_start)
        end_round();
      cc->on_ack(view(), w, ev);
    }
  }
  void round_trips(int n, Duration sample, uint32_t per_ack = 1) {
    for (int i = 0; i < n; ++i)
      round_trip(sample, per_ack);
  }

  /// Fast retransmit and an immediate recovery (as SACK repairs a single loss in one RTT).
  cc::LossResponse loss() {
    const cc::LossResponse r = cc->on_loss(view(), w);
    w.ssthresh_pkts = r.ssthresh_pkts;
    w.cwnd_pkts = r.ssthresh_pkts;
    cc->on_recovery_exit(view(), w);
    return r;
  }
  cc::LossResponse timeout() {
    const cc::LossResponse r = cc->on_timeout(view(), w);
    w.ssthresh_pkts = r.ssthresh_pkts;
    w.cwnd_pkts = r.cwnd_pkts;
    return r;
  }

  std::unique_ptr<cc::CongestionControl> cc;
  cc::Window w{1000, 1};  // congestion avoidance by default
  /// The sender's own estimator: the same srtt, min/max and per-round statistics.
  tcp::RttEstimator rtt{Duration::seconds_int(1), Duration::milliseconds(200), Duration::seconds_int(60)};
  Time now = Time::zero();
  uint64_t round = 0;
  cc::CaState state = cc::CaState::kOpen;

 private:
  void add_sample(Duration s) { rtt.add_sample(s); }
  void end_round() {
    rtt.end_round();
    ++round;
  }
};

}  // namespace fastsim::testing
