// AQM disciplines in dumbbells against their published behaviour: CoDel holds a
// standing queue near its 5 ms target where drop-tail fills the buffer; FQ-CoDel isolates
// a TCP flow from a UDP flood and shares equally between RTTs of 20 and 200 ms where
// drop-tail favours the short RTT; PIE holds the queue delay near its 15 ms target.
// Queue delays are read from the link's mean queue (the same figure summary.json reports)
// over the periods after the warm-up.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "../support/helpers.hpp"

using namespace fastsim;
using fastsim::testing::scenario_from;

namespace {

std::string dumbbell(const std::string& rate, const std::string& bottleneck_extra, const std::string& flows,
                     const std::string& duration, const std::string& extra = "") {
  return R"({"name": "aqm", "seed": 1, "duration": ")" + duration + R"(", "sample_interval": "1s",
      "topology": {"dumbbell": {"bottleneck": {"rate": ")" +
         rate + R"(", "delay": "1ms", )" + bottleneck_extra + R"(},
        "access": {"rate": "1Gbps", "buffer": "100000pkt"}}},
      "defaults": {"stack": "linux", "sack": true}, "flows": )" +
         flows + extra + "}";
}

const run::LinkResult& bottleneck(const run::RunResult& r) {
  for (const auto& l : r.links) {
    if (l.id == "bottleneck")
      return l;
  }
  throw std::runtime_error("no bottleneck");
}

/// Mean of the per-period samples from period `from` on.
double mean_from(const std::vector<double>& v, size_t from) {
  double s = 0;
  for (size_t i = from; i < v.size(); ++i)
    s += v[i];
  return s / static_cast<double>(v.size() - from);
}

double jain(const std::vector<double>& x) {
  double s = 0, s2 = 0;
  for (double v : x) {
    s += v;
    s2 += v * v;
  }
  return s * s / (static_cast<double>(x.size()) * s2);
}

const char* kFourReno = R"([
    {"id": "a", "algorithm": "reno", "rtt": "40ms"}, {"id": "b", "algorithm": "reno", "rtt": "50ms"},
    {"id": "c", "algorithm": "reno", "rtt": "60ms"}, {"id": "d", "algorithm": "reno", "rtt": "70ms"}])";

/// Mean queueing delay (s) at a 100 Mb/s bottleneck from 10 s to 40 s, and its utilization.
std::pair<double, double> queue_delay_100m(const std::string& queue) {
  const auto s = scenario_from(dumbbell("100Mbps", R"("buffer": "2000pkt")" + queue, kFourReno, "40s"));
  run::Experiment exp(s);
  const auto& r = exp.run();
  const auto& l = bottleneck(r);
  const double pkt_s = 1500 * 8 / 100e6;
  return {mean_from(l.queue_samples, 10) * pkt_s, mean_from(l.utilization_samples, 10)};
}

}  // namespace

TEST_CASE("CoDel keeps the standing queue near its target where drop-tail fills the buffer", "[scenario][aqm]") {
  const auto [codel, codel_util] = queue_delay_100m(R"(, "queue": {"discipline": "codel"})");
  const auto [droptail, droptail_util] = queue_delay_100m("");
  INFO("CoDel: mean queueing delay " << codel * 1e3 << " ms, utilization " << codel_util << "; drop-tail "
                                     << droptail * 1e3 << " ms");
  // CoDel keeps the standing queue, the smallest sojourn of each 100-ms interval, at its 5-ms
  // target; the mean of the instantaneous queue sits near it (measured 3.0 ms; drop-tail 179).
  CHECK(codel > 0.001);
  CHECK(codel < 0.0075);
  CHECK(codel_util > 0.9);
  CHECK(droptail > 0.1);  // a 2000-packet buffer is 240 ms
  CHECK(droptail_util > 0.9);
}

