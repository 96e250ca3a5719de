// Reno against theory: the sawtooth of one flow with a 1 x BDP buffer, the response
// function under random loss (Ott, Kemperman and Mathis), fairness at equal RTTs and RTT unfairness.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "../support/helpers.hpp"

using namespace fastsim;
using fastsim::testing::check_conservation;
using fastsim::testing::dumbbell_json;
using fastsim::testing::scenario_from;

namespace {

/// Reno's time-average window under independent loss p in the finite-window loss-cycle
/// model of tools/reno-cycle-model (both costs): the packets between losses are geometric;
/// the window grows 1/w per ACK through n - 1 ACKs, which arrive at (w - 1) per round trip
/// (growth on ACKs of packets sent a round earlier), then one recovery round without growth
/// in which PRR brings it from w to w/2 (time average 3w/4); mean = window-time area / time.
double reno_cycle_model_window(double p) {
  std::mt19937_64 rng(1);
  std::geometric_distribution<int64_t> failures_before_loss(p);
  constexpr int kBurn = 1000, kCycles = 400000;
  double w = 1 / std::sqrt(p), area = 0, time = 0;
  for (int i = 0; i < kBurn + kCycles; ++i) {
    const auto n = static_cast<double>(failures_before_loss(rng) + 1);  // packets up to the lost one
    const double w_end = std::sqrt(w * w + 2 * (n - 1));
    double t = (w_end - w) + std::log((w_end - 1) / (w - 1));  // integral of w / (w - 1) dw, in RTTs
    double a = (w_end * w_end - w * w) / 2 + t;                // integral of w^2 / (w - 1) dw
    t += 1.0;
    a += 0.75 * w_end;
    if (i >= kBurn) {
      area += a;
      time += t;
    }
    w = std::max(w_end / 2, 2.0);
  }
  return area / time;
}

struct Epoch {
  double start_s;      ///< time of the loss that opened it
  double trough_pkts;  ///< window right after that loss
  double peak_pkts;    ///< largest window before the next loss
  uint64_t rounds;     ///< RTT rounds until the next loss
  double length_s;
};

/// Steps the run in 5 ms increments and cuts the window trajectory at each fast recovery.
std::vector<Epoch> sawtooth_epochs(run::Experiment& exp, double duration_s) {
  auto& f = exp.flow(0);
  std::vector<Epoch> epochs;
  uint64_t recoveries = 0;
  double peak = 0;
  for (int64_t ms = 5; ms <= static_cast<int64_t>(duration_s * 1000); ms += 5) {
    const double cwnd_before = f.sender->window().cwnd_pkts;
    exp.run_until(Time::at(Duration::milliseconds(ms)));
    const uint64_t r = f.sender->counters().fast_recoveries + f.sender->counters().timeouts;
    if (r != recoveries) {
      if (!epochs.empty()) {
        epochs.back().peak_pkts = std::max(peak, cwnd_before);
        epochs.back().rounds = f.sender->rounds() - epochs.back().rounds;
        epochs.back().length_s = static_cast<double>(ms) / 1000 - epochs.back().start_s;
      }
      recoveries = r;
      epochs.push_back({static_cast<double>(ms) / 1000, f.sender->window().ssthresh_pkts, 0, f.sender->rounds(), 0});
      peak = 0;
    } else {
      peak = std::max(peak, f.sender->window().cwnd_pkts);
    }
  }
  epochs.pop_back();  // unfinished
  return epochs;
}

}  // namespace

