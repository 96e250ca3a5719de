// fastsim predict: the equilibrium solver and the scenario predictor against closed forms
// (dumbbell, parking lot, the persistent-congestion eqs. (10), (11), (15), (20)), the
// response functions, and the flows the model does not cover.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "../support/helpers.hpp"
#include "fastsim/predict/equilibrium.hpp"
#include "fastsim/predict/persistent_congestion.hpp"
#include "fastsim/predict/predict.hpp"

using namespace fastsim;
using fastsim::testing::dumbbell_json;
using fastsim::testing::scenario_from;

namespace {

const predict::FlowPrediction& flow(const predict::IntervalPrediction& i, const std::string& id) {
  for (const auto& f : i.flows) {
    if (f.id == id)
      return f;
  }
  FAIL("no flow " << id);
  return i.flows.front();
}

const predict::LinkPrediction& link(const predict::IntervalPrediction& i, const std::string& id) {
  for (const auto& l : i.links) {
    if (l.id == id)
      return l;
  }
  FAIL("no link " << id);
  return i.links.front();
}

std::string fast_flow(const std::string& id, const std::string& rtt, const std::string& start, double alpha = 50,
                      const std::string& extra = "") {
  return R"({"id": ")" + id + R"(", "algorithm": "fast", "params": {"alpha": )" + std::to_string(alpha) + extra +
         R"(}, "rtt": ")" + rtt + R"(", "start": ")" + start + "\"}";
}

/// n FAST flows with equal alpha on a 1 Gb/s dumbbell, flow k starting at k * 10 s.
config::Scenario sequential(int n, const std::string& remedy_of_last = "") {
  std::string flows = "[";
  for (int k = 0; k < n; ++k) {
    const std::string extra =
        k == n - 1 && !remedy_of_last.empty() ? R"(, "base_rtt_correction": ")" + remedy_of_last + "\"" : "";
    flows += (k ? "," : "") + fast_flow("f" + std::to_string(k + 1), "50ms", std::to_string(10 * k) + "s", 50, extra);
  }
  flows += "]";
  return scenario_from(dumbbell_json("1Gbps", "5ms", "100000pkt", std::to_string(10 * n) + "s", flows));
}

}  // namespace

TEST_CASE("predict: a dumbbell gives equal alphas equal rates and alpha packets queued each", "[predict]") {
  const auto s = scenario_from(dumbbell_json("100Mbps", "5ms", "2000pkt", "60s",
                                             "[" + fast_flow("a", "20ms", "0s") + "," + fast_flow("b", "80ms", "0s") +
                                                 "," + fast_flow("c", "200ms", "0s") + "]"));
  const auto p = predict::predict(s);
  REQUIRE(p.intervals.size() == 1);
  const auto& i = p.intervals[0];
  REQUIRE(i.converged);
  for (const char* id : {"a", "b", "c"}) {
    const auto& f = flow(i, id);
    REQUIRE_FALSE(f.reason);
    CHECK(f.rate_bps == Approx(100e6 / 3).epsilon(1e-8));
    CHECK(f.goodput_bps == Approx(100e6 / 3 * 1460 / 1500).epsilon(1e-8));
    CHECK(f.queued_pkts == Approx(50).epsilon(1e-8));
    CHECK(f.queueing_delay_s == Approx(150 * 1500 * 8 / 100e6).epsilon(1e-8));
    CHECK(f.bottleneck == "bottleneck");
  }
  const auto& b = link(i, "bottleneck");
  CHECK(b.queue_pkts == Approx(150).epsilon(1e-8));
  CHECK(b.queue_bytes == Approx(150 * 1500).epsilon(1e-8));
  CHECK(b.utilization == Approx(1).epsilon(1e-8));
}

