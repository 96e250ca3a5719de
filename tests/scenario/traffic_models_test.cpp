// Traffic and link models of the published experiments against their definitions:
// CBR and Pareto on/off long-run rates, Poisson arrival counts and flow sizes within
// their 99 % confidence bands, reverse traffic delaying ACKs by the reverse queue,
// FAST's proportionally fair parking lot, dummynet's tick jitter in a Vegas flow's RTT
// samples, on/off flows with a window cap, seeded start jitter and txqueuelen.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "../support/helpers.hpp"
#include "fastsim/core/rng.hpp"
#include "fastsim/core/size_distribution.hpp"

using namespace fastsim;
using fastsim::testing::mean_of;
using fastsim::testing::scenario_from;

namespace {

std::string dumbbell(const std::string& bottleneck, const std::string& duration, const std::string& body) {
  return R"({"name": "traffic", "seed": 1, "duration": ")" + duration +
         R"(", "topology": {"dumbbell": {"bottleneck": )" + bottleneck +
         R"(, "access": {"rate": "10Gbps", "buffer": "100000pkt"}}}, )" + body + "}";
}

}  // namespace

TEST_CASE("a CBR source delivers its rate within 0.5 %", "[scenario][udp]") {
  const auto s = scenario_from(dumbbell(R"({"rate": "100Mbps", "delay": "5ms", "buffer": "1000pkt"})", "20s",
                                        R"("flows": [], "udp": [{"id": "cbr", "rtt": "20ms", "rate": "25Mbps",
                                            "packet_size": 1000, "start": "2s", "stop": "18s"}])"));
  run::Experiment exp(s);
  const auto& r = exp.run();
  const double rate = static_cast<double>(r.udp[0].packets_delivered) * 1000 * 8 / 16.0;
  CHECK(rate == Approx(25e6).epsilon(0.005));
  CHECK(r.udp[0].drops == 0);
}

TEST_CASE("Pareto on/off sources send peak x on / (on + off) in the long run", "[scenario][udp]") {
  // 50 sources of the persistent-congestion background (shape 1.5, mean burst and idle
  // 100 ms, peak 1 Mb/s) for 1000 s: 25 Mb/s in total expected.
  const auto s = scenario_from(
      dumbbell(R"({"rate": "1Gbps", "delay": "5ms", "buffer": "10000pkt"})", "1000s", R"("flows": [], "udp": [)" + [] {
        std::string list;
        for (int i = 0; i < 50; ++i) {
          list += (i ? "," : "") + std::string(R"({"id": "p)") + std::to_string(i) +
                  R"(", "rtt": "20ms", "type": "pareto", "rate": "1Mbps",
                                                    "shape": 1.5, "mean_on": "100ms", "mean_off": "100ms"})";
        }
        return list;
      }() + "]"));
  run::Experiment exp(s);
  const auto& r = exp.run();
  double bits = 0;
  for (const auto& u : r.udp)
    bits += static_cast<double>(u.packets_sent) * 1500 * 8;
  CHECK(bits / 1000.0 == Approx(50 * 1e6 * 0.5).epsilon(0.05));
}

