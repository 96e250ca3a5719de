// The loss-based and hybrid high-speed senders in a dumbbell (issue: "Behaviour in a
// dumbbell"): recovery of utilization after a loss on a 400 Mb/s, 200 ms path with a
// 1 x BDP buffer, compared with Reno; the standing queue of Illinois and CTCP against
// STCP on the same path; and fairness between two flows of one algorithm.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "../support/helpers.hpp"

using namespace fastsim;
using fastsim::testing::scenario_from;

namespace {

// 400 Mb/s, 200 ms: BDP = 400e6 * 0.2 / 12000 = 6667 packets of 1500 bytes.
std::string path_400m(const std::string& algorithm, const std::string& duration, const std::string& sample,
                      const std::string& tcp) {
  return R"({"name": "hs", "seed": 1, "duration": ")" + duration + R"(", "sample_interval": ")" + sample +
         R"(", "topology": {"dumbbell": {"bottleneck": {"rate": "400Mbps", "delay": "1ms", "buffer": "6667pkt"},
            "access": {"rate": "10Gbps", "buffer": "100000pkt"}}},
          "defaults": )" +
         tcp + R"(, "flows": [{"id": "a", "algorithm": ")" + algorithm + R"(", "rtt": "200ms"}]})";
}

/// Seconds from a single injected loss until the bottleneck is >= 90 % busy again over
/// a whole RTT (200 ms). The flow leaves slow start at the BDP (initial_ssthresh), so at
/// the loss (t = 3 s) its window is about one BDP with a nearly empty queue: every
/// algorithm's cut then shows as lost utilization.
/// The rfc stack: the expected times assume the cut at once, and PRR (linux) spreads it
/// over the recovery round (Illinois under linux: 5.2 s, under rfc 4.2 s). Returns -1 if not within `horizon_s`.
double recovery_time(const std::string& algorithm, double horizon_s) {
  const double loss_s = 3.0;
  const auto s = scenario_from(path_400m(algorithm, std::to_string(loss_s + horizon_s) + "s", "0.2s",
                                         R"({"stack": "rfc", "sack": true, "initial_ssthresh": 6667})"));
  run::Experiment exp(s);
  // The first packet reaching the bottleneck from loss_s on (announced before the run:
  // the bottleneck is chained and decides packets when they enter the access link).
  exp.link("bottleneck").inject_losses_at(Time::at(Duration::seconds(loss_s)), 1);
  const auto& r = exp.run();
  REQUIRE(r.flows[0].fast_recoveries >= 1);  // STCP overflows the buffer again later
  REQUIRE(r.flows[0].timeouts == 0);
  const auto& util = r.links[0].utilization_samples;  // sample i covers [0.2 i, 0.2 (i + 1))
  // The cut shows one RTT after the loss (detection) and lasts at least one more.
  const auto first = static_cast<size_t>((loss_s + 0.4) / 0.2);
  for (size_t i = first; i < util.size(); ++i) {
    if (util[i] >= 0.9)
      return 0.2 * static_cast<double>(i + 1) - loss_s;
  }
  return -1;
}

}  // namespace

TEST_CASE("After a loss the high-speed senders regain 90 % utilization sooner than Reno",
          "[scenario][hstcp][stcp][illinois][ctcp][cubic][slow]") {
  // Reno halves to BDP/2 and needs 0.4 BDP = 2667 RTTs (533 s) to reach 90 %.
  // Expected from the formulas (w ~ 6700 at the loss, RTT 0.2 s):
  //  stcp: cut 12.5 % to 88 %, +1 %/RTT: under 1 s;   illinois: cut 1/8 (no queueing delay), +10/RTT: ~3 s;
  //  cubic: cut to 0.7 W, W(t) = 0.9 W at t = K - cbrt(0.1 W / C) ~ 17.1 - 11.9 = 5 s;
  //  hstcp: cut b(6700) = 0.23, a ~ 20-25/RTT: ~8 s;  ctcp: halves (dwnd is halved too), dwnd +55/RTT: ~9 s.
  const double horizon = 40;
  const double reno = recovery_time("reno", horizon);
  CHECK(reno < 0);  // not within 40 s
  const std::map<std::string, std::pair<double, double>> expected = {{"stcp", {0.0, 1.5}},
                                                                     {"illinois", {1.0, 5.0}},
                                                                     {"cubic", {3.0, 7.0}},
                                                                     {"hstcp", {4.0, 14.0}},
                                                                     {"ctcp", {4.0, 16.0}}};
  for (const auto& [algo, band] : expected) {
    const double t = recovery_time(algo, horizon);
    WARN(algo << ": 90 % utilization " << t << " s after the loss (expected " << band.first << " - " << band.second
              << " s; Reno: > " << horizon << " s)");
    CHECK(t >= band.first);
    CHECK(t <= band.second);
  }
}

