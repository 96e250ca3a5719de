// The network's links by id (issue 18, memory: a table in scenario order and an index
// sorted by id, with the ids stored once, in the links, instead of a map keyed by copies
// of them): every link of a scenario is found under its id, the ids come in scenario
// order, and an unknown id is an error that names it.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>
#include <vector>

#include "../support/helpers.hpp"

using namespace fastsim;
using fastsim::testing::scenario_from;

TEST_CASE("every link is found under its id, in scenario order; an unknown id names itself", "[network][memory]") {
  const config::Scenario s = scenario_from(R"({"name": "lookup", "duration": "1s",
      "topology": {"dumbbell": {"bottleneck": {"rate": "10Mbps", "delay": "5ms", "buffer": "20pkt"},
                                "access": {"rate": "100Mbps", "buffer": "1000pkt"}}},
      "flows": [{"id": "z", "rtt": "20ms"}, {"id": "a", "rtt": "40ms"}, {"id": "m", "count": 3, "rtt": "30ms"}]})");
  run::Experiment exp(s);
  const std::vector<std::string> ids = exp.link_ids();
  REQUIRE(ids.size() == s.links.size());
  REQUIRE(exp.network().links().size() == s.links.size());
  for (size_t i = 0; i < ids.size(); ++i) {
    INFO(ids[i]);
    CHECK(ids[i] == s.links[i].link.id);  // scenario order, not sorted
    CHECK(&exp.link(ids[i]) == exp.network().links()[i].get());
    CHECK(exp.link(ids[i]).id() == ids[i]);
  }
  CHECK(&exp.network().bottleneck() == &exp.link("bottleneck"));
  // The routes were built from the same table: a flow's first data hop is its NIC.
  CHECK(exp.flow(0).data_route.links.front() == &exp.link("z.access_src"));
  CHECK(exp.flow(4).ack_route.links.back() == &exp.link("m-2.access_src_rev"));

  for (const std::string bad : {"nope", "", "a.access", "z.access_src_rev_", "bottleneck_revx"}) {
    INFO(bad);
    try {
      (void)exp.link(bad);
      FAIL("no exception");
    } catch (const std::out_of_range& e) {
      CHECK(std::string(e.what()) == "no link with id \"" + bad + "\"");
    }
  }
}
