// The TCP settings table (tcp/tcp_settings.hpp) against the parser: every setting is a
// key of "defaults" and of a flow, echoed in the resolved scenario (unless unlimited),
// and one shared duplicate-id message for flows, UDP sources and arrivals.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "../support/helpers.hpp"
#include "fastsim/tcp/tcp_settings.hpp"

using namespace fastsim;
using fastsim::testing::dumbbell_json;
using fastsim::testing::scenario_from;

TEST_CASE("every TCP setting of the table is read and echoed", "[scenario][config]") {
  const auto s = scenario_from(
      dumbbell_json("10Mbps", "5ms", "100pkt", "5s",
                    R"([{"id": "a", "rtt": "40ms", "mss": 1000, "receive_window": 64000, "initial_ssthresh": 50}])",
                    R"({"receive_window": "1MB", "sack": true, "min_rto": "1s"})"));
  std::set<std::string> echoed;
  for (const auto& [key, value] : s.resolved["defaults"].items())
    echoed.insert(key);
  std::set<std::string> table;
  for (const auto& setting : tcp::tcp_settings())
    table.insert(std::string(setting.name));
  table.erase("initial_ssthresh");  // infinite by default: not echoed
  CHECK(echoed == table);
  CHECK(s.resolved["defaults"]["receive_window"] == 1000000);
  CHECK(s.resolved["defaults"]["min_rto"] == "1s");
  REQUIRE(s.flows.size() == 1);
  const tcp::TcpConfig& c = s.flows[0].tcp;
  CHECK(c.receive_window == 64);  // bytes / the flow's mss
  CHECK(c.initial_ssthresh == 50);
  CHECK(c.sack);
  CHECK(c.min_rto == Duration::seconds_int(1));
}

TEST_CASE("flows, UDP sources and arrivals report a taken id alike", "[scenario][config]") {
  const std::string kMessage = "duplicate id \"x-1\" (flows, UDP sources and arrivals share one namespace)";
  const std::string flows = R"([{"id": "x", "rtt": "40ms", "count": 2}, {"id": "x-1", "rtt": "40ms"}])";
  const auto message_of = [](const std::string& text) {
    try {
      scenario_from(text);
    } catch (const config::ScenarioError& e) {
      return std::string(e.what());
    }
    return std::string("parsed");
  };
  CHECK(message_of(dumbbell_json("10Mbps", "5ms", "100pkt", "5s", flows)) == "/flows/1/id: " + kMessage);
  std::string udp = dumbbell_json("10Mbps", "5ms", "100pkt", "5s", R"([{"id": "x-1", "rtt": "40ms"}])");
  udp.insert(udp.size() - 1, R"(, "udp": [{"id": "x", "rtt": "40ms", "rate": "1Mbps", "count": 2}])");
  CHECK(message_of(udp) == "/udp/0/id: " + kMessage);
  std::string arrivals = dumbbell_json("10Mbps", "5ms", "100pkt", "5s", R"([{"id": "x-1", "rtt": "40ms"}])");
  arrivals.insert(arrivals.size() - 1, R"(, "arrivals": [{"id": "x-1", "rtt": "40ms", "rate": 1,
      "size": {"distribution": "fixed", "mean": 1000}}])");
  CHECK(message_of(arrivals) == "/arrivals/0/id: " + kMessage);
}