TEST_CASE("Reno sawtooth with a 1 x BDP buffer", "[scenario][reno][slow]") {
  // 100 Mb/s, 100 ms, 1500-byte packets: BDP = 833 packets; buffer = 833.
  // Theory: loss when the window reaches W = BDP + buffer (+1 serializing) = 1667;
  // halve to W/2 = BDP, so the queue just empties; grow one packet per RTT for W/2 RTTs.
  // The RTT grows with the window (RTT = w / C once w > BDP), so an epoch lasts
  // sum_{w=W/2}^{W} w / C = (W^2 - (W/2)^2) / (2C) = 125 s at C = 8333 packets/s.
  // With delayed ACK on, ABC (RFC 3465) counts acked packets, so the expectation is the same.
  // Measured: peak 1669, trough 834.5, 836 rounds, 125.55 s (BDP is 833.3 packets, not 833):
  // within 0.4 % of theory, so the test allows 1 %.
  const double C = 100e6 / (1500 * 8);
  const double W = 833 + 833 + 1;
  const double epoch_s = (W * W - W * W / 4) / (2 * C);
  for (bool delack : {false, true}) {
    const auto s = scenario_from(dumbbell_json("100Mbps", "5ms", "833pkt", "700s", R"([{"id": "a", "rtt": "100ms"}])",
                                               delack ? R"({"delayed_ack": true})" : R"({"delayed_ack": false})"));
    run::Experiment exp(s);
    const auto epochs = sawtooth_epochs(exp, 700);
    INFO("delayed_ack=" << delack << ", epochs=" << epochs.size());
    REQUIRE(epochs.size() >= 4);
    // skip the epochs shaped by the slow-start overshoot
    for (size_t i = 2; i < epochs.size(); ++i) {
      const Epoch& e = epochs[i];
      INFO("epoch " << i << " at " << e.start_s << " s: trough " << e.trough_pkts << ", peak " << e.peak_pkts
                    << ", rounds " << e.rounds << ", length " << e.length_s << " s");
      CHECK(e.peak_pkts == Approx(W).epsilon(0.01));
      CHECK(e.trough_pkts == Approx(W / 2).epsilon(0.01));
      CHECK(static_cast<double>(e.rounds) == Approx(W / 2).epsilon(0.01));
      CHECK(e.length_s == Approx(epoch_s).epsilon(0.01));
    }
    // utilization after slow start: from the start of the third epoch to the end
    exp.run();
    const auto& r = exp.result();
    const auto& util = r.links[0].utilization_samples;
    REQUIRE(r.links[0].id == "bottleneck");
    double sum = 0;
    const auto from = static_cast<size_t>(epochs[2].start_s);
    for (size_t k = from; k < util.size(); ++k)
      sum += util[k];
    CHECK(sum / static_cast<double>(util.size() - from) >= 0.97);
    check_conservation(exp);
  }
}

TEST_CASE("Reno follows the random-loss response function", "[scenario][reno][slow]") {
  // Uncongested path (1 Gb/s, 20 ms, no queue drops), Bernoulli loss p on data packets,
  // delayed ACK off, the default (linux) stack. Ott, Kemperman and Mathis (1996): AIMD(1, 1/2)
  // under independent losses has a time-average window of 1.3098 / sqrt(p) as p -> 0
  // (periodic losses give Mathis' sqrt(3 / (2p)), 6.5 % lower). A finite window sits below
  // that limit: the expectation is the finite-window loss-cycle model (growth on ACKs of
  // packets sent a round earlier, a recovery round without growth per loss), 3.2, 1.0 and
  // 0.3 % below the limit at p = 1e-2, 1e-3, 1e-4. Measured over 8 seeds per point: 1.0, 1.0
  // and 0.6 % below the model, one run's standard deviation 1.3, 1.0 and 1.0 %; the test
  // averages 4 seeds per point and allows 3 % (3 to 5 standard deviations of the 4-run
  // mean), which the periodic-loss curve is outside of at every point.
  struct Point {
    double p;
    const char* duration;
  };
  const std::vector<Point> points = {{1e-2, "1000s"}, {1e-3, "2000s"}, {1e-4, "5000s"}};
  constexpr int kSeeds = 4;
  constexpr double kTolerance = 0.03;
  constexpr double kWarmupS = 100;  // slow start and the halvings down to the loss-limited window
  std::vector<double> lx, ly;
  for (const auto& pt : points) {
    const double model = reno_cycle_model_window(pt.p);
    const double periodic = std::sqrt(3.0 / (2.0 * pt.p));
    REQUIRE(std::abs(periodic - model) > kTolerance * model);  // the band can tell the two apart
    double sum_w = 0;
    for (int seed = 1; seed <= kSeeds; ++seed) {
      const std::string extra = ", \"loss_rate\": " + std::to_string(pt.p);
      auto json = nlohmann::json::parse(dumbbell_json("1Gbps", "1ms", "100000pkt", pt.duration,
                                                      R"([{"id": "a", "rtt": "20ms"}])", R"({"delayed_ack": false})",
                                                      extra));
      json["seed"] = seed;
      const auto s = config::parse_scenario(json);
      run::Experiment exp(s);
      const auto& r = exp.run();
      const auto& f = r.flows[0];
      // steady-state time average: the per-period window averages after the warm-up
      const auto first = static_cast<size_t>(kWarmupS / s.sample_interval.to_seconds());
      REQUIRE(f.cwnd_samples_pkts.size() > first);
      double sum = 0;
      for (size_t k = first; k < f.cwnd_samples_pkts.size(); ++k)
        sum += f.cwnd_samples_pkts[k];
      const double w = sum / static_cast<double>(f.cwnd_samples_pkts.size() - first);
      INFO("p=" << pt.p << ", seed " << seed << ": mean window " << w << ", loss events "
                << f.fast_recoveries + f.timeouts << ", drops at queues " << r.links[0].drops);
      CHECK(r.links[0].drops == 0);                   // losses are random, not congestion
      CHECK(f.fast_recoveries + f.timeouts >= 2000);  // enough loss events for a stable mean
      sum_w += w;
    }
    const double w = sum_w / kSeeds;
    INFO("p=" << pt.p << ": mean window over " << kSeeds << " seeds " << w << " (finite-window model " << model
              << ", p -> 0 limit " << 1.3098 / std::sqrt(pt.p) << ", periodic losses " << periodic << ")");
    CHECK(std::abs(w - model) <= kTolerance * model);
    lx.push_back(std::log(pt.p));
    ly.push_back(std::log(w));
  }
  // least-squares slope of log w against log p
  const double n = static_cast<double>(lx.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t i = 0; i < lx.size(); ++i) {
    sx += lx[i];
    sy += ly[i];
    sxx += lx[i] * lx[i];
    sxy += lx[i] * ly[i];
  }
  const double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  INFO("log-log slope " << slope);
  CHECK(slope == Approx(-0.5).margin(0.02));
}

