// Scenario conveniences of explicit and shorthand topologies: buffers given as a
// fraction of a bandwidth-delay product (a round-trip time or a flow's base RTT,
// resolved to bytes and echoed), and duplex links (one entry, both directions).
#include <catch2/catch.hpp>

#include <algorithm>

#include <fmt/format.h>

#include "../support/helpers.hpp"

using namespace fastsim;
using fastsim::testing::check_conservation;
using fastsim::testing::scenario_from;
using nlohmann::json;

namespace {

/// The message of the ScenarioError parsing `text` throws ("no error" if none).
std::string parse_error(const std::string& text) {
  try {
    (void)scenario_from(text);
  } catch (const config::ScenarioError& e) {
    return e.what();
  }
  return "no error";
}

const config::LinkSpec& link_of(const config::Scenario& s, const std::string& id) {
  auto it = std::find_if(s.links.begin(), s.links.end(), [&](const config::LinkSpec& l) { return l.link.id == id; });
  REQUIRE(it != s.links.end());
  return *it;
}

// Seven nodes, three hosts on each side of a two-router core: 6 duplex entries instead
// of 12 one-way links. The core's buffer is half the BDP of flow "far" (its base RTT).
const char* kSeven = R"({
  "name": "seven", "duration": "10s", "seed": 2,
  "topology": {
    "nodes": ["h1", "h2", "h3", "r1", "r2", "h4", "h5"],
    "links": [
      {"id": "h1-r1", "from": "h1", "to": "r1", "rate": "1Gbps", "delay": "1ms", "buffer": "1000pkt", "duplex": true},
      {"id": "h2-r1", "from": "h2", "to": "r1", "rate": "1Gbps", "delay": "3ms", "buffer": "1000pkt", "duplex": true},
      {"id": "h3-r1", "from": "h3", "to": "r1", "rate": "1Gbps", "delay": "5ms", "buffer": "1000pkt", "duplex": true},
      {"id": "core", "from": "r1", "to": "r2", "rate": "20Mbps", "delay": "10ms",
       "buffer": {"bdp_fraction": 0.5, "of": "far"}, "loss_rate": 0.001, "duplex": true},
      {"id": "r2-h4", "from": "r2", "to": "h4", "rate": "1Gbps", "delay": "2ms", "buffer": "1000pkt", "duplex": true},
      {"id": "r2-h5", "from": "r2", "to": "h5", "rate": "1Gbps", "delay": "4ms", "buffer": "1000pkt", "duplex": true}],
    "bottleneck": "core"},
  "flows": [{"id": "near", "src": "h1", "dst": "h4"},
            {"id": "far", "src": "h3", "dst": "h5"},
            {"id": "back", "src": "h5", "dst": "h2"}]
})";

}  // namespace

TEST_CASE("a duplex link declares both directions; routes use either", "[scenario][topology]") {
  const auto s = scenario_from(kSeven);
  CHECK(s.links.size() == 12);
  const auto& core = link_of(s, "core");
  const auto& rev = link_of(s, "core_rev");
  CHECK(rev.from == "r2");
  CHECK(rev.to == "r1");
  CHECK(rev.link.rate.bps == core.link.rate.bps);
  CHECK(rev.link.delay == core.link.delay);
  CHECK(core.link.loss_rate == 0.001);
  CHECK(rev.link.loss_rate == 0);  // random loss on the declared direction only
  // "back" (h5 -> h2) runs against the declared directions: its data crosses the _rev
  // links, its ACKs the declared ones.
  REQUIRE(s.flows.size() == 3);
  CHECK(s.flows[2].route == std::vector<std::string>{"h5", "r2", "r1", "h2"});
  std::vector<std::string> data, acks;
  for (size_t li : s.flows[2].data_links)
    data.push_back(s.links[li].link.id);
  for (size_t li : s.flows[2].ack_links)
    acks.push_back(s.links[li].link.id);
  CHECK(data == std::vector<std::string>{"r2-h5_rev", "core_rev", "h2-r1_rev"});
  CHECK(acks == std::vector<std::string>{"h2-r1", "core", "r2-h5"});
  run::Experiment exp(s);
  const auto& r = exp.run();
  // Alone on core_rev (20 Mb/s): near its line rate, less the slow start of a 10-s run and
  // its ACKs' random losses (0.1 %) and queueing on core (measured 16.8 Mb/s, 86 %).
  INFO("back: " << r.flows[2].goodput_bps << " b/s");
  CHECK(r.flows[2].goodput_bps > 0.8 * 20e6 * 1460 / 1500);
  CHECK(exp.link("core_rev").counters().departures > 0);
  check_conservation(exp);
}