TEST_CASE("predict: on a parking lot of n equal hops the long flow gets C/(n+1)", "[predict]") {
  for (int n : {2, 3, 5, 8}) {
    std::string flows = R"([{"id": "long", "algorithm": "fast", "params": {"alpha": 40}, "rtt": "100ms"})";
    for (int h = 1; h <= n; ++h) {
      flows += R"(, {"id": "s)" + std::to_string(h) + R"(", "algorithm": "fast", "params": {"alpha": 40}, "hops": )" +
               std::to_string(h) + "}";
    }
    flows += "]";
    const auto s = scenario_from(
        R"({"name": "pl", "duration": "10s", "topology": {"parking_lot": {"hop": {"rate": "100Mbps", "delay": "5ms",
        "buffer": "10000pkt"}, "count": )" +
        std::to_string(n) + R"(, "access": {"rate": "10Gbps", "delay": "1ms", "buffer": "100000pkt"}}}, "flows": )" +
        flows + "}");
    const auto p = predict::predict(s);
    REQUIRE(p.intervals.size() == 1);
    const auto& i = p.intervals[0];
    REQUIRE(i.converged);
    INFO("n = " << n);
    CHECK(flow(i, "long").rate_bps == Approx(100e6 / (n + 1)).epsilon(1e-7));
    for (int h = 1; h <= n; ++h) {
      CHECK(flow(i, "s" + std::to_string(h)).rate_bps == Approx(100e6 * n / (n + 1)).epsilon(1e-7));
      CHECK(link(i, "hop" + std::to_string(h)).queue_pkts ==
            Approx(40 * (1 + 1.0 / n)).epsilon(1e-7));  // short alpha + long alpha / n
    }
    CHECK(flow(i, "long").queued_pkts == Approx(40).epsilon(1e-7));  // spread over the n hops
  }
}

TEST_CASE("predict: eq. (10) and eq. (11) closed forms", "[predict]") {
  CHECK(predict::newcomer_extra_queue(1) == Approx((std::sqrt(5.0) - 1) / 2).epsilon(1e-15));
  const auto two = predict::sequential_shares(2);
  CHECK(two[0] == Approx(1 - (std::sqrt(5.0) - 1) / 2).epsilon(1e-14));  // x'_1 = (1 - a) C
  CHECK(two[1] == Approx((std::sqrt(5.0) - 1) / 2).epsilon(1e-14));      // x'_2 = a C
  for (int n = 2; n <= 9; ++n) {
    const auto x = predict::sequential_shares(n);
    double sum = 0;
    for (double v : x)
      sum += v;
    CHECK(sum == Approx(1).epsilon(1e-14));
    CHECK(x.back() / x[x.size() - 2] == Approx(2).margin(0.4));  // the newest gets about twice the previous
  }
}

TEST_CASE("predict: sequential starts reproduce eq. (11) for n = 2..9", "[predict]") {
  for (int n = 2; n <= 9; ++n) {
    const auto s = sequential(n);
    const auto p = predict::predict(s);
    REQUIRE(p.intervals.size() == static_cast<size_t>(n));
    const auto& last = p.intervals.back();
    REQUIRE(last.converged);
    const auto expected = predict::sequential_shares(n);
    INFO("n = " << n);
    for (int k = 0; k < n; ++k)
      CHECK(flow(last, "f" + std::to_string(k + 1)).rate_bps / 1e9 == Approx(expected[k]).epsilon(1e-9));
    // Every earlier interval is eq. (11) for its own number of flows.
    const auto mid = predict::sequential_shares(n - 1);
    for (int k = 0; k + 1 < n; ++k)
      CHECK(flow(p.intervals[n - 2], "f" + std::to_string(k + 1)).rate_bps / 1e9 == Approx(mid[k]).epsilon(1e-9));
  }
}

