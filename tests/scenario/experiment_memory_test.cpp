// What a run keeps in memory (issue 18): an experiment that owns its scenario releases
// the specs only the build reads, and the packet traces and the prediction, set up from
// them, are the same as those of an experiment that borrows an intact scenario; the run's
// link results are the monitored links and the bottleneck only; counted flows share their
// parameter table and connections their TCP settings.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "../support/helpers.hpp"
#include "fastsim/traffic/tcp_connection.hpp"

namespace fs = std::filesystem;
using namespace fastsim;
using fastsim::testing::read_file;
using fastsim::testing::scenario_from;

namespace {

// Two Reno flows through a 10 Mb/s bottleneck with random loss (a predicted equilibrium),
// every kind of packet trace, and one access link monitored.
const std::string kScenario = R"({"name": "mem", "seed": 7, "duration": "3s", "sample_interval": "0.5s",
    "topology": {"dumbbell": {"bottleneck": {"rate": "10Mbps", "delay": "5ms", "buffer": "20pkt", "loss_rate": 0.002},
                              "access": {"rate": "100Mbps", "buffer": "1000pkt"}}},
    "flows": [{"id": "a", "rtt": "20ms"}, {"id": "b", "rtt": "40ms", "start": "0.5s"}],
    "monitor": ["a.access_src"],
    "output": {"packet_trace": {"flows": ["a", "b"], "links": ["b.access_dst", "bottleneck"],
                                "pcap": ["bottleneck", "a.access_src_rev"]}}})";

}  // namespace

TEST_CASE("an experiment owning its scenario releases the build's specs; traces and prediction are unchanged",
          "[memory][packet_trace][predict]") {
  const config::Scenario borrowed = scenario_from(kScenario);
  const fs::path dir = fastsim::testing::temp_dir("experiment-memory");
  run::RunOptions options;
  options.predict = true;
  options.out_dir = (dir / "borrowed").string();
  {
    run::Experiment exp(borrowed);
    exp.run(options);
  }
  options.out_dir = (dir / "owned").string();
  run::Experiment exp(scenario_from(kScenario));
  exp.run(options);

  // Released: the link specs, the node list and the flows' routes; the borrowed one is intact.
  CHECK(exp.scenario().links.empty());
  CHECK(exp.scenario().nodes.empty());
  REQUIRE(exp.scenario().flows.size() == 2);
  CHECK(exp.scenario().flows[0].route.empty());
  CHECK(exp.scenario().flows[0].data_links.empty());
  CHECK(exp.scenario().flows[0].ack_links.empty());
  CHECK(exp.scenario().flows[0].id == "a");
  CHECK(borrowed.links.size() == 10);
  CHECK(borrowed.flows[0].data_links.size() == 3);

  const std::vector<std::string> machine = {"wall_time_s", "peak_rss_mb"};
  const auto a = fastsim::testing::run_outputs(dir / "borrowed", machine);
  const auto b = fastsim::testing::run_outputs(dir / "owned", machine);
  for (const char* traced : {"packet_trace.bin", "links/bottleneck.pcap", "links/a.access_src_rev.pcap"}) {
    INFO(traced);
    REQUIRE(a.contains(traced));
    CHECK(!a.at(traced).empty());
  }
  // The prediction holds numbers computed from the links (rates, delays, loss).
  const auto summary = nlohmann::json::parse(read_file(dir / "owned" / "summary.json"));
  REQUIRE(summary.contains("prediction"));
  bool predicted = false;
  for (const auto& interval : summary["prediction"]["intervals"]) {
    for (const auto& f : interval["flows"])
      predicted = predicted || f["predicted_goodput_bps"].is_number();
  }
  CHECK(predicted);
  CHECK(a.size() == b.size());
  for (const auto& [name, text] : a) {
    INFO(name);
    REQUIRE(b.contains(name));
    CHECK(b.at(name) == text);
  }
  fs::remove_all(dir);
}

TEST_CASE("the run's link results are the monitored links and the bottleneck", "[memory]") {
  const config::Scenario s = scenario_from(kScenario);
  run::Experiment exp(s);
  const auto& r = exp.run();
  std::vector<std::string> ids;
  for (const auto& l : r.links)
    ids.push_back(l.id);
  CHECK(ids == std::vector<std::string>{"bottleneck", "a.access_src"});  // scenario order
  CHECK(r.links[1].monitored);
  CHECK(!r.links[1].queue_samples.empty());
  // Another link's totals come from the link itself.
  const run::LinkResult down = run::link_result(exp.link("a.access_dst"), nullptr, r.sim_time_s);
  CHECK(down.id == "a.access_dst");
  CHECK(down.departures > 0);
}