TEST_CASE("duplex: a reverse id that is taken is an error naming the path", "[scenario][topology][bad-input]") {
  json doc = json::parse(kSeven);
  doc["topology"]["links"][1]["id"] = "h1-r1_rev";
  CHECK_THAT(parse_error(doc.dump()), Catch::Contains("/topology/links/1/id: duplicate link id \"h1-r1_rev\""));
  doc = json::parse(kSeven);
  doc["topology"]["links"][0]["id"] = "x_rev";
  doc["topology"]["links"][1]["id"] = "x";
  CHECK_THAT(parse_error(doc.dump()), Catch::Contains("/topology/links/1/duplex: the reverse link of duplex link "
                                                      "\"x\" is named \"x_rev\", a duplicate link id"));
  doc = json::parse(kSeven);
  doc["topology"]["links"][0]["duplex"] = 1;
  CHECK_THAT(parse_error(doc.dump()), Catch::Contains("/topology/links/0/duplex: expected true or false"));
}

TEST_CASE("a bottleneck link with an error of its own is reported once, not also as missing",
          "[scenario][topology][bad-input]") {
  json doc = json::parse(kSeven);
  doc["topology"]["links"][3]["delay"] = -1;  // "core", the bottleneck
  std::string error = parse_error(doc.dump());
  CHECK_THAT(error, Catch::Contains("/topology/links/3/delay"));
  CHECK_THAT(error, !Catch::Contains("no link \"core\""));
  doc["topology"]["bottleneck"] = "croe";  // a name that is really missing is still reported
  error = parse_error(doc.dump());
  CHECK_THAT(error, Catch::Contains("/topology/bottleneck: no link \"croe\" in /topology/links"));
}

TEST_CASE("a buffer as a fraction of a flow's BDP: this link's rate x the flow's base RTT", "[scenario][topology]") {
  const auto s = scenario_from(kSeven);
  // far: h3 -> r1 -> r2 -> h5 and back: 2 x (5 + 10 + 4) ms = 38 ms of propagation;
  // 0.5 x 20 Mb/s x 38 ms / 8 = 47500 bytes, on both directions of the duplex core.
  CHECK(link_of(s, "core").link.buffer.bytes == 47500);
  CHECK(link_of(s, "core").link.buffer.packets == 0);
  CHECK(link_of(s, "core_rev").link.buffer.bytes == 47500);
  CHECK(link_of(s, "h1-r1").link.buffer.packets == 1000);
  // The resolved scenario (summary.json's "scenario") shows the bytes.
  CHECK(s.resolved["topology"]["links"][3]["buffer"] == 47500);
}

TEST_CASE("a buffer as a fraction of a round-trip time's BDP, on shorthand topologies", "[scenario][topology]") {
  // 0.25 x 100 Mb/s x 80 ms / 8 = 250000 bytes on the bottleneck and its reverse.
  const std::string text = fastsim::testing::dumbbell_json(
      "100Mbps", "5ms", "x", "5s", R"([{"id": "a", "rtt": "60ms"}, {"id": "b", "rtt": "100ms"}])");
  json doc = json::parse(text);
  doc["topology"]["dumbbell"]["bottleneck"]["buffer"] = {{"bdp_fraction", 0.25}, {"of", "80ms"}};
  auto s = config::parse_scenario(doc);
  CHECK(link_of(s, "bottleneck").link.buffer.bytes == 250000);
  CHECK(link_of(s, "bottleneck_rev").link.buffer.bytes == 250000);
  CHECK(s.resolved["topology"]["dumbbell"]["bottleneck"]["buffer"] == 250000);
  // A flow's base RTT on a dumbbell is its rtt: 1 x 100 Mb/s x 100 ms = 1.25 MB.
  doc["topology"]["dumbbell"]["bottleneck"]["buffer"] = {{"bdp_fraction", 1}, {"of", "b"}};
  s = config::parse_scenario(doc);
  CHECK(link_of(s, "bottleneck").link.buffer.bytes == 1250000);
  // Access links are per flow: a round-trip time, not a flow.
  doc["topology"]["dumbbell"]["access"]["buffer"] = {{"bdp_fraction", 1}, {"of", "2ms"}};
  s = config::parse_scenario(doc);
  CHECK(link_of(s, "a.access_src").link.buffer.bytes == 2500000);  // 10 Gb/s x 2 ms / 8
  CHECK(link_of(s, "b.access_dst_rev").link.buffer.bytes == 2500000);
  CHECK(s.resolved["topology"]["dumbbell"]["access"]["buffer"] == 2500000);
}

