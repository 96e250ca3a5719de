// DCTCP in a data-center dumbbell (RFC 8257; configs/dctcp-10G.json): two flows at 10 Gb/s
// with a 100 us base RTT through a step marker at K = 65 packets keep the bottleneck busy
// with the queue near K and no drops (measured: mean queue 61 packets, utilization 0.9998,
// alpha about 0.13). Reno with ECN on the same path halves at every marked window: mean
// queue 24 packets (below K/2) and utilization 0.91, so both bands below separate the two.
#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "../support/helpers.hpp"
#include "fastsim/config/errors.hpp"

using namespace fastsim;
using fastsim::testing::scenario_from;

namespace {

std::string dctcp_10g(const std::string& algorithm, const std::string& defaults) {
  return R"({"name": "dctcp", "seed": 1, "duration": "1s", "sample_interval": "10ms",
    "topology": {"dumbbell": {
      "bottleneck": {"rate": "10Gbps", "delay": "10us", "buffer": "1000pkt", "marking": {"threshold_pkts": 65}},
      "access": {"rate": "40Gbps", "buffer": "10000pkt"}}},
    "defaults": )" +
         defaults + R"(,
    "flows": [{"id": "a", "algorithm": ")" +
         algorithm + R"(", "rtt": "100us"}, {"id": "b", "algorithm": ")" + algorithm + R"(", "rtt": "100us"}]})";
}

/// Mean of the samples from `skip` on.
double mean_from(const std::vector<double>& v, size_t skip) {
  REQUIRE(v.size() > skip);
  return std::accumulate(v.begin() + static_cast<std::ptrdiff_t>(skip), v.end(), 0.0) /
         static_cast<double>(v.size() - skip);
}

}  // namespace

TEST_CASE("DCTCP keeps the 10 Gb/s queue near its marking threshold K", "[scenario][dctcp][ecn]") {
  const auto scenario = scenario_from(dctcp_10g("dctcp", R"({"stack": "linux"})"));
  run::Experiment exp(scenario);
  const auto& r = exp.run();
  const auto& bn = r.links[0];
  REQUIRE(bn.id == "bottleneck");
  const double k = 65;
  const double queue = mean_from(bn.queue_samples, 10);  // after the first 100 ms
  INFO("mean queue " << queue << " pkts, utilization " << mean_from(bn.utilization_samples, 10));
  // Alizadeh et al. (2010), N synchronized flows: the queue peaks at Q_max = K + N and
  // swings by A = (1/2) sqrt(2 N (C x RTT + K)) below it, C x RTT = 83.3 packets here: the
  // sawtooth spans [54.8, 67], its mean about 61. (Reno with ECN: 24.)
  const double n = 2, bdp = 10e9 * 100e-6 / (1500 * 8);
  const double q_max = k + n, amplitude = 0.5 * std::sqrt(2 * n * (bdp + k));
  INFO("theory: queue in [" << q_max - amplitude << ", " << q_max << "]");
  CHECK(queue >= q_max - amplitude - 1);
  CHECK(queue <= q_max + 1);
  CHECK(mean_from(bn.utilization_samples, 10) > 0.95);  // Reno with ECN: 0.91
  CHECK(bn.drops == 0);
  REQUIRE(bn.ce_marks.has_value());
  CHECK(*bn.ce_marks > 0);
  for (const auto& f : r.flows) {
    CHECK(f.retransmits == 0);
    CHECK(f.timeouts == 0);
  }
  // Identical flows marked together share equally.
  INFO("goodputs " << r.flows[0].goodput_bps << " and " << r.flows[1].goodput_bps);
  CHECK(r.flows[0].goodput_bps == Approx(r.flows[1].goodput_bps).epsilon(0.02));  // measured 0.14 %
}

TEST_CASE("Reno with ECN on a marking link reduces without losses", "[scenario][ecn]") {
  const auto scenario = scenario_from(dctcp_10g("reno", R"({"stack": "linux", "ecn": true})"));
  run::Experiment exp(scenario);
  const auto& r = exp.run();
  const auto& bn = r.links[0];
  CHECK(bn.drops == 0);
  REQUIRE(bn.ce_marks.has_value());
  CHECK(*bn.ce_marks > 0);
  // Halving at every marked window drains the queue far below K (DCTCP's alpha/2 cuts
  // keep it near K).
  CHECK(bn.mean_queue_pkts < 0.5 * 65);
  for (const auto& f : r.flows)
    CHECK(f.retransmits == 0);
}

TEST_CASE("bad marking and ecn keys are reported with their JSON path", "[scenario][ecn]") {
  auto issues_of = [](const std::string& bottleneck_extra, const std::string& defaults) {
    std::string text = dctcp_10g("reno", defaults);
    const std::string marking = R"("marking": {"threshold_pkts": 65})";
    text.replace(text.find(marking), marking.size(), bottleneck_extra);
    try {
      (void)scenario_from(text);
    } catch (const config::ScenarioError& e) {
      return e.issues();
    }
    return config::Issues{};
  };
  const std::string ok_marking = R"("marking": {"threshold_pkts": 65})";
  CHECK(issues_of(ok_marking, R"({"ecn": true})").empty());
  struct Case {
    std::string marking;
    std::string defaults;
    std::string path;
  };
  const std::vector<Case> cases = {
      {R"("marking": {"threshold_pkts": -1})", "{}", "/topology/dumbbell/bottleneck/marking/threshold_pkts"},
      {R"("marking": {})", "{}", "/topology/dumbbell/bottleneck/marking/threshold_pkts"},
      {R"("marking": 65)", "{}", "/topology/dumbbell/bottleneck/marking"},
      {R"("marking": {"threshold_pkts": 65, "k": 1})", "{}", "/topology/dumbbell/bottleneck/marking/k"},
      {R"("red": {"min_th": 5, "max_th": 15, "ecn": 1})", "{}", "/topology/dumbbell/bottleneck/red/ecn"},
      {ok_marking, R"({"ecn": "on"})", "/defaults/ecn"},
  };
  for (const auto& c : cases) {
    INFO(c.marking << " " << c.defaults);
    const config::Issues issues = issues_of(c.marking, c.defaults);
    REQUIRE(issues.size() == 1);
    CHECK(issues[0].path == c.path);
  }
}
