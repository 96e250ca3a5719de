// The TCP settings table (tcp/tcp_settings.hpp) against the parser: every setting is a
// key of "defaults" and of a flow, echoed in the resolved scenario (unless unlimited),
// and one shared duplicate-id message for flows, UDP sources and arrivals.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "../support/helpers.hpp"
#include "fastsim/tcp/stack_profile.hpp"
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
  table.insert("stack");            // the profile the defaults resolve under
  CHECK(echoed == table);
  CHECK(s.resolved["defaults"]["stack"] == "linux");
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

TEST_CASE("stack profiles: explicit settings beat every profile, a flow's own beat the defaults'",
          "[scenario][config][stack]") {
  // defaults: stack rfc plus an explicit initial_window; flow b names ns2, flow c gives its own
  // min_rto, flow d names linux and its own initial_window.
  const auto s = scenario_from(dumbbell_json("10Mbps", "5ms", "100pkt", "5s",
                                             R"([{"id": "a", "rtt": "40ms", "algorithm": "vegas"},
                                                 {"id": "b", "rtt": "40ms", "algorithm": "vegas", "stack": "ns2"},
                                                 {"id": "c", "rtt": "40ms", "min_rto": "1s"},
                                                 {"id": "d", "rtt": "40ms", "stack": "linux", "initial_window": 3}])",
                                             R"({"stack": "rfc", "initial_window": 4})"));
  REQUIRE(s.flows.size() == 4);
  const tcp::TcpConfig rfc = tcp::stack_config(tcp::Stack::kRfc);
  const tcp::TcpConfig& a = s.flows[0].tcp;
  CHECK(a.sack == rfc.sack);
  CHECK(a.initial_window == 4);  // defaults explicit > defaults stack
  const tcp::TcpConfig& b = s.flows[1].tcp;
  CHECK(b.initial_window == 4);  // defaults explicit > the flow's stack (ns2 has 2)
  CHECK_FALSE(b.delayed_ack);    // the flow's stack where nothing was given
  CHECK(b.rto_granularity == Duration::milliseconds(10));
  CHECK(b.initial_rto == Duration::seconds_int(3));
  const tcp::TcpConfig& c = s.flows[2].tcp;
  CHECK(c.min_rto == Duration::seconds_int(1));  // flow explicit
  CHECK(c.max_rto == rfc.max_rto);               // the defaults' stack
  const tcp::TcpConfig& d = s.flows[3].tcp;
  CHECK(d.initial_window == 3);  // flow explicit > defaults explicit
  CHECK(d.sack);                 // linux
  CHECK(d.max_rto == Duration::seconds_int(120));
  // Algorithm parameters not given take the flow's stack default (ns-2 Vegas: alpha 1, beta 3).
  CHECK(s.flows[0].params.get("alpha") == 2);
  CHECK(s.flows[1].params.get("alpha") == 1);
  CHECK(s.flows[1].params.get("beta") == 3);
  CHECK(s.resolved["flows"][1]["params"]["alpha"] == 1.0);
  // The echo names each flow's stack and the defaults resolved under theirs.
  CHECK(s.resolved["flows"][0]["stack"] == "rfc");
  CHECK(s.resolved["flows"][1]["stack"] == "ns2");
  CHECK(s.resolved["defaults"]["stack"] == "rfc");
  CHECK(s.resolved["defaults"]["initial_window"] == 4.0);
}

TEST_CASE("an arrival process takes its own stack under the defaults' explicit settings", "[scenario][config][stack]") {
  std::string text = dumbbell_json("10Mbps", "5ms", "100pkt", "5s", R"([{"id": "a", "rtt": "40ms"}])",
                                   R"({"stack": "rfc", "min_rto": "300ms"})");
  text.insert(text.size() - 1, R"(, "arrivals": [{"id": "x", "rtt": "40ms", "rate": 1, "stack": "ns2",
      "algorithm": "vegas", "size": {"distribution": "fixed", "mean": 1000}}])");
  const auto s = scenario_from(text);
  REQUIRE(s.arrivals.size() == 1);
  REQUIRE_FALSE(s.arrivals[0].paths.empty());
  const tcp::TcpConfig& c = s.arrivals[0].paths[0].tcp;
  CHECK(c.initial_window == 2);                     // its own stack
  CHECK(c.min_rto == Duration::milliseconds(300));  // the defaults' explicit setting
  CHECK(s.arrivals[0].paths[0].params.get("alpha") == 1);
}

TEST_CASE("without a stack a scenario runs the linux profile", "[scenario][config][stack]") {
  const auto s = scenario_from(dumbbell_json("10Mbps", "5ms", "100pkt", "5s", R"([{"id": "a", "rtt": "40ms"}])"));
  REQUIRE(s.flows.size() == 1);
  CHECK(s.flows[0].tcp.sack);
  CHECK(s.flows[0].tcp.max_rto == Duration::seconds_int(120));
  CHECK(s.resolved["defaults"]["stack"] == "linux");
  CHECK(s.resolved["flows"][0]["stack"] == "linux");
}

TEST_CASE("an unknown stack is refused with its path and the allowed names", "[scenario][config][stack][bad-input]") {
  const auto message_of = [](const std::string& text) {
    try {
      scenario_from(text);
    } catch (const config::ScenarioError& e) {
      return std::string(e.what());
    }
    return std::string("parsed");
  };
  const std::string kAllowed = R"(expected one of "rfc", "linux", "ns2", got "bsd")";
  CHECK(message_of(dumbbell_json("10Mbps", "5ms", "100pkt", "5s", R"([{"id": "a", "rtt": "40ms"}])",
                                 R"({"stack": "bsd"})")) == "/defaults/stack: " + kAllowed);
  CHECK(message_of(dumbbell_json("10Mbps", "5ms", "100pkt", "5s", R"([{"id": "a", "rtt": "40ms", "stack": "bsd"}])")) ==
        "/flows/0/stack: " + kAllowed);
  // A profile's values are checked against the settings given with it: ns2's 3 s initial RTO
  // exceeds a max_rto of 2 s.
  CHECK(message_of(dumbbell_json("10Mbps", "5ms", "100pkt", "5s",
                                 R"([{"id": "a", "rtt": "40ms", "stack": "ns2", "max_rto": "2s"}])")) ==
        "/flows/0/initial_rto: initial_rto (3s) must not exceed max_rto (2s) (stack ns2)");
  // rto_granularity may be 0 (off) but not negative.
  CHECK(message_of(dumbbell_json("10Mbps", "5ms", "100pkt", "5s", R"([{"id": "a", "rtt": "40ms"}])",
                                 R"({"rto_granularity": "0s"})")) == "parsed");
}
