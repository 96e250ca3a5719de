// An explicit topology: shortest-path and explicit routes, ACKs on their own return
// path, random loss on one link, conservation.
#include <catch2/catch.hpp>

#include "../support/helpers.hpp"

using namespace fastsim;
using fastsim::testing::check_conservation;
using fastsim::testing::scenario_from;

namespace {
const char* kDiamond = R"({
  "name": "diamond", "duration": "30s", "seed": 3,
  "topology": {
    "nodes": ["h1", "a", "b", "c", "h2"],
    "links": [
      {"id": "h1-a", "from": "h1", "to": "a", "rate": "1Gbps", "delay": "1ms", "buffer": "1000pkt"},
      {"id": "a-b", "from": "a", "to": "b", "rate": "20Mbps", "delay": "10ms", "buffer": "200pkt", "loss_rate": 0.0005},
      {"id": "b-h2", "from": "b", "to": "h2", "rate": "1Gbps", "delay": "1ms", "buffer": "1000pkt"},
      {"id": "a-c", "from": "a", "to": "c", "rate": "50Mbps", "delay": "2ms", "buffer": "200pkt"},
      {"id": "c-b", "from": "c", "to": "b", "rate": "50Mbps", "delay": "2ms", "buffer": "200pkt"},
      {"id": "h2-h1", "from": "h2", "to": "h1", "rate": "1Gbps", "delay": "30ms", "buffer": "1000pkt"}]},
  "defaults": {"sack": true},
  "flows": [{"id": "short", "src": "h1", "dst": "h2"},
            {"id": "detour", "src": "h1", "dst": "h2", "route": ["h1", "a", "c", "b", "h2"]}]
})";
}  // namespace

TEST_CASE("explicit topologies route by hop count or by the given route", "[scenario][topology]") {
  const auto s = scenario_from(kDiamond);
  REQUIRE(s.flows.size() == 2);
  CHECK(s.flows[0].route == std::vector<std::string>{"h1", "a", "b", "h2"});
  CHECK(s.flows[1].route == std::vector<std::string>{"h1", "a", "c", "b", "h2"});
  CHECK(s.bottleneck == "a-b");  // the slowest monitored link
  run::Experiment exp(s);
  const auto& r = exp.run();
  // the shortest-path flow shares the 20 Mb/s link with nobody and sees its random loss;
  // the detour flow crosses the two 50 Mb/s links and loses nothing at random
  CHECK(exp.flow(0).data_counters.random_losses > 0);
  CHECK(exp.flow(1).data_counters.random_losses == 0);
  CHECK(exp.link("h2-h1").counters().departures ==
        exp.flow(0).sender->counters().acks_received + exp.flow(1).sender->counters().acks_received);
  // RTT: 2 x 1 + 10 + 1 + 30 ms propagation = 42 ms for the short path, 36 ms for the detour
  CHECK(r.flows[0].min_rtt_s == Approx(0.042).margin(0.002));
  CHECK(r.flows[1].min_rtt_s == Approx(0.036).margin(0.002));
  CHECK(r.flows[1].goodput_bps > 0.8 * 50e6 * 1460 / 1500);
  check_conservation(exp);
}