TEST_CASE("the run's link results hold the bottleneck when it is not monitored", "[memory]") {
  // The intervals look the scenario's bottleneck up among the link results, monitored or not.
  const config::Scenario s = scenario_from(R"({"name": "mem", "seed": 1, "duration": "1s",
      "topology": {"dumbbell": {"bottleneck": {"rate": "10Mbps", "delay": "5ms", "buffer": "20pkt"},
                                "access": {"rate": "100Mbps", "buffer": "1000pkt"}}},
      "flows": [{"id": "a", "rtt": "20ms"}]})");
  REQUIRE(s.links[0].link.id == s.bottleneck);
  REQUIRE(s.links[0].monitor);
  config::Scenario unmonitored = s;
  unmonitored.links[0].monitor = false;
  run::Experiment exp(unmonitored);
  const auto& r = exp.run();
  REQUIRE(r.links.size() == 1);
  CHECK(r.links[0].id == s.bottleneck);
  CHECK(!r.links[0].monitored);
  CHECK(r.links[0].departures > 0);
}

TEST_CASE("the replicas of a counted flow share one parameter table until one is written", "[memory]") {
  const config::Scenario s = scenario_from(R"({"name": "mem", "seed": 1, "duration": "1s",
      "topology": {"dumbbell": {"bottleneck": {"rate": "10Mbps", "delay": "5ms", "buffer": "20pkt"},
                                "access": {"rate": "100Mbps", "buffer": "1000pkt"}}},
      "flows": [{"id": "v", "algorithm": "vegas", "params": {"alpha": 3}, "rtt": "20ms", "count": 3}]})");
  REQUIRE(s.flows.size() == 3);
  CHECK(s.flows[0].params.shares_table_with(s.flows[2].params));
  CHECK(s.flows[2].params.get("alpha") == 3);
  // Copy on write: the writer gets its own table, the others keep theirs.
  cc::ParamValues changed = s.flows[1].params;
  changed.set("alpha", 5);
  CHECK(changed.get("alpha") == 5);
  CHECK(s.flows[1].params.get("alpha") == 3);
  CHECK(!changed.shares_table_with(s.flows[1].params));
  CHECK(s.flows[1].params.shares_table_with(s.flows[0].params));
  CHECK_THROWS_AS(changed.get("no_such_parameter"), std::out_of_range);
  CHECK_THROWS_AS(cc::ParamValues().get("alpha"), std::out_of_range);
  CHECK(cc::ParamValues().empty());
  CHECK(!changed.empty());
}

TEST_CASE("a flow's sample series are sized once for the run's periods", "[memory]") {
  // 3 s sampled every 0.5 s: six periods; grown by doubling the series would hold eight.
  const config::Scenario s = scenario_from(kScenario);
  run::Experiment exp(s);
  const auto& r = exp.run();
  REQUIRE(r.flows.size() == 2);
  for (const auto& f : r.flows) {
    CHECK(f.goodput_samples_bps.size() == 6);
    CHECK(f.goodput_samples_bps.capacity() == 6);
    CHECK(f.cwnd_samples_pkts.capacity() == 6);
  }
}

TEST_CASE("connections with equal TCP settings share one copy of them", "[memory]") {
  // Three replicas with the defaults, one flow with SACK off: two distinct settings.
  const config::Scenario s = scenario_from(R"({"name": "mem", "seed": 1, "duration": "0.5s", "sample_interval": "0.1s",
      "defaults": {"sack": true},
      "topology": {"dumbbell": {"bottleneck": {"rate": "10Mbps", "delay": "5ms", "buffer": "20pkt"},
                                "access": {"rate": "100Mbps", "buffer": "1000pkt"}}},
      "flows": [{"id": "r", "rtt": "20ms", "count": 3}, {"id": "n", "rtt": "20ms", "sack": false}]})");
  run::Experiment exp(s);
  REQUIRE(exp.flow_count() == 4);
  const tcp::TcpConfig& first = exp.flow(0).sender->config();
  for (size_t i = 0; i < 3; ++i) {
    CHECK(&exp.flow(i).sender->config() == &first);
    CHECK(&exp.flow(i).receiver->config() == &first);
  }
  const tcp::TcpConfig& other = exp.flow(3).sender->config();
  CHECK(&other != &first);
  CHECK(&exp.flow(3).receiver->config() == &other);
  CHECK(first.sack);
  CHECK(!other.sack);
  CHECK(first == s.flows[0].tcp);
  CHECK(other == s.flows[3].tcp);
  exp.run();
  CHECK(exp.flow(3).sender->counters().segments_acked > 0);
}

TEST_CASE("the shared TCP settings look among the most recent few only", "[memory]") {
  traffic::SharedTcpConfigs configs;
  tcp::TcpConfig a;
  const auto first = configs.get(a);
  CHECK(configs.get(a) == first);  // found: the same copy
  for (uint32_t i = 0; i < 8; ++i) {
    tcp::TcpConfig other;
    other.dupack_threshold = 10 + i;
    CHECK(configs.get(other)->dupack_threshold == 10 + i);
  }
  CHECK(configs.size() == 9);
  // `a` is now nine entries back: beyond the search, so a new copy (equal, not the same).
  const auto again = configs.get(a);
  CHECK(again != first);
  CHECK(*again == *first);
  CHECK(configs.size() == 10);
}
