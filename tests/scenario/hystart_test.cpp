// CUBIC's HyStart (Linux tcp_cubic.c) on a clean path: one CUBIC flow, no competing
// traffic, a buffer of 2 BDP. With hystart = "linux" slow start ends before the first
// loss with ssthresh near the BDP; with it off slow start runs until the buffer
// overflows.
#include <catch2/catch.hpp>

#include <string>

#include "../support/helpers.hpp"
#include "fastsim/cc/cubic.hpp"

using namespace fastsim;
using fastsim::testing::scenario_from;

namespace {

struct SlowStartEnd {
  double time_s = -1;   ///< when ssthresh first became finite (-1: never within the run)
  double ssthresh = 0;  ///< its value then
  uint64_t drops = 0;   ///< bottleneck drops by then
  uint64_t retransmits = 0;
  uint64_t total_drops = 0;  ///< over the whole run
};

/// 100 Mb/s, RTT 100 ms: BDP = 100e6 * 0.1 / 12000 = 833 packets of 1500 bytes.
SlowStartEnd slow_start_end(const std::string& hystart) {
  const auto s = scenario_from(R"({"name": "hystart", "seed": 1, "duration": "8s", "topology": {"dumbbell": {
      "bottleneck": {"rate": "100Mbps", "delay": "48ms", "buffer": "1667pkt"},
      "access": {"rate": "1Gbps", "buffer": "100000pkt"}}},
      "defaults": {"sack": true, "delayed_ack": true, "initial_window": 10},
      "flows": [{"id": "a", "algorithm": "cubic", "params": {"hystart": ")" +
                               hystart + R"("}, "rtt": "100ms"}]})");
  run::Experiment exp(s);
  SlowStartEnd out;
  for (double t = 0.001; t <= 8; t += 0.001) {
    exp.run_until(Time::at(Duration::seconds(t)));
    const auto& w = exp.flow(0).sender->window();
    if (!cc::is_infinite_ssthresh(w.ssthresh_pkts)) {
      out.time_s = t;
      out.ssthresh = w.ssthresh_pkts;
      out.drops = exp.link("bottleneck").counters().drops;
      out.retransmits = exp.flow(0).sender->counters().retransmits;
      break;
    }
  }
  out.total_drops = exp.run().links[0].drops;
  return out;
}

}  // namespace

TEST_CASE("CUBIC with HyStart leaves slow start before the first loss with ssthresh near the BDP",
          "[scenario][cubic][hystart]") {
  const double bdp = 100e6 * 0.1 / 12000;
  const SlowStartEnd on = slow_start_end("linux");
  const SlowStartEnd off = slow_start_end("off");
  WARN("hystart linux: slow start ends at " << on.time_s << " s, ssthresh " << on.ssthresh << " (" << on.ssthresh / bdp
                                            << " BDP), drops by then " << on.drops << ", in the run " << on.total_drops
                                            << "; off: at " << off.time_s << " s, ssthresh " << off.ssthresh
                                            << ", drops by then " << off.drops);
  REQUIRE(on.time_s > 0);
  CHECK(on.drops == 0);
  CHECK(on.retransmits == 0);
  // The ACK train fires once a round's ACKs have lasted delay_min / 2: the window then
  // holds the previous round's flight (> BDP/2) plus the BDP/2 packets acked since,
  // between 1 and 1.5 BDP; the delay test fires only on a standing queue (> BDP).
  CHECK(on.ssthresh >= 0.95 * bdp);
  CHECK(on.ssthresh <= 1.55 * bdp);
  // Without HyStart slow start ends only with the buffer overflow (fast retransmit).
  REQUIRE(off.time_s > 0);
  CHECK(off.drops > 0);
  CHECK(off.retransmits > 0);
}