TEST_CASE("Poisson arrivals: counts and mean size within their 99 % confidence bands", "[scenario][arrivals]") {
  // 20 flows/s for 400 s (arrivals stop at 400 s; the run goes on so every flow ends).
  const auto [distribution, size_json] = GENERATE(
      std::pair{"exponential", R"({"distribution": "exponential", "mean": 20000})"},
      std::pair{"bounded_pareto", R"({"distribution": "bounded_pareto", "min": 1000, "max": 1000000, "shape": 1.2})"});
  const uint64_t seed = GENERATE(1, 2, 3);
  auto doc = nlohmann::json::parse(dumbbell(R"({"rate": "1Gbps", "delay": "2ms", "buffer": "10000pkt"})", "430s",
                                            R"("arrivals": [{"id": "web", "rate": 20, "stop": "400s",
                                                "size": )" +
                                                std::string(size_json) + R"(, "rtt": "10ms"}])"));
  doc["seed"] = seed;
  const auto s = config::parse_scenario(doc);
  run::Experiment exp(s);
  const auto& r = exp.run();
  INFO(distribution << ", seed " << seed);
  const double expected_n = 20 * 400;
  CHECK(std::fabs(static_cast<double>(r.arrivals[0].started) - expected_n) <= 2.576 * std::sqrt(expected_n));
  const auto& done = exp.arrivals(0).completed();
  REQUIRE(done.size() == r.arrivals[0].started);  // light load: every flow finished
  double sum = 0, sum2 = 0;
  for (const auto& c : done) {
    sum += static_cast<double>(c.size_bytes);
    sum2 += static_cast<double>(c.size_bytes) * static_cast<double>(c.size_bytes);
    CHECK(c.fct_s > 0.010);  // at least the base RTT
  }
  const double n = static_cast<double>(done.size());
  const double mean = sum / n;
  const double sd = std::sqrt(sum2 / n - mean * mean);
  CHECK(std::fabs(mean - s.arrivals[0].size.mean_bytes()) <= 2.576 * sd / std::sqrt(n));
  // Memory follows the active flows, not the arrivals.
  CHECK(exp.arrivals(0).live_objects() < 100);
}

TEST_CASE("bounded Pareto's mean formula matches its samples", "[scenario][arrivals]") {
  SizeDistribution d;
  d.kind = SizeDistribution::Kind::kBoundedPareto;
  d.min = 1000;
  d.max = 1e6;
  d.shape = 1.2;
  RandomStream rng(5, "test");
  double sum = 0;
  const int n = 2'000'000;
  for (int i = 0; i < n; ++i)
    sum += static_cast<double>(d.sample(rng));
  CHECK(sum / n == Approx(d.mean_bytes()).epsilon(0.01));
}

TEST_CASE("reverse traffic delays ACKs by the reverse queue", "[scenario][reverse]") {
  // A forward probe flow with two segments in flight never queues behind itself. Reverse
  // FAST flows (alpha = 50) each keep 50 packets in the reverse bottleneck, where the
  // probe's ACKs wait: its RTT rises by the reverse queue's delay (its bytes at 100 Mb/s),
  // sampled at the same instants.
  auto measure = [](int reverse_flows) {
    std::string flows = R"({"id": "fwd", "rtt": "100ms", "max_window": "3KB", "delayed_ack": false})";
    for (int i = 0; i < reverse_flows; ++i) {
      flows += R"(, {"id": "rev)" + std::to_string(i) +
               R"(", "rtt": "100ms", "direction": "reverse", "algorithm": "fast", "params": {"alpha": 50}})";
    }
    const auto s = scenario_from(
        dumbbell(R"({"rate": "100Mbps", "delay": "10ms", "buffer": "2000pkt"})", "40s", R"("flows": [)" + flows + "]"));
    run::Experiment exp(s);
    double rtt = 0, queue = 0, delay = 0;
    int n = 0;
    for (double t = 20.05; t < 40; t += 0.1, ++n) {
      exp.run_until(Time::at(Duration::seconds(t)));
      rtt += exp.flow(0).sender->rtt().view().last_round.mean.to_seconds();
      queue += static_cast<double>(exp.link("bottleneck_rev").queue_packets());
      delay += static_cast<double>(exp.link("bottleneck_rev").queue_bytes()) * 8 / 100e6;
    }
    return std::tuple{rtt / n, queue / n, delay / n};
  };
  const auto [alone, q0, d0] = measure(0);
  const auto [one, q1, d1] = measure(1);
  const auto [two, q2, d2] = measure(2);
  INFO("forward RTT " << alone << " / " << one << " / " << two << " s; reverse queue " << q0 << " / " << q1 << " / "
                      << q2 << " packets");
  CHECK(q0 < 1);
  CHECK(alone == Approx(0.1).epsilon(0.01));
  CHECK(q1 == Approx(50).epsilon(0.1));
  CHECK(q2 == Approx(100).epsilon(0.1));
  CHECK(one - alone == Approx(d1).epsilon(0.1));
  CHECK(two - alone == Approx(d2).epsilon(0.1));
}

