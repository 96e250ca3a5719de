// FAST's persistent-congestion remedies where the persistent-congestion paper
// (Rodriguez-Perez et al. 2010) says they work: the Rodriguez baseRTT correction with a
// delayed-ACK receiver over its R1-R2 delay range (Fig. 13) and on the parking lot
// (Fig. 15, no background; the probe no longer than the shortest RTT sharing the
// bottleneck, eq. (22)'s premise), and the rate reduction of Cui et al. deciding fairness at
// eq. (20)'s threshold delay. Stack switches are set explicitly (delayed ACK, SACK,
// initial window) so a different scenario default does not change what is tested.
#include <catch2/catch.hpp>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "../support/helpers.hpp"
#include "fastsim/cc/fast.hpp"

using namespace fastsim;
using fastsim::testing::scenario_from;

namespace {

constexpr const char* kStack =
    R"({"mss": 1000, "packet_size": 1040, "ack_size": 40, "sack": true, "delayed_ack": true, "initial_window": 10})";
constexpr double kPktsPerS = 100e6 / (1040 * 8);  // 100 Mb/s in 1040-byte packets
constexpr double kRunS = 100;                     // newcomer at 20 s; fairness over the last 20 s

double mean_goodput(const run::FlowResult& f, double from_s, double sample_s) {
  const auto first = static_cast<size_t>(from_s / sample_s);
  double sum = 0;
  for (size_t i = first; i < f.goodput_samples_bps.size(); ++i)
    sum += f.goodput_samples_bps[i];
  return sum / static_cast<double>(f.goodput_samples_bps.size() - first);
}

struct Join {
  double ratio;      // the paper's eq. (26): n x_new / sum x_old, over the last 20 s
  double n_hat;      // the newcomer's estimate of n
  double corrected;  // the baseRTT change it applied (s)
  nlohmann::json summary_values;
};

/// n FAST flows (alpha 50) start together on an empty 100 Mb/s dumbbell (so they share
/// fairly); a newcomer with `correction` joins at 20 s. R1-R2 delay d, access 1 ms each,
/// so every round-trip propagation delay is 2 d + 4 ms.
Join join(int n, const std::string& correction, double d_ms) {
  const std::string rtt = std::to_string(2 * d_ms + 4) + "ms";
  const std::string flows = R"([{"id": "old", "count": )" + std::to_string(n) +
                            R"(, "algorithm": "fast", "params": {"alpha": 50}, "rtt": ")" + rtt +
                            R"("}, {"id": "new", "algorithm": "fast", "start": "20s", "rtt": ")" + rtt +
                            R"(", "params": {"alpha": 50, "base_rtt_correction": ")" + correction + R"("}}])";
  const auto s = scenario_from(
      R"({"name": "remedy", "seed": 1, "duration": "100s", "sample_interval": "0.5s", "topology": {"dumbbell": {
         "bottleneck": {"rate": "100Mbps", "delay": ")" +
      std::to_string(d_ms) + R"(ms", "buffer": "20000pkt"}, "access": {"rate": "10Gbps", "buffer": "20000pkt"}}},
         "defaults": )" +
      kStack + R"(, "flows": )" + flows + "}");
  run::Experiment exp(s);
  const auto& r = exp.run();
  double old = 0;
  for (int i = 0; i < n; ++i)
    old += mean_goodput(r.flows[i], kRunS - 20, 0.5);
  const auto& fast = dynamic_cast<const cc::Fast&>(exp.flow(n).sender->algorithm());
  for (const auto& f : r.flows)
    CHECK(f.drops == 0);
  const auto summary = exp.summary_json();
  const auto& flow = summary["flows"][static_cast<size_t>(n)];
  return {n * mean_goodput(r.flows[n], kRunS - 20, 0.5) / old, fast.n_estimate(), fast.base_rtt_correction_s(),
          flow.contains("algorithm_values") ? flow["algorithm_values"] : nlohmann::json()};
}

}  // namespace

TEST_CASE("FAST Rodriguez correction with delayed ACKs: a newcomer against 8 fair flows gets its share, 3-53 ms",
          "[scenario][fast][remedy]") {
  // Before: the estimate rested on the single largest sample after the probe, which a
  // delayed-ACK timer inflates: n^ = 0, no correction, ratio 3.4 (plain FAST's (n+1+a)/(1+a)).
  for (double d : {3.0, 23.0, 53.0}) {
    const Join j = join(8, "rodriguez", d);
    WARN("rodriguez, delayed ACK, R1-R2 " << d << " ms: ratio " << j.ratio << ", n^ " << j.n_hat << ", correction "
                                          << j.corrected << " s");
    CHECK(j.ratio >= 0.9);
    CHECK(j.ratio <= 1.1);
    CHECK(j.n_hat == Approx(8).margin(1));
    // The error it removes is the old flows' standing queue, n alpha / C.
    CHECK(j.corrected == Approx(8 * 50 / kPktsPerS).epsilon(0.15));
    // summary.json reports what the algorithm holds.
    REQUIRE(j.summary_values.is_object());
    CHECK(j.summary_values["n_hat"].get<double>() == j.n_hat);
    CHECK(j.summary_values["base_rtt_correction_s"].get<double>() == j.corrected);
  }
}