TEST_CASE("two Reno flows with equal RTTs share fairly", "[scenario][reno][fairness]") {
  const auto s = scenario_from(R"({"name": "fair", "duration": "300s", "warmup": "30s",
    "topology": {"dumbbell": {"bottleneck": {"rate": "100Mbps", "delay": "5ms", "buffer": "417pkt"},
                               "access": {"rate": "10Gbps", "buffer": "100000pkt"}}},
    "defaults": {"sack": true},
    "flows": [{"id": "a", "rtt": "50ms"}, {"id": "b", "rtt": "50ms", "start": "0.5s"}]})");
  run::Experiment exp(s);
  const auto& r = exp.run();
  const auto& iv = r.intervals.back();  // both flows, 30.5 s to 300 s after warm-up
  REQUIRE(iv.flows.size() == 2);
  INFO("throughputs " << iv.flow_throughput_bps[0] << " " << iv.flow_throughput_bps[1]);
  CHECK(*iv.jain >= 0.98);  // AIMD converges (Chiu and Jain); measured 0.992, a 1.2 ratio from drop-tail phases
  CHECK(*iv.utilization >= 0.95);
}

TEST_CASE("Reno favours the short-RTT flow as theory predicts", "[scenario][reno][fairness]") {
  // With drop-tail, the throughput ratio of two Reno flows lies between the ratio of
  // their effective RTTs (unsynchronized losses) and its square (synchronized losses),
  // where the effective RTT adds the mean queueing delay to the base RTT. Measured: 4.66
  // against 2.31 and 5.32 (drop-tail overflows hit both flows: close to synchronized). A
  // per-flow Mathis check is out of reach here: 9 and 5 loss events in 400 s.
  const auto s = scenario_from(R"({"name": "rtt-unfair", "duration": "400s", "warmup": "50s",
    "topology": {"dumbbell": {"bottleneck": {"rate": "100Mbps", "delay": "5ms", "buffer": "833pkt"},
                               "access": {"rate": "10Gbps", "buffer": "100000pkt"}}},
    "defaults": {"sack": true},
    "flows": [{"id": "short", "rtt": "50ms"}, {"id": "long", "rtt": "200ms"}]})");
  run::Experiment exp(s);
  const auto& r = exp.run();
  const auto& iv = r.intervals.back();
  const double ratio = iv.flow_throughput_bps[0] / iv.flow_throughput_bps[1];
  const double q = *iv.mean_queue_pkts * 1500 * 8 / 100e6;
  const double rtt_ratio = (0.200 + q) / (0.050 + q);
  INFO("throughput ratio " << ratio << ", effective RTT ratio " << rtt_ratio << ", queueing delay " << q);
  CHECK(ratio >= rtt_ratio);
  CHECK(ratio <= rtt_ratio * rtt_ratio);
}