TEST_CASE("parking lot with FAST: proportionally fair rates", "[scenario][parking-lot][fast]") {
  // One long flow over L hops, one cross flow per hop, equal alpha: the long flow gets
  // C / (L + 1), each cross flow C L / (L + 1).
  const int hops = GENERATE(2, 3);
  std::string flows = R"({"id": "long", "algorithm": "fast", "params": {"alpha": 30}})";
  for (int h = 1; h <= hops; ++h) {
    flows += R"(, {"id": "cross)" + std::to_string(h) + R"(", "algorithm": "fast", "params": {"alpha": 30}, "hops": )" +
             std::to_string(h) + "}";
  }
  const auto s = scenario_from(R"({"name": "pl", "duration": "40s", "defaults": {"sack": true},
      "topology": {"parking_lot": {"hop": {"rate": "100Mbps", "delay": "5ms", "buffer": "5000pkt"}, "count": )" +
                               std::to_string(hops) + R"(,
                   "access": {"rate": "1Gbps", "delay": "1ms", "buffer": "10000pkt"}}},
      "flows": [)" + flows + "]}");
  run::Experiment exp(s);
  const auto& r = exp.run();
  const double x0 = mean_of(r.flows[0].goodput_samples_bps, 20, 40);
  for (int h = 1; h <= hops; ++h) {
    const double xh = mean_of(r.flows[static_cast<size_t>(h)].goodput_samples_bps, 20, 40);
    INFO("L = " << hops << ": long " << x0 / 1e6 << " Mb/s, cross" << h << " " << xh / 1e6 << " Mb/s");
    CHECK(x0 / (x0 + xh) == Approx(1.0 / (hops + 1)).epsilon(0.05));
    CHECK(xh / (x0 + xh) == Approx(static_cast<double>(hops) / (hops + 1)).epsilon(0.05));
    CHECK(x0 + xh == Approx(100e6 * 1460 / 1500).epsilon(0.03));  // every hop is full
  }
}

TEST_CASE("a dummynet bottleneck adds tick jitter to a Vegas flow's RTT samples", "[scenario][dummynet]") {
  // Within an RTT round, RTT samples spread over about one tick behind a 1-ms pipe,
  // and hardly at all behind a FIFO transmitter.
  auto spread = [](const std::string& pipe) {
    const auto s = scenario_from(dumbbell(R"({"rate": "100Mbps", "delay": "10ms", "buffer": "2000pkt")" + pipe + "}",
                                          "30s", R"("flows": [{"id": "v", "rtt": "60ms", "algorithm": "vegas"}])"));
    run::Experiment exp(s);
    double sum = 0;
    int n = 0;
    for (double t = 10.05; t < 30; t += 0.1, ++n) {
      exp.run_until(Time::at(Duration::seconds(t)));
      const auto& round = exp.flow(0).sender->rtt().view().last_round;
      sum += (round.max - round.min).to_seconds();
    }
    const auto& r = exp.run();
    return std::pair{sum / n, r.flows[0].goodput_bps};
  };
  const auto [fifo, fifo_rate] = spread("");
  const auto [pipe, pipe_rate] = spread(R"(, "dummynet": {"tick": "1ms"})");
  INFO("mean in-round RTT spread: FIFO " << fifo * 1e3 << " ms, dummynet " << pipe * 1e3 << " ms");
  CHECK(fifo < 0.0003);
  // The pipe releases packets at tick boundaries, each having arrived at a uniform phase
  // within its tick: the spread of a round's samples is nearly the whole tick (the range of
  // n uniform phases is 1 - 2/(n + 1) of it). Measured 0.98 ms.
  CHECK(pipe > 0.0008);
  CHECK(pipe < 0.0012);
  CHECK(pipe_rate == Approx(fifo_rate).epsilon(0.05));  // the pipe still runs at its rate
}