TEST_CASE("BDP buffers: errors name the path and the allowed values", "[scenario][topology][bad-input]") {
  json doc = json::parse(kSeven);
  auto error_with = [&](const json& buffer, size_t link = 3) {
    json d = doc;
    d["topology"]["links"][link]["buffer"] = buffer;
    return parse_error(d.dump());
  };
  CHECK_THAT(error_with({{"bdp_fraction", 0.5}, {"of", "nobody"}}),
             Catch::Contains("/topology/links/3/buffer/of: no flow \"nobody\": expected a round-trip time like "
                             "\"80ms\" or one of the flows: near, far, back"));
  CHECK_THAT(error_with({{"bdp_fraction", 0}, {"of", "far"}}),
             Catch::Contains("/topology/links/3/buffer/bdp_fraction: expected a number > 0"));
  CHECK_THAT(error_with({{"bdp_fraction", 0.5}}), Catch::Contains("/topology/links/3/buffer/of: missing"));
  CHECK_THAT(error_with({{"bdp_fraction", 0.5}, {"of", "far"}, {"unit", "pkt"}}),
             Catch::Contains("/topology/links/3/buffer/unit: unknown key"));
  CHECK_THAT(error_with({{"bdp_fraction", 0.5}, {"of", "a b"}}),
             Catch::Contains("/topology/links/3/buffer/of: expected the id of a flow in /flows or a round-trip time"));
  CHECK_THAT(error_with({{"bdp_fraction", 1e-9}, {"of", "1ms"}}),
             Catch::Contains("/topology/links/3/buffer/of: 1e-09 x BDP (20Mbps x 1ms) is 0 bytes"));
  json d =
      json::parse(fastsim::testing::dumbbell_json("100Mbps", "5ms", "100pkt", "5s", R"([{"id": "a", "rtt": "60ms"}])"));
  d["topology"]["dumbbell"]["access"]["buffer"] = {{"bdp_fraction", 1}, {"of", "a"}};
  CHECK_THAT(parse_error(d.dump()),
             Catch::Contains("/topology/dumbbell/access/buffer/of: the access links of a dumbbell or parking lot are "
                             "one per flow: give a round-trip time"));
}