TEST_CASE("predict: a newcomer among fair flows follows eq. (15); the remedies make it fair", "[predict]") {
  const int n = 4;
  auto scenario = [&](const std::string& remedy, const std::string& rtt) {
    std::string flows = "[";
    for (int k = 0; k < n; ++k)
      flows += fast_flow("old" + std::to_string(k), rtt, "0s") + ",";
    const std::string extra = remedy.empty() ? "" : R"(, "base_rtt_correction": ")" + remedy + "\"";
    flows += fast_flow("new", rtt, "20s", 50, extra) + "]";
    return scenario_from(dumbbell_json("100Mbps", "1ms", "100000pkt", "60s", flows,
                                       R"({"delayed_ack": false, "packet_size": 1000, "mss": 960})"));
  };
  SECTION("no remedy: eq. (12), (13), (15)") {
    const auto p = predict::predict(scenario("", "50ms"));
    REQUIRE(p.intervals.size() == 2);
    const auto& i = p.intervals[1];
    CHECK(flow(i, "new").rate_bps / 100e6 == Approx(predict::newcomer_new_share(n)).epsilon(1e-9));
    CHECK(flow(i, "old0").rate_bps / 100e6 == Approx(predict::newcomer_old_share(n)).epsilon(1e-9));
    CHECK(flow(i, "new").base_rtt_error_s == Approx(n * 50 * 1000 * 8 / 100e6).epsilon(1e-9));  // e = n alpha / C
    // eq. (16), (18): the queue holds n alpha + alpha (1 + a) packets
    CHECK(link(i, "bottleneck").queue_pkts ==
          Approx(n * 50 + 50 * (1 + predict::newcomer_extra_queue(n))).epsilon(1e-9));
  }
  SECTION("baseRTT correction: fair") {
    const auto p = predict::predict(scenario("rodriguez", "50ms"));
    const auto& i = p.intervals[1];
    CHECK(flow(i, "new").rate_bps == Approx(20e6).epsilon(1e-9));
    CHECK(flow(i, "old0").rate_bps == Approx(20e6).epsilon(1e-9));
    CHECK(flow(i, "new").base_rtt_error_s == 0);
  }
  SECTION("rate reduction: fair above eq. (20)'s delay, unfair below") {
    // eq. (20) for n = 4, alpha = 50, C = 12500 packets/s: 41.0 ms (the paper quotes 40.9 ms)
    const double bound = predict::rate_reduction_min_delay(n, 50, 12500);
    CHECK(bound == Approx(0.04098).margin(1e-4));
    CHECK(predict::rate_reduction_min_delay(8, 50, 12500) == Approx(0.1079).margin(1e-4));  // the paper's 107.9 ms
    const auto above = predict::predict(scenario("rate_reduction", "60ms"));
    CHECK(flow(above.intervals[1], "new").rate_bps == Approx(20e6).epsilon(1e-9));
    const auto below = predict::predict(scenario("rate_reduction", "30ms"));
    CHECK(flow(below.intervals[1], "new").rate_bps / 100e6 == Approx(predict::newcomer_new_share(n)).epsilon(1e-9));
  }
}

TEST_CASE("predict: loss-based flows follow their response functions under random loss", "[predict]") {
  auto one = [](const std::string& algo, double p) {
    const auto s = scenario_from(dumbbell_json("10Gbps", "5ms", "100000pkt", "10s",
                                               R"([{"id": "x", "algorithm": ")" + algo + R"(", "rtt": "100ms"}])",
                                               R"({"delayed_ack": true})", R"(, "loss_rate": )" + std::to_string(p)));
    const auto pr = predict::predict(s);
    REQUIRE(pr.intervals.size() == 1);
    return pr.intervals[0].flows[0];
  };
  const auto reno = one("reno", 1e-4);
  REQUIRE_FALSE(reno.reason);
  // random-loss AIMD(1, 1/2): 1.3098 / sqrt(p) (Ott, Kemperman, Mathis 1996), not the
  // periodic-loss sqrt(1.5 / p)
  CHECK(reno.window_pkts == Approx(1.3098 / std::sqrt(1e-4)).epsilon(1e-4));
  CHECK(reno.queueing_delay_s == 0);
  CHECK_FALSE(reno.bottleneck);
  CHECK(reno.rate_bps == Approx(reno.window_pkts * 1500 * 8 / reno.rtt_s).epsilon(1e-12));
  CHECK(one("hstcp", 1e-6).window_pkts == Approx(0.12 / std::pow(1e-6, 0.835)).epsilon(0.03));
  // random-loss MIMD(0.01, 0.125): 0.0749 / p (Kelly's 0.08 / p is the mean over packets)
  CHECK(one("stcp", 1e-5).window_pkts == Approx(0.0749 / 1e-5).epsilon(1e-3));
  CHECK(one("stcp", 1e-2).window_pkts == Approx(1.3098 / std::sqrt(1e-2)).epsilon(1e-4));  // below low_window: Reno
  // CUBIC's TCP-friendly region: RFC 8312's AIMD(3 (1 - beta) / (1 + beta), 1 - beta) under
  // random loss, 1.2739 / sqrt(p) at beta 0.7 (the cubic window at p = 1e-2 and 100 ms is 5.9)
  CHECK(one("cubic", 1e-2).window_pkts == Approx(1.2739 / std::sqrt(1e-2)).epsilon(1e-3));
  const auto illinois = one("illinois", 1e-4);
  REQUIRE(illinois.reason);
  CHECK_THAT(*illinois.reason, Catch::Contains("no response function"));
}