TEST_CASE("on/off flows pause and a window cap bounds their rate", "[scenario][reverse]") {
  // 0.5 MB in flight over a 100-ms path: at most 40 Mb/s, on a 250 Mb/s link.
  const auto s = scenario_from(dumbbell(R"({"rate": "250Mbps", "delay": "10ms", "buffer": "2000pkt"})", "24s",
                                        R"("flows": [{"id": "f", "rtt": "100ms", "max_window": "500KB",
                                            "on_off": {"on": "5s", "off": "1s"}}])"));
  run::Experiment exp(s);
  const auto& r = exp.run();
  const auto& g = r.flows[0].goodput_samples_bps;  // g[k]: period (k, k + 1] s
  const double cap = 500e3 / 1460 * 1460 * 8 / 0.1;
  for (size_t k : {2u, 3u, 8u, 9u, 14u, 15u}) {  // inside on periods
    CHECK(g[k] <= cap * 1.02);
    CHECK(g[k] >= cap * 0.9);
  }
  for (size_t k : {6u, 12u, 18u})  // (6, 7], ...: the second after an off second starts... fully off: (5,6]
    CHECK(g[k - 1] < cap * 0.25);
}

TEST_CASE("start jitter is seeded per flow and stays in its range", "[scenario]") {
  auto starts = [](uint64_t seed) {
    auto doc = nlohmann::json::parse(dumbbell(R"({"rate": "100Mbps", "delay": "5ms", "buffer": "100pkt"})", "10s",
                                              R"("flows": [{"id": "a", "rtt": "20ms", "start": "2s",
                                                  "start_jitter": "1s", "count": 3}])"));
    doc["seed"] = seed;
    const auto s = config::parse_scenario(doc);
    std::vector<double> out;
    for (const auto& f : s.flows)
      out.push_back(f.start.to_seconds());
    return out;
  };
  const auto a = starts(1), b = starts(1), c = starts(2);
  CHECK(a == b);
  CHECK(a != c);
  CHECK(a[0] != a[1]);
  for (double t : a) {
    CHECK(t >= 2.0);
    CHECK(t < 3.0);
  }
}

TEST_CASE("txqueuelen sets the sender's access-link buffer", "[scenario]") {
  const auto s = scenario_from(dumbbell(R"({"rate": "100Mbps", "delay": "5ms", "buffer": "100pkt"})", "1s",
                                        R"("flows": [{"id": "a", "rtt": "20ms", "txqueuelen": 25}])"));
  run::Experiment exp(s);
  CHECK(exp.link("a.access_src").config().buffer.packets == 25);
  CHECK(exp.link("a.access_dst").config().buffer.packets == 100000);
}

TEST_CASE("arrivals write their trace, and per-flow rows only when asked", "[scenario][arrivals]") {
  auto run_with = [](bool traces) {
    const auto s = scenario_from(dumbbell(R"({"rate": "100Mbps", "delay": "5ms", "buffer": "1000pkt"})", "5s",
                                          R"("sample_interval": "0.5s", "arrivals": [{"id": "w", "rate": 20,
                                              "rtt": "40ms", "traces": )" +
                                              std::string(traces ? "true" : "false") +
                                              R"(, "size": {"distribution": "fixed", "mean": "1MB"}}])"));
    const auto dir = fastsim::testing::temp_dir(traces ? "arr-traces" : "arr-notraces");
    run::Experiment exp(s);
    run::RunOptions o;
    o.out_dir = dir.string();
    exp.run(o);
    auto files = fastsim::testing::run_outputs(dir, {});
    std::filesystem::remove_all(dir);
    return files;
  };
  const auto with = run_with(true);
  const auto without = run_with(false);
  REQUIRE(with.count("arrivals/w.csv"));
  REQUIRE(with.count("arrivals/w-flows.csv"));
  CHECK_FALSE(without.count("arrivals/w-flows.csv"));
  CHECK(with.at("arrivals/w.csv") == without.at("arrivals/w.csv"));
  // 10 periods of the process trace; per-flow rows name the flows "w#n".
  const std::string& trace = with.at("arrivals/w.csv");
  CHECK(std::count(trace.begin(), trace.end(), '\n') == 11);
  CHECK(with.at("arrivals/w-flows.csv").find(",w#") != std::string::npos);
  const auto summary = nlohmann::json::parse(with.at("summary.json"));
  CHECK(summary["arrivals"][0]["started"].get<uint64_t>() ==
        summary["arrivals"][0]["completed"].get<uint64_t>() + summary["arrivals"][0]["active_at_end"].get<uint64_t>());
  CHECK(summary["completed_flows"].size() == summary["arrivals"][0]["completed"].get<uint64_t>());
}