TEST_CASE("FAST rate reduction: fair above eq. (20)'s threshold delay, unfair below it", "[scenario][fast][remedy]") {
  // Eq. (20): the queue drains before the old flows react only if the round-trip
  // propagation delay exceeds n alpha (1 + sqrt(1 + 4n)) / (2C): 42.6 ms for n = 4 and
  // 112 ms for n = 8 at 12 019 packets/s. The newcomer throttles once it is at its
  // equilibrium rate (the drain condition's premise). The band: fair (ratio within 10 %)
  // from 1.4 times the threshold, unfair (ratio > 1.3) at about half of it; the packet
  // simulation's transition has a width around the fluid threshold (docs/algorithms.md).
  for (int n : {4, 8}) {
    const double threshold_s = n * 50 * (1 + std::sqrt(1.0 + 4 * n)) / (2 * kPktsPerS);
    const double above_ms = n == 4 ? 110 : 160;  // 2.6x and 1.4x the threshold
    const double below_ms = n == 4 ? 20 : 60;    // 0.47x and 0.53x
    const Join fair = join(n, "rate_reduction", (above_ms - 4) / 2);
    const Join unfair = join(n, "rate_reduction", (below_ms - 4) / 2);
    WARN("rate reduction, n = " << n << ", threshold " << threshold_s * 1e3 << " ms: ratio " << fair.ratio << " at "
                                << above_ms << " ms, " << unfair.ratio << " at " << below_ms << " ms");
    CHECK(above_ms / 1e3 >= 1.4 * threshold_s);
    CHECK(below_ms / 1e3 <= 0.55 * threshold_s);
    CHECK(fair.ratio >= 0.9);
    CHECK(fair.ratio <= 1.1);
    CHECK(unfair.ratio > 1.3);
    CHECK(fair.corrected > 0);  // the throttle measured a lower baseRTT
  }
}

namespace {

struct Lot {
  double n_hat;  // s1's estimate of n (4 flows share its bottleneck, hop 5)
  double ratio;  // eq. (26) for s1 against s2..s5, over the last 20 s
};

/// configs/experiments/pc-parking-lot.json without background: s2..s5 start at 0 s, s1
/// (crossing hops 1..5) joins at 20 s with the Rodriguez correction and probe time t_eps
/// (0: one avgRTT). Only hop 5 is congested (it carries all five flows; hop k < 5 carries
/// s1..sk, less than its capacity), so s1's true count is n = 4.
Lot parking_lot(double t_eps_s) {
  const auto s = scenario_from(std::string(R"({"name": "lot", "seed": 1, "duration": "80s", "sample_interval": "0.5s",
      "topology": {"parking_lot": {"hop": {"rate": "100Mbps", "delay": "5ms", "buffer": "10000pkt"}, "count": 5,
                                   "access": {"rate": "1Gbps", "delay": "1ms", "buffer": "10000pkt"}}},
      "defaults": )") + kStack +
                               R"(, "flows": [
      {"id": "s1", "algorithm": "fast", "params": {"alpha": 50, "base_rtt_correction": "rodriguez", "t_eps": )" +
                               std::to_string(t_eps_s) + R"(}, "hops": [1, 5], "start": "20s"},
      {"id": "s2", "algorithm": "fast", "params": {"alpha": 50}, "hops": [2, 5]},
      {"id": "s3", "algorithm": "fast", "params": {"alpha": 50}, "hops": [3, 5]},
      {"id": "s4", "algorithm": "fast", "params": {"alpha": 50}, "hops": [4, 5]},
      {"id": "s5", "algorithm": "fast", "params": {"alpha": 50}, "hops": [5, 5]}]})");
  run::Experiment exp(s);
  const auto& r = exp.run();
  double old = 0;
  for (size_t i = 1; i < 5; ++i)
    old += mean_goodput(r.flows[i], 60, 0.5);
  const auto& fast = dynamic_cast<const cc::Fast&>(exp.flow(0).sender->algorithm());
  return {fast.n_estimate(), 4 * mean_goodput(r.flows[0], 60, 0.5) / old};
}

}  // namespace

TEST_CASE(
    "FAST Rodriguez correction on the 5-hop parking lot: within 25 % of n when the probe ends before the others react",
    "[scenario][fast][remedy]") {
  // Eq. (22) holds while the other flows' rates are constant. They are window-based: a
  // flow whose packets meet the probe's extra queue sends slower one of its own RTTs
  // later (its ACK clock), so the estimate is free of their reaction only for probe
  // packets sent within the shortest RTT r_i among them. On a dumbbell every r_i is the
  // newcomer's r*, so the default t_eps = r* meets it; on the parking lot s5's RTT is its
  // 14 ms of propagation plus the shared queue alpha (n + 1 + a) / C (the fluid model's
  // equilibrium with the newcomer): 41.3 ms, half of s1's r* (81.4 ms).
  constexpr int kN = 4;
  const double a = (std::sqrt(1.0 + 4 * kN) - 1) / 2;
  const double r5_s = 0.014 + 50 * (kN + 1 + a) / kPktsPerS;
  const Lot short_probe = parking_lot(r5_s);
  const Lot default_probe = parking_lot(0);
  WARN("parking lot: t_eps " << r5_s << " s: n^ " << short_probe.n_hat << ", ratio " << short_probe.ratio
                             << "; t_eps = r*: n^ " << default_probe.n_hat << ", ratio " << default_probe.ratio);
  // Measured 4.34: within 25 % of the true count 4.
  CHECK(short_probe.n_hat >= 0.75 * kN);
  CHECK(short_probe.n_hat <= 1.25 * kN);
  CHECK(short_probe.ratio >= 0.85);  // measured 0.89 (over-corrected a little: n^ > 4)
  // With t_eps = r* (81 ms) s5..s2 react after 41..71 ms, the queue rises less than eq.
  // (22) says and n^ comes out high (measured 5.87): their reaction can only lower the
  // rise, so the estimate is above the short probe's and above the true count.
  CHECK(default_probe.n_hat > short_probe.n_hat);
  CHECK(default_probe.n_hat >= kN);
  CHECK(default_probe.n_hat <= 6.5);
  CHECK(default_probe.ratio < short_probe.ratio);  // measured 0.77: over-corrected
}