TEST_CASE("predict: AIMD and MIMD under random loss match their ideal processes simulated", "[predict]") {
  // The ideal processes stepped from loss to loss, losses independent per packet: AIMD
  // (Reno) grows w by a / w per packet, so from w to w' takes (w'^2 - w^2) / 2a packets and
  // (w' - w) / a RTTs; MIMD (Scalable TCP) grows w by a per packet, (w' - w) / a packets and
  // ln(w' / w) / a RTTs. Each loss multiplies w by 1 - b. Time average = packets / RTTs.
  auto simulated = [](bool multiplicative, double a, double b, double p) {
    std::mt19937_64 rng(7);
    std::exponential_distribution<double> packets_to_loss(p);
    double w = 1 / std::sqrt(p), packets = 0, rtts = 0;
    for (int k = 0; k < 400000; ++k) {
      const double n = packets_to_loss(rng);
      const double peak = multiplicative ? w + a * n : std::sqrt(w * w + 2 * a * n);
      if (k >= 1000) {
        packets += n;
        rtts += multiplicative ? std::log(peak / w) / a : (peak - w) / a;
      }
      w = (1 - b) * peak;
    }
    return packets / rtts;
  };
  auto predicted = [](bool multiplicative, double a, double b, double p) {
    const std::string params = multiplicative ? R"("algorithm": "stcp", "params": {"a": )" + std::to_string(a) +
                                                    R"(, "b": )" + std::to_string(b) + "}"
                                              : R"("algorithm": "reno", "params": {"increase": )" + std::to_string(a) +
                                                    R"(, "decrease": )" + std::to_string(b) + "}";
    const auto s = scenario_from(dumbbell_json("10Gbps", "5ms", "100000pkt", "10s",
                                               R"([{"id": "x", )" + params + R"(, "rtt": "100ms"}])",
                                               R"({"delayed_ack": true})", R"(, "loss_rate": )" + std::to_string(p)));
    return predict::predict(s).intervals.at(0).flows.at(0).window_pkts;
  };
  for (const auto& [a, b] : std::vector<std::pair<double, double>>{{1, 0.5}, {1, 0.3}, {2, 0.125}, {0.5, 0.9}}) {
    INFO("AIMD a=" << a << " b=" << b);
    CHECK(predicted(false, a, b, 1e-4) == Approx(simulated(false, a, b, 1e-4)).epsilon(0.01));
  }
  for (const auto& [a, b] : std::vector<std::pair<double, double>>{{0.01, 0.125}, {0.02, 0.3}, {0.005, 0.05}}) {
    INFO("MIMD a=" << a << " b=" << b);
    CHECK(predicted(true, a, b, 1e-4) == Approx(simulated(true, a, b, 1e-4)).epsilon(0.01));
  }
}