TEST_CASE("a buffer of bytes must hold one waiting packet of the largest size crossing its link",
          "[scenario][topology][bad-input]") {
  // Smaller, it drops every packet that has to wait (only the one being serialized passes):
  // a buffer of zero in effect, which is refused like "0pkt".
  json doc = json::parse(kSeven);
  auto with_buffer = [&](size_t link, const json& buffer) {
    json d = doc;
    d["topology"]["links"][link]["buffer"] = buffer;
    return parse_error(d.dump());
  };
  // h2-r1 is duplex: its reverse carries the data of "back" (h5 -> h2) into h2.
  CHECK_THAT(with_buffer(1, "1000B"),
             Catch::Contains("/topology/links/1/buffer: a buffer of 1000 bytes on link \"h2-r1_rev\" holds no waiting "
                             "packet of \"back\" (1500 bytes on the wire)"));
  CHECK_THAT(with_buffer(3, "1499B"), Catch::Contains("/topology/links/3/buffer: a buffer of 1499 bytes"));
  CHECK(with_buffer(3, "1500B") == "no error");
  CHECK(with_buffer(3, "2pkt") == "no error");
  // A link that carries only ACKs (40 bytes) needs room for one ACK.
  doc["topology"]["links"][1]["duplex"] = false;  // h2 -> r1: the ACKs of "back" only
  doc["topology"]["links"].push_back({{"id", "r1-h2"}, {"from", "r1"}, {"to", "h2"}, {"rate", "1Gbps"},
                                      {"delay", "3ms"}, {"buffer", "1000pkt"}});
  CHECK(with_buffer(1, "40B") == "no error");
  CHECK_THAT(with_buffer(1, "39B"), Catch::Contains("/topology/links/1/buffer: a buffer of 39 bytes on link "
                                                    "\"h2-r1\" holds no waiting packet of \"back\" (40 bytes"));
  // The shorthand topologies name the description the link was made from.
  json d =
      json::parse(fastsim::testing::dumbbell_json("100Mbps", "5ms", "100pkt", "5s", R"([{"id": "a", "rtt": "60ms"}])"));
  d["topology"]["dumbbell"]["access"]["buffer"] = "1KB";
  CHECK_THAT(parse_error(d.dump()), Catch::Contains("/topology/dumbbell/access/buffer: a buffer of 1000 bytes on link "
                                                    "\"a.access_src\" holds no waiting packet of \"a\""));
  d["topology"]["dumbbell"]["access"]["buffer"] = "100pkt";
  d["topology"]["dumbbell"]["bottleneck"]["buffer"] = {{"bdp_fraction", 1e-4}, {"of", "80ms"}};  // 100 bytes
  CHECK_THAT(parse_error(d.dump()), Catch::Contains("/topology/dumbbell/bottleneck/buffer: a buffer of 100 bytes"));
  const json lot = json::parse(R"({"duration": "5s",
      "topology": {"parking_lot": {"hops": [{"rate": "100Mbps", "delay": "5ms", "buffer": "100pkt"},
                                            {"rate": "100Mbps", "delay": "5ms", "buffer": "100B"}],
                                   "access": {"rate": "1Gbps", "buffer": "1000pkt"}}},
      "flows": [{"id": "f", "hops": [1, 2], "rtt": "100ms"}]})");
  CHECK_THAT(parse_error(lot.dump()), Catch::Contains("/topology/parking_lot/hops/1/buffer: a buffer of 100 bytes on "
                                                      "link \"hop2\""));
  json one_hop = lot;
  one_hop["topology"]["parking_lot"].erase("hops");
  one_hop["topology"]["parking_lot"]["hop"] = {{"rate", "100Mbps"}, {"delay", "5ms"}, {"buffer", "1KB"}};
  one_hop["topology"]["parking_lot"]["count"] = 2;
  CHECK_THAT(parse_error(one_hop.dump()), Catch::Contains("/topology/parking_lot/hop/buffer: a buffer of 1000 bytes"));
}

TEST_CASE("a route whose propagation delays pass the range of a time is refused, not wrapped",
          "[scenario][topology][bad-input]") {
  // 12 links of 1e6 s and a link back: 1.3e19 ps, past int64. The sum used to wrap around
  // (a buffer of 0.001 x that BDP came out at a negative round trip, or silently wrong).
  json chain = {{"duration", "5s"}, {"topology", {{"nodes", json::array()}, {"links", json::array()}}}};
  for (int i = 0; i <= 12; ++i)
    chain["topology"]["nodes"].push_back(fmt::format("n{}", i));
  for (int i = 0; i < 12; ++i) {
    chain["topology"]["links"].push_back({{"id", fmt::format("l{}", i)}, {"from", fmt::format("n{}", i)},
                                          {"to", fmt::format("n{}", i + 1)}, {"rate", "1Gbps"},
                                          {"delay", "1000000s"}, {"buffer", "100pkt"}});
  }
  chain["topology"]["links"].push_back({{"id", "back"}, {"from", "n12"}, {"to", "n0"}, {"rate", "1Gbps"},
                                        {"delay", "1000000s"}, {"buffer", "100pkt"}});
  chain["topology"]["links"][0]["buffer"] = {{"bdp_fraction", 0.001}, {"of", "f"}};
  chain["flows"] = {{{"id", "f"}, {"src", "n0"}, {"dst", "n12"}}};
  CHECK_THAT(parse_error(chain.dump()),
             Catch::Contains("/flows/0: the propagation delays of its route (12 links) and of its ACKs' (1) add up to "
                             "1.3e+07 s, longer than 1e+06 s"));
  // A parking lot of 64 hops of 1e6 s each.
  const json lot = json::parse(R"({"duration": "5s",
      "topology": {"parking_lot": {"hop": {"rate": "100Mbps", "delay": "1000000s", "buffer": "100pkt"}, "count": 64,
                                   "access": {"rate": "1Gbps", "buffer": "1000pkt"}}},
      "flows": [{"id": "f"}]})");
  CHECK_THAT(parse_error(lot.dump()),
             Catch::Contains("/flows/0/hops: the round trip over the hops crossed is 1.28e+08 s, longer than 1e+06 s"));
}
