// The loss-based and hybrid high-speed senders in a dumbbell (issue: "Behaviour in a
// dumbbell"): the cut and the recovery of utilization after a loss on a 400 Mb/s, 200 ms
// path with a 1 x BDP buffer against each algorithm's decrease and increase rules; the standing queue of Illinois and CTCP against
// STCP on the same path; and fairness between two flows of one algorithm.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
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

/// What one injected loss did: the window before and after the cut, when the cut came, and
/// the seconds from the loss until the bottleneck is >= 90 % busy again over a whole
/// 0.2-s utilization sample (-1 if not within the horizon).
struct Recovery {
  double window_before = 0;
  double window_after = 0;
  double cut_s = 0;  ///< from the loss
  double time_s = -1;
};

/// The flow leaves slow start at the BDP (initial_ssthresh), so at the loss (t = 3 s) its
/// window is about one BDP with a nearly empty queue: every algorithm's cut then shows as
/// lost utilization. The rfc stack: the cut comes at once, where PRR (linux) spreads it
/// over the recovery round (Illinois under linux: 5.2 s, under rfc 4.2 s).
Recovery recovery_after_loss(const std::string& algorithm, double horizon_s) {
  const double loss_s = 3.0;
  const auto s = scenario_from(path_400m(algorithm, std::to_string(loss_s + horizon_s) + "s", "0.2s",
                                         R"({"stack": "rfc", "sack": true, "initial_ssthresh": 6667})"));
  run::Experiment exp(s);
  // The first packet reaching the bottleneck from loss_s on (announced before the run:
  // the bottleneck is chained and decides packets when they enter the access link).
  exp.link("bottleneck").inject_losses_at(Time::at(Duration::seconds(loss_s)), 1);
  Recovery out;
  exp.run_until(Time::at(Duration::seconds(loss_s)));
  for (int ms = 1; ms <= 1000 && out.cut_s == 0; ++ms) {
    const double before = exp.flow(0).sender->window().cwnd_pkts;
    exp.run_until(Time::at(Duration::seconds(loss_s + ms * 1e-3)));
    if (exp.flow(0).sender->window().ssthresh_pkts != 6667) {  // ssthresh: the BDP until the cut
      out.window_before = before;
      out.window_after = exp.flow(0).sender->window().cwnd_pkts;
      out.cut_s = ms * 1e-3;
    }
  }
  REQUIRE(out.cut_s > 0);
  const auto& r = exp.run();
  REQUIRE(r.flows[0].fast_recoveries >= 1);  // STCP overflows the buffer again later
  REQUIRE(r.flows[0].timeouts == 0);
  const auto& util = r.links[0].utilization_samples;  // sample i covers [0.2 i, 0.2 (i + 1))
  // The cut shows one RTT after the loss (detection) and lasts at least one more.
  const auto first = static_cast<size_t>((loss_s + 0.4) / 0.2);
  for (size_t i = first; i < util.size() && out.time_s < 0; ++i) {
    if (util[i] >= 0.9)
      out.time_s = 0.2 * static_cast<double>(i + 1) - loss_s;
  }
  return out;
}

/// Rounds for a window growing by increase(w) per RTT to reach `target` from `w`; the
/// per-ACK growth crosses the target during the last one, so after n - 1 whole rounds.
template <typename Increase>
int rounds_to_reach(double w, double target, Increase increase) {
  int n = 0;
  for (; w < target && n < 100000; ++n)
    w += increase(w);
  return n;
}

}  // namespace