TEST_CASE("predict: what the model does not cover gets a reason, not a number", "[predict]") {
  SECTION("drop-tail only: a loss-based flow and the FAST flow beside it") {
    const auto s = scenario_from(
        dumbbell_json("100Mbps", "5ms", "1000pkt", "10s",
                      R"([{"id": "r", "algorithm": "reno", "rtt": "50ms"}, )" + fast_flow("f", "50ms", "0s") + "]"));
    const auto pr = predict::predict(s);
    const auto& i = pr.intervals.at(0);
    REQUIRE(flow(i, "r").reason);
    CHECK_THAT(*flow(i, "r").reason, Catch::Contains("no random loss"));
    REQUIRE(flow(i, "f").reason);
    CHECK_THAT(*flow(i, "f").reason, Catch::Contains("shares link bottleneck"));
    CHECK(link(i, "bottleneck").reason);
    const auto j = predict::to_json(predict::predict(s));
    CHECK(j["intervals"][0]["flows"][0]["prediction"].is_null());
    CHECK_FALSE(j["intervals"][0]["flows"][0].contains("rate_bps"));
  }
  SECTION("a UDP source saturating the link") {
    auto text = dumbbell_json("100Mbps", "5ms", "1000pkt", "10s", "[" + fast_flow("f", "50ms", "0s") + "]");
    text.insert(text.size() - 1, R"(, "udp": [{"id": "u", "type": "cbr", "rate": "100Mbps", "rtt": "50ms"}])");
    const auto pr = predict::predict(scenario_from(text));
    const auto& i = pr.intervals.at(0);
    REQUIRE(flow(i, "f").reason);
    CHECK_THAT(*flow(i, "f").reason, Catch::Contains("UDP load"));
  }
  SECTION("a UDP source below the capacity is a fixed load") {
    auto text = dumbbell_json("100Mbps", "5ms", "1000pkt", "10s", "[" + fast_flow("f", "50ms", "0s") + "]");
    text.insert(text.size() - 1, R"(, "udp": [{"id": "u", "type": "cbr", "rate": "40Mbps", "rtt": "50ms"}])");
    const auto pr = predict::predict(scenario_from(text));
    const auto& i = pr.intervals.at(0);
    REQUIRE_FALSE(flow(i, "f").reason);
    CHECK(flow(i, "f").rate_bps == Approx(60e6).epsilon(1e-9));
  }
  SECTION("a queue beyond the buffer") {
    const auto s =
        scenario_from(dumbbell_json("100Mbps", "5ms", "60pkt", "10s",
                                    "[" + fast_flow("a", "50ms", "0s") + "," + fast_flow("b", "50ms", "0s") + "]"));
    const auto pr = predict::predict(s);
    const auto& i = pr.intervals.at(0);
    REQUIRE(flow(i, "a").reason);
    CHECK_THAT(*flow(i, "a").reason, Catch::Contains("overflows the buffer"));
  }
  SECTION("Vegas: the midpoint of the band, the band reported") {
    const auto s = scenario_from(
        dumbbell_json("100Mbps", "5ms", "1000pkt", "10s",
                      R"([{"id": "v", "algorithm": "vegas", "params": {"alpha": 2, "beta": 6}, "rtt": "50ms"}])"));
    const auto pr = predict::predict(s);
    const auto& f = flow(pr.intervals.at(0), "v");
    REQUIRE_FALSE(f.reason);
    CHECK(f.queued_pkts == Approx(4).epsilon(1e-9));
    CHECK(f.target_low_pkts == 2);
    CHECK(f.target_high_pkts == 6);
    REQUIRE(f.rate_band_bps);  // alone: every backlog in the band gives the whole link
    CHECK(f.rate_band_bps->first == Approx(100e6).epsilon(1e-12));
    CHECK(f.rate_band_bps->second == Approx(100e6).epsilon(1e-12));
  }
  SECTION("Vegas: two flows on one bottleneck, the band of equilibrium rates") {
    const auto s = scenario_from(
        dumbbell_json("100Mbps", "5ms", "1000pkt", "10s",
                      R"([{"id": "v", "algorithm": "vegas", "params": {"alpha": 2, "beta": 4}, "rtt": "50ms"},
                          {"id": "w", "algorithm": "vegas", "params": {"alpha": 2, "beta": 4}, "rtt": "150ms"},
                          {"id": "f", "algorithm": "fast", "params": {"alpha": 6}, "rtt": "50ms"}])"));
    const auto pr = predict::predict(s);
    const auto& v = flow(pr.intervals.at(0), "v");
    REQUIRE(v.rate_band_bps);
    // v at 2 packets against w at 4 and f at 6: 2/12 of C; v at 4 against 2 and 6: 4/12.
    CHECK(v.rate_band_bps->first == Approx(100e6 * 2 / 12).epsilon(1e-12));
    CHECK(v.rate_band_bps->second == Approx(100e6 * 4 / 12).epsilon(1e-12));
    CHECK(v.rate_bps == Approx(100e6 * 3 / 12).epsilon(1e-9));  // the midpoint
    CHECK_FALSE(flow(pr.intervals.at(0), "f").rate_band_bps);
  }
}

TEST_CASE("predict: the solver meets its tolerance on a large random network", "[predict]") {
  predict::EqProblem p;
  const size_t links = 200, flows = 5000;
  for (size_t l = 0; l < links; ++l)
    p.capacity_bps.push_back(1e8 * (1 + static_cast<double>(l % 7)));
  uint64_t x = 12345;
  auto next = [&] {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return x >> 33;
  };
  for (size_t i = 0; i < flows; ++i) {
    predict::EqFlow f;
    f.weight = 8000.0 * (1 + static_cast<double>(next() % 100));
    f.offset_s = i % 3 == 0 ? -0.05 : 0.0;  // some loss-based (a fixed window over a 50 ms base RTT)
    const size_t hops = 1 + next() % 4;
    while (f.links.size() < hops) {
      const auto l = static_cast<uint32_t>(next() % links);
      if (std::find(f.links.begin(), f.links.end(), l) == f.links.end())
        f.links.push_back(l);
    }
    p.flows.push_back(f);
  }
  const auto s = predict::solve_equilibrium(p, {1e-9, 100000});
  REQUIRE(s.converged);
  // KKT: every flow at its demand curve, every link at capacity where priced.
  for (size_t i = 0; i < flows; ++i) {
    double q = 0;
    for (auto l : p.flows[i].links)
      q += s.price_s[l];
    CHECK(s.rate_bps[i] == Approx(p.flows[i].weight / (q - p.flows[i].offset_s)).epsilon(1e-12));
  }
  for (size_t l = 0; l < links; ++l) {
    CHECK(s.load_bps[l] <= p.capacity_bps[l] * (1 + 1e-9));
    if (s.price_s[l] > 0)
      CHECK(s.load_bps[l] == Approx(p.capacity_bps[l]).epsilon(1e-9));
  }
}