TEST_CASE("PIE holds the queue delay near its 15 ms target", "[scenario][aqm]") {
  const auto [pie, util] = queue_delay_100m(R"(, "queue": {"discipline": "pie"})");
  INFO("PIE: mean queueing delay " << pie * 1e3 << " ms, utilization " << util);
  // PIE's controller drives its estimate of the queue delay to the 15-ms target: the mean
  // within 25 % of it (measured 13.0 ms).
  CHECK(pie > 0.75 * 0.015);
  CHECK(pie < 1.25 * 0.015);
  CHECK(util > 0.9);
}

TEST_CASE("FQ-CoDel: a UDP flood at the line rate does not starve a TCP flow", "[scenario][aqm]") {
  const auto tcp_share = [](const std::string& queue) {
    const auto s = scenario_from(dumbbell("10Mbps", R"("buffer": "1000pkt")" + queue,
                                          R"([{"id": "tcp", "algorithm": "cubic", "rtt": "40ms"}])", "40s",
                                          R"(, "udp": [{"id": "flood", "type": "cbr", "rate": "10Mbps",
                                             "packet_size": 1500, "start": "5s", "rtt": "40ms"}])"));
    run::Experiment exp(s);
    const auto& r = exp.run();
    return mean_from(r.flows[0].goodput_samples_bps, 10) / 10e6;
  };
  const double fq = tcp_share(R"(, "queue": {"discipline": "fq_codel"})");
  CHECK(fq > 0.4);
  CHECK(fq < 0.55);
  CHECK(tcp_share("") < 0.3);  // drop-tail: the flood takes most of the buffer and the link
}

TEST_CASE("FQ-CoDel shares equally between RTTs of 20 and 200 ms; drop-tail does not", "[scenario][aqm]") {
  const auto shares = [](const std::string& queue) {
    const auto s = scenario_from(dumbbell("20Mbps", R"("buffer": "1000pkt")" + queue, R"([
        {"id": "short", "algorithm": "reno", "rtt": "20ms"}, {"id": "long", "algorithm": "reno", "rtt": "200ms"}])",
                                          "120s"));
    run::Experiment exp(s);
    const auto& r = exp.run();
    return std::vector<double>{mean_from(r.flows[0].goodput_samples_bps, 30),
                               mean_from(r.flows[1].goodput_samples_bps, 30)};
  };
  const auto fq = shares(R"(, "queue": {"discipline": "fq_codel"})");
  const auto dt = shares("");
  CHECK(jain(fq) > 0.95);
  CHECK((fq[0] + fq[1]) / 20e6 > 0.9);
  CHECK(jain(dt) < 0.9);
}

