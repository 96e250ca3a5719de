// Bounded run cost, end to end: per-period link utilization lies in [0, 1] whatever the
// sample interval, and a UDP flood far above the bottleneck's rate keeps the packets
// alive bounded by the buffers and wires (issue 19).
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>

#include "../support/helpers.hpp"
#include "fastsim/run/experiment.hpp"

using namespace fastsim;
using fastsim::testing::dumbbell_json;
using fastsim::testing::scenario_from;

TEST_CASE("a 1 Mb/s link sampled every 1 ms never shows a utilization above 1", "[scenario][utilization]") {
  // A 1500-byte packet takes 12 ms at 1 Mb/s: counting it whole in the period where it
  // started used to report 12 for that period and 0 for the next eleven.
  auto s = scenario_from(dumbbell_json("1Mbps", "5ms", "50pkt", "3s", R"([{"id": "a", "rtt": "40ms"}])"));
  s.sample_interval = Duration::milliseconds(1);
  run::Experiment exp(s);
  const auto& r = exp.run();
  const auto it = std::find_if(r.links.begin(), r.links.end(), [](const auto& l) { return l.id == "bottleneck"; });
  REQUIRE(it != r.links.end());
  const auto& u = it->utilization_samples;
  REQUIRE(u.size() == 3000);
  CHECK(*std::max_element(u.begin(), u.end()) <= 1.0 + 1e-9);
  CHECK(*std::min_element(u.begin(), u.end()) >= 0.0);
  // The periods add up to the whole run's busy time.
  CHECK(std::accumulate(u.begin(), u.end(), 0.0) / 3000 == Approx(it->utilization).epsilon(1e-9));
  // After slow start the link is mostly saturated: most periods are fully busy.
  CHECK(std::count_if(u.begin() + 1000, u.end(), [](double x) { return x > 0.999; }) > 1500);
}

TEST_CASE("a UDP flood 1000 times the bottleneck's rate keeps packets bounded by buffers and wires",
          "[scenario][memory]") {
  // 10 Gb/s into 10 Mb/s with a 1000-packet buffer: nearly every packet is dropped at
  // the bottleneck, and used to keep its memory until the queue ahead had drained.
  const auto s = scenario_from(R"({"duration": "2s",
    "topology": {"dumbbell": {"bottleneck": {"rate": "10Mbps", "delay": "5ms", "buffer": "1000pkt"},
                              "access": {"rate": "10Gbps", "buffer": "1000pkt"}}},
    "udp": [{"id": "flood", "rate": "10Gbps", "rtt": "20ms"}]})");
  run::Experiment exp(s);
  exp.run();
  // Buffers (1000 + 1000) and wires (2.5 ms at 10 Gb/s ~ 2100 packets per access link)
  // on the path. The bottleneck holds its own buffer and wire (a 1024-slot ring) and the
  // drops still on its feeder's buffer and wire (< 4096); it used to hold a slot for
  // every packet that arrived while its queue drained (~1 million).
  CHECK(exp.pool().capacity() <= 4 * 4096);
  CHECK(exp.link("bottleneck").slot_capacity() <= 1024 + 4096);
  CHECK(exp.link("bottleneck").counters().drops > 1'500'000);
}