TEST_CASE("delay-based senders slow-start back after a timeout", "[scenario][udp]") {
  // A 1-s line-rate UDP burst wipes out the window and forces retransmission timeouts;
  // afterwards the flow must refill the 50 Mb/s link (Reno's slow start while the
  // timed-out window is repaired), not crawl at one packet per round trip.
  const std::string algorithm = GENERATE("vegas", "quick-vegas", "fast");
  const auto s = scenario_from(dumbbell(
      R"({"rate": "50Mbps", "delay": "5ms", "buffer": "400pkt"})", "30s",
      R"("defaults": {"sack": true}, "flows": [{"id": "t", "algorithm": ")" + algorithm + R"(", "rtt": "100ms"}],
                                            "udp": [{"id": "hole", "type": "burst", "start": "5s", "stop": "6s",
                                                     "rtt": "100ms"}])"));
  run::Experiment exp(s);
  const auto& r = exp.run();
  INFO(algorithm << ": " << r.flows[0].timeouts << " timeouts");
  CHECK(r.flows[0].timeouts >= 1);
  const double after = mean_of(r.flows[0].goodput_samples_bps, 20, 30);
  CHECK(after > 0.8 * 50e6 * 1460 / 1500);
}

TEST_CASE("udp/<id>.csv sums an entry's replicas: counts and the delivered rate", "[scenario][udp][traces]") {
  const auto s = scenario_from(dumbbell(R"({"rate": "100Mbps", "delay": "5ms", "buffer": "1000pkt"})", "5s",
                                        R"("sample_interval": "1s", "flows": [],
                                           "udp": [{"id": "cbr", "count": 2, "rtt": "20ms", "rate": "10Mbps",
                                                    "packet_size": 1000, "start": "1s"}])"));
  const auto dir = fastsim::testing::temp_dir("udp-trace");
  run::Experiment exp(s);
  const auto& r = exp.run({dir.string(), {}});
  REQUIRE(r.udp.size() == 2);
  REQUIRE_FALSE(std::filesystem::exists(dir / "udp" / "cbr-0.csv"));
  const std::string text = fastsim::testing::read_file(dir / "udp" / "cbr.csv");
  std::istringstream lines(text);
  std::string header;
  std::getline(lines, header);
  CHECK(header == "time_s,packets_sent,packets_delivered,drops,delivered_bps");
  std::vector<std::vector<double>> rows;
  for (std::string line; std::getline(lines, line);) {
    std::vector<double> row;
    std::istringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');)
      row.push_back(std::stod(cell));
    rows.push_back(row);
  }
  REQUIRE(rows.size() == 5);
  CHECK(rows[0][1] == 2);  // each replica's first packet leaves at 1 s, the end of the first period
  CHECK(rows[0][2] == 0);
  // Two sources of 1250 packets per second each: 2500 sent per second from 1 s.
  CHECK(rows.back()[1] == static_cast<double>(r.udp[0].packets_sent + r.udp[1].packets_sent));
  CHECK(rows.back()[2] == static_cast<double>(r.udp[0].packets_delivered + r.udp[1].packets_delivered));
  CHECK(rows.back()[3] == 0);
  for (size_t k = 2; k < rows.size(); ++k)  // full periods after the first packets arrived
    CHECK(rows[k][4] == Approx(20e6).epsilon(1e-9));
  std::filesystem::remove_all(dir);
}