TEST_CASE("After a loss the high-speed senders regain 90 % utilization as their rules predict, Reno does not",
          "[scenario][hstcp][stcp][illinois][ctcp][cubic][slow]") {
  // 400 Mb/s x 200 ms: 90 % utilization needs a window of 0.9 BDP = 6000 packets (the
  // queue is empty below the BDP, so the link carries cwnd / RTT). Each algorithm's cut is
  // checked against its rule, then the time its increase rule needs from the cut window to
  // 6000 gives the earliest possible recovery T = cut instant + the recovery round + that
  // time + 50 ms (sender to bottleneck). The 0.2-s sample in which the window crosses 6000
  // may average 0.9 or not, the next one is above all along, so the measured time (the end of
  // the first sample at or above 0.9) lies in [T, T + 0.4 + lag]; the lag is 0 but for
  // CTCP, two rounds (0.4 s: dwnd skips the round after recovery and steps at the end of
  // each round). CUBIC, traced: recovery ends at 3.36 s, cwnd 5992 at 8.6 s against
  // W = 6002 from the curve started then, crossing 6000 at ~8.62 s, 5.67 s after the loss.
  const double rtt = 0.2;
  const double target = 0.9 * 400e6 * rtt / 12000;
  const double horizon = 40;
  // Reno halves to BDP/2 and needs 0.4 BDP = 2667 RTTs (533 s) to reach 90 %.
  const Recovery reno = recovery_after_loss("reno", horizon);
  CHECK(reno.window_after == Approx(0.5 * reno.window_before).epsilon(1e-6));
  CHECK(reno.time_s < 0);

  struct Expectation {
    double cut;         ///< window after / before, from the algorithm's rule
    double earliest_s;  ///< growth time from the cut window to the target
    double latest_s;    ///< the same with the slowest reading of the rule
  };
  const std::map<std::string, std::function<Expectation(double)>> rules = {
      // STCP: cut 1/8; the cut window stays above the target here (7022 -> 6144): no recovery
      // needed, the first sample the procedure looks at passes.
      {"stcp", [&](double) { return Expectation{0.875, 0, 0}; }},
      // Illinois with an empty queue: beta_min = 1/8; alpha_max = 10 per RTT, but after a
      // round with queueing delay above d1 alpha returns to alpha_max only after theta = 5
      // low-delay rounds (Linux tcp_illinois.c), so between 0 and 5 rounds at alpha >= 0.3.
      {"illinois",
       [&](double w) {
         const double cut = 0.875 * w;
         return Expectation{0.875, rtt * (rounds_to_reach(cut, target, [](double) { return 10.0; }) - 1),
                            rtt * (5 + rounds_to_reach(cut + 5 * 0.3, target, [](double) { return 10.0; }))};
       }},
      // CUBIC: cut to 0.7 W; W(t) = C (t - K)^3 + W, K = cbrt(0.3 W / C), C = 0.4.
      {"cubic",
       [&](double w) {
         const double k = std::cbrt(0.3 * w / 0.4);
         const double t = k - std::cbrt((w - target) / 0.4);
         return Expectation{0.7, t, t};
       }},
      // HSTCP (RFC 3649): cut b(w) = 0.5 - 0.4 ln(w / 38) / ln(83000 / 38), increase
      // a(w) = w^2 p(w) 2 b(w) / (2 - b(w)) with p(w) = 0.078 / w^1.2 per RTT.
      {"hstcp",
       [&](double w) {
         const auto b = [](double x) { return 0.5 - 0.4 * std::log(x / 38) / std::log(83000.0 / 38); };
         const auto a = [&](double x) { return x * x * 0.078 / std::pow(x, 1.2) * 2 * b(x) / (2 - b(x)); };
         const int n = rounds_to_reach((1 - b(w)) * w, target, a);
         return Expectation{1 - b(w), rtt * (n - 1), rtt * n};
       }},
      // CTCP: the whole window (cwnd + dwnd) halves (beta 0.5), then grows alpha w^k per RTT
      // (dwnd alpha w^k - 1, cwnd 1) while the backlog stays below gamma.
      {"ctcp",
       [&](double w) {
         const int n = rounds_to_reach(0.5 * w, target, [](double x) { return 0.125 * std::pow(x, 0.75); });
         return Expectation{0.5, rtt * (n - 1), rtt * n};
       }},
  };
  for (const auto& [algo, rule] : rules) {
    const Recovery got = recovery_after_loss(algo, horizon);
    const Expectation e = rule(got.window_before);
    const double lag = algo == "ctcp" ? 0.4 : 0;
    const double earliest = algo == "stcp" ? 0.6 : got.cut_s + rtt + e.earliest_s + 0.05;
    const double latest = algo == "stcp" ? 0.6 : got.cut_s + rtt + e.latest_s + 0.05 + 0.4 + lag;
    WARN(algo << ": window " << got.window_before << " -> " << got.window_after << " (rule " << e.cut
              << "), 90 % utilization " << got.time_s << " s after the loss, predicted [" << earliest << ", "
              << latest << "] s");
    CHECK(got.window_after == Approx(e.cut * got.window_before).epsilon(1e-3));
    CHECK(got.time_s >= earliest - 1e-9);
    CHECK(got.time_s <= latest + 1e-9);
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