TEST_CASE("the queue key: defaults per discipline and errors that name the path and the allowed values",
          "[scenario][aqm][config]") {
  const auto parse = [](const std::string& queue) {
    return scenario_from(
        dumbbell("10Mbps", R"("buffer": "100pkt", "queue": )" + queue, R"([{"id": "a", "rtt": "20ms"}])", "1s"));
  };
  const auto error_of = [&](const std::string& queue) {
    try {
      (void)parse(queue);
    } catch (const config::ScenarioError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const auto aqm_of = [](const config::Scenario& s) {
    for (const auto& l : s.links) {
      if (l.link.id == "bottleneck")
        return *l.link.aqm;
    }
    throw std::runtime_error("no bottleneck");
  };
  const auto codel = aqm_of(parse(R"({"discipline": "codel"})"));
  CHECK(codel.kind == net::AqmKind::kCodel);
  CHECK(codel.target == Duration::milliseconds(5));
  CHECK(codel.interval == Duration::milliseconds(100));
  const auto fq = aqm_of(parse(R"({"discipline": "fq_codel", "quantum": 300, "target": "2ms"})"));
  CHECK(fq.flows == 1024);
  CHECK(fq.quantum == 300);
  CHECK(fq.target == Duration::milliseconds(2));
  const auto pie = aqm_of(parse(R"({"discipline": "pie", "alpha": 0.25})"));
  CHECK(pie.target == Duration::milliseconds(15));
  CHECK(pie.tupdate == Duration::milliseconds(15));
  CHECK(pie.max_burst == Duration::milliseconds(150));
  CHECK(pie.alpha == 0.25);
  CHECK(pie.beta == 1.25);

  using Catch::Matchers::Contains;
  CHECK_THAT(error_of(R"({"discipline": "sfq"})"),
             Contains("/topology/dumbbell/bottleneck/queue/discipline") && Contains("\"fq_codel\""));
  CHECK_THAT(error_of(R"({})"), Contains("/topology/dumbbell/bottleneck/queue/discipline: missing required key"));
  CHECK_THAT(error_of(R"({"discipline": "codel", "alpha": 1})"),
             Contains("/topology/dumbbell/bottleneck/queue/alpha") && Contains("target, interval, mtu"));
  CHECK_THAT(error_of(R"({"discipline": "pie", "target": "-5ms"})"),
             Contains("/topology/dumbbell/bottleneck/queue/target"));
  CHECK_THAT(error_of(R"({"discipline": "fq_codel", "flows": 0})"),
             Contains("/topology/dumbbell/bottleneck/queue/flows"));
  CHECK_THAT(error_of(R"({"discipline": "codel", "intervall": "1s"})"),
             Contains("/topology/dumbbell/bottleneck/queue/intervall"));
  CHECK_THAT(error_of(R"("codel")"), Contains("/topology/dumbbell/bottleneck/queue"));
  CHECK_THAT(error_of(R"({"discipline": "codel"}, "red": {"min_th": 5, "max_th": 15})"),
             Contains("/topology/dumbbell/bottleneck/queue") && Contains("give only one of queue, red, dummynet"));
}

TEST_CASE("an AQM link's trace and summary entry carry the discipline's counters, deterministically",
          "[scenario][aqm]") {
  const auto s = scenario_from(dumbbell("20Mbps", R"("buffer": "200pkt", "queue": {"discipline": "pie"})", R"([
      {"id": "a", "algorithm": "reno", "rtt": "20ms"}, {"id": "b", "algorithm": "reno", "rtt": "80ms"}])",
                                        "20s"));
  std::map<std::string, std::string> first;
  for (int rep = 0; rep < 2; ++rep) {
    const auto dir = fastsim::testing::temp_dir("aqm-out-" + std::to_string(rep));
    run::Experiment exp(s);
    run::RunOptions opt;
    opt.out_dir = dir.string();
    (void)exp.run(opt);
    fastsim::testing::check_conservation(exp);  // packets in the discipline, serializing, on the wire
    auto files = fastsim::testing::run_outputs(dir, {"wall_time_s", "peak_rss_mb"});
    const std::string& trace = files.at("links/bottleneck.csv");
    CHECK(trace.rfind("time_s,queue_pkts,queue_bytes,drops,utilization,mean_queue_pkts,aqm_drops,sojourn_s,drop_prob\n", 0) == 0);
    const auto summary = nlohmann::json::parse(files.at("summary.json"));
    bool seen = false;
    for (const auto& l : summary.at("links")) {
      if (l.at("id") == "bottleneck") {
        seen = true;
        CHECK(l.at("aqm").at("discipline") == "pie");
        CHECK(l.at("aqm").at("aqm_drops").get<uint64_t>() > 0);
        CHECK(l.at("aqm").at("aqm_drops").get<uint64_t>() + l.at("aqm").at("overflow_drops").get<uint64_t>() ==
              l.at("drops").get<uint64_t>());
        CHECK(l.at("aqm").at("mean_sojourn_s").get<double>() > 0.001);
      } else {
        CHECK(!l.contains("aqm"));
      }
    }
    CHECK(seen);
    if (rep == 0)
      first = files;
    else
      CHECK(first == files);
    std::filesystem::remove_all(dir);
  }
}