TEST_CASE("Illinois and CTCP keep a smaller standing queue than STCP", "[scenario][illinois][ctcp][stcp][slow]") {
  // One flow, 300 s, 1 x BDP buffer: STCP's multiplicative increase refills the buffer
  // within a few RTTs of every 12.5 % cut; Illinois slows to alpha_min as the queue
  // builds and cuts by 1/2 at high delay; CTCP's dwnd withdraws once the backlog passes
  // gamma, leaving Reno's slow +1 per RTT.
  std::map<std::string, double> queue;
  for (const char* algo : {"stcp", "illinois", "ctcp"}) {
    const auto s = scenario_from(path_400m(algo, "300s", "1s", R"({"sack": true})"));
    run::Experiment exp(s);
    const auto& r = exp.run();
    queue[algo] = r.links[0].mean_queue_pkts;
    WARN(algo << ": mean queue " << queue[algo] << " packets, utilization " << r.links[0].utilization);
    CHECK(r.links[0].utilization > 0.95);
  }
  CHECK(queue["stcp"] > 0.75 * 6667);
  CHECK(queue["illinois"] < 0.6 * queue["stcp"]);
  CHECK(queue["ctcp"] < 0.6 * queue["stcp"]);
}

TEST_CASE("Two flows of one algorithm with equal RTTs share fairly",
          "[scenario][hstcp][stcp][illinois][ctcp][cubic][slow]") {
  // 100 Mb/s, 50 ms, 1 x BDP buffer (417 packets); the second flow joins at 20 s.
  // Jain's index of the mean goodputs over [20 + settle, 20 + settle + span] seconds.
  // The AIMD senders converge to equal shares (Chiu and Jain): at least 0.98, a rate ratio
  // of 1.33 (measured 0.994-0.9999, drop-tail's phase effects leaving Reno a 1.16 ratio).
  // STCP (MIMD) keeps any ratio under synchronized losses and converges only through the
  // randomness of which flow loses packets at an overflow, slowly: at least 0.9 (a ratio
  // of 2; measured 0.978).
  struct Case {
    const char* algo;
    double settle_s;
    double span_s;
    double min_jain;
  };
  for (const Case c : {Case{"reno", 100, 200, 0.98}, Case{"hstcp", 100, 200, 0.98}, Case{"illinois", 100, 200, 0.98},
                       Case{"ctcp", 100, 200, 0.98}, Case{"cubic", 100, 200, 0.98}, Case{"stcp", 400, 400, 0.9}}) {
    const std::string a(c.algo);
    const double end = 20 + c.settle_s + c.span_s;
    const std::string json = R"({"name": "pair", "seed": 1, "duration": ")" + std::to_string(end) +
                             R"(s", "topology": {"dumbbell": {"bottleneck": {"rate": "100Mbps", "delay": "1ms",
        "buffer": "417pkt"}, "access": {"rate": "10Gbps", "buffer": "100000pkt"}}}, "defaults": {"sack": true},
        "flows": [{"id": "a", "algorithm": ")" +
                             a + R"(", "rtt": "50ms"}, {"id": "b", "algorithm": ")" + a +
                             R"(", "rtt": "50ms", "start": "20s"}]})";
    const auto s = scenario_from(json);
    run::Experiment exp(s);
    const auto& r = exp.run();
    std::vector<double> x;
    for (const auto& f : r.flows) {
      double sum = 0;
      int n = 0;
      for (size_t i = static_cast<size_t>(20 + c.settle_s); i < f.goodput_samples_bps.size(); ++i, ++n)
        sum += f.goodput_samples_bps[i];
      x.push_back(sum / n);
    }
    const double jain = (x[0] + x[1]) * (x[0] + x[1]) / (2 * (x[0] * x[0] + x[1] * x[1]));
    WARN(a << ": Jain " << jain << " over " << c.span_s << " s after " << c.settle_s << " s to settle (" << x[0] / 1e6
           << " / " << x[1] / 1e6 << " Mb/s)");
    CHECK(jain >= c.min_jain);
    CHECK(x[0] + x[1] > 0.95 * 100e6 * 1460 / 1500);
  }
}