TEST_CASE("predict: every scenario in configs/ gives a number or a reason for every flow", "[predict]") {
  size_t scenarios = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(std::string(FASTSIM_SOURCE_DIR) + "/configs")) {
    if (e.path().extension() != ".json")
      continue;
    config::Scenario s;
    try {
      s = config::parse_scenario(config::load_json_file(e.path().string()));
    } catch (const config::ScenarioError&) {
      continue;  // not a scenario (a sweep spec, the published-results table)
    }
    ++scenarios;
    const auto p = predict::predict(s);
    for (const auto& i : p.intervals) {
      INFO(e.path().string() << " at " << i.start_s << " s");
      CHECK(i.converged);
      for (const auto& f : i.flows) {
        INFO(f.id);
        if (f.reason) {
          CHECK_FALSE(f.reason->empty());
        } else {
          CHECK(std::isfinite(f.rate_bps));
          CHECK(f.rate_bps > 0);
          CHECK(std::isfinite(f.queueing_delay_s));
        }
      }
    }
  }
  CHECK(scenarios > 20);
}

TEST_CASE("predict: Vegas with alpha = beta = 0 has no delay equilibrium", "[predict]") {
  const auto s = scenario_from(
      dumbbell_json("100Mbps", "5ms", "1000pkt", "10s",
                    R"([{"id": "v", "algorithm": "vegas", "params": {"alpha": 0, "beta": 0}, "rtt": "50ms"}])"));
  const auto p = predict::predict(s);
  const auto& f = flow(p.intervals.at(0), "v");
  REQUIRE(f.reason);
  CHECK_THAT(*f.reason, Catch::Contains("alpha = beta = 0"));
}

TEST_CASE("predict: Pareto on/off cross traffic is a mean load, flagged as approximate", "[predict]") {
  auto text = dumbbell_json("100Mbps", "5ms", "1000pkt", "10s", "[" + fast_flow("f", "50ms", "0s") + "]");
  text.insert(text.size() - 1,
              R"(, "udp": [{"id": "u", "type": "pareto", "rate": "40Mbps", "mean_on": "100ms", "mean_off": "300ms",
              "rtt": "50ms"}])");
  const auto p = predict::predict(scenario_from(text));
  const auto& f = flow(p.intervals.at(0), "f");
  REQUIRE_FALSE(f.reason);
  CHECK(f.rate_bps == Approx(90e6).epsilon(1e-9));  // 100 Mb/s less the 10 Mb/s mean
  REQUIRE(f.notes.size() == 1);
  CHECK_THAT(f.notes[0], Catch::Contains("approximate: Pareto on/off"));
}

TEST_CASE("predict: a flow starting after the queue drained measures its baseRTT right", "[predict]") {
  // a runs 0-10 s, b starts at 20 s on the empty link; c starts at 30 s into b's queue.
  const auto s = scenario_from(
      dumbbell_json("100Mbps", "5ms", "10000pkt", "40s",
                    R"([{"id": "a", "algorithm": "fast", "params": {"alpha": 50}, "rtt": "50ms", "stop": "10s"},
          {"id": "b", "algorithm": "fast", "params": {"alpha": 50}, "rtt": "50ms", "start": "20s"},
          {"id": "c", "algorithm": "fast", "params": {"alpha": 50}, "rtt": "50ms", "start": "30s"}])"));
  const auto p = predict::predict(s);
  REQUIRE(p.intervals.size() == 3);
  CHECK(flow(p.intervals[1], "b").base_rtt_error_s == 0);
  CHECK(flow(p.intervals[1], "b").notes.empty());
  CHECK(flow(p.intervals[2], "c").base_rtt_error_s == Approx(50 * 1500 * 8 / 100e6).epsilon(1e-9));
  CHECK(flow(p.intervals[2], "c").rate_bps / 100e6 == Approx(predict::sequential_shares(2)[1]).epsilon(1e-9));
}
