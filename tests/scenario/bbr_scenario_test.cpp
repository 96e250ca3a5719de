// BBR v1 (cc/bbr.hpp) on a dumbbell, against what its design promises and the published
// fairness results:
// - one flow: Startup's bandwidth estimate is the bottleneck rate (delivery-rate samples on
//   a saturated path), and Drain empties the queue Startup built (queue near 0 when
//   ProbeBW begins);
// - ProbeRTT, next to CUBIC (whose standing queue keeps RTprop from being refreshed): it
//   starts once RTprop is 10 s old and holds cwnd at 4 for at least 200 ms;
// - two BBR flows with RTTs 20 and 80 ms: the longer-RTT flow gets the larger share
//   (Hock, Bless, Zitterbart, "Experimental evaluation of BBR congestion control", ICNP
//   2017, and Ma et al., "Fairness of congestion-based congestion control", 2017: BBR's
//   in-flight cap of 2 BDP grows with the flow's own RTprop, so in a shared queue the
//   long-RTT flow keeps more data in flight);
// - BBR against CUBIC: in a deep buffer (8 BDP) CUBIC, which fills the buffer, takes the
//   larger share; in a shallow one (0.5 BDP) BBR does (Hock et al. 2017; Ware et al.,
//   "Modeling BBR's interactions with loss-based congestion control", IMC 2019).
#include <catch2/catch.hpp>

#include <string>

#include "../support/helpers.hpp"
#include "fastsim/cc/bbr.hpp"

using namespace fastsim;
using fastsim::testing::scenario_from;

namespace {

const cc::Bbr& bbr_of(run::Experiment& exp, size_t flow) {
  return dynamic_cast<const cc::Bbr&>(exp.flow(flow).sender->algorithm());
}

}  // namespace

TEST_CASE("BBR Startup measures the bottleneck rate and Drain empties its queue", "[scenario][bbr]") {
  // 20 Mb/s, RTT 40 ms: 1666.7 packets/s, BDP 66.7 packets; buffer 4 BDP (no loss in Startup).
  const auto s = scenario_from(R"({"name": "bbr-startup", "seed": 1, "duration": "5s", "topology": {"dumbbell": {
      "bottleneck": {"rate": "20Mbps", "delay": "10ms", "buffer": "267pkt"},
      "access": {"rate": "1Gbps", "buffer": "100000pkt"}}},
      "defaults": {"stack": "linux"},
      "flows": [{"id": "a", "algorithm": "bbr", "rtt": "40ms"}]})");
  run::Experiment exp(s);
  const double rate_pps = 20e6 / 12000;
  const double bdp = rate_pps * 0.04;
  uint64_t peak_queue = 0;
  double bw_at_drain = -1;
  double queue_at_probe_bw = -1;
  double min_queue_after = 1e9;  // over the RTT after ProbeBW begins
  double probe_bw_at = -1;
  for (double t = 0.0005; t <= 5 && (probe_bw_at < 0 || t < probe_bw_at + 0.04); t += 0.0005) {
    exp.run_until(Time::at(Duration::seconds(t)));
    const cc::Bbr& b = bbr_of(exp, 0);
    net::Link& bottleneck = exp.link("bottleneck");
    const auto queue = static_cast<double>(bottleneck.queue_packets());
    peak_queue = std::max(peak_queue, bottleneck.queue_packets());
    if (bw_at_drain < 0 && b.mode() == cc::Bbr::Mode::kDrain)
      bw_at_drain = b.bandwidth();
    if (probe_bw_at < 0 && b.mode() == cc::Bbr::Mode::kProbeBw) {
      probe_bw_at = t;
      queue_at_probe_bw = queue;
    }
    if (probe_bw_at >= 0)
      min_queue_after = std::min(min_queue_after, queue);
  }
  WARN("bandwidth estimate at Drain " << bw_at_drain << " pkt/s (bottleneck " << rate_pps << "), peak queue "
                                      << peak_queue << ", queue when ProbeBW begins " << queue_at_probe_bw
                                      << ", lowest in the RTT after " << min_queue_after);
  REQUIRE(bw_at_drain > 0);
  CHECK(bw_at_drain == Approx(rate_pps).epsilon(0.03));
  CHECK(static_cast<double>(peak_queue) > bdp);  // Startup did build a queue ...
  REQUIRE(probe_bw_at > 0);
  // ... and Drain emptied it: Drain ends at BDP + 3 packets in flight (quantization budget,
  // RTprop includes the serialization delays), the queue reaches its low in the next RTT.
  CHECK(queue_at_probe_bw <= 0.2 * bdp);
  CHECK(min_queue_after <= 0.1 * bdp);
  CHECK(exp.run().links[0].drops == 0);
}

TEST_CASE("BBR enters ProbeRTT when RTprop is 10 s old and holds cwnd 4 for at least 200 ms", "[scenario][bbr]") {
  const auto s = scenario_from(R"({"name": "bbr-probe-rtt", "seed": 1, "duration": "12s", "topology": {"dumbbell": {
      "bottleneck": {"rate": "50Mbps", "delay": "5ms", "buffer": "1333pkt"},
      "access": {"rate": "1Gbps", "buffer": "100000pkt"}}},
      "defaults": {"stack": "linux"},
      "flows": [{"id": "bbr", "algorithm": "bbr", "rtt": "40ms"}, {"id": "cubic", "algorithm": "cubic", "rtt": "40ms"}]})");
  run::Experiment exp(s);
  double entered = -1, left = -1, stamp_age = -1, max_cwnd_inside = 0;
  Time stamp = Time::zero();
  for (double t = 0.001; t <= 12 && left < 0; t += 0.001) {
    exp.run_until(Time::at(Duration::seconds(t)));
    const cc::Bbr& b = bbr_of(exp, 0);
    const bool probing = b.mode() == cc::Bbr::Mode::kProbeRtt;
    if (entered < 0 && probing) {
      entered = t;
      stamp_age = (Time::at(Duration::seconds(t)) - stamp).to_seconds();
    }
    if (!probing)
      stamp = b.min_rtt_stamp();  // the stamp before ProbeRTT (it restarts on entry)
    if (entered >= 0 && probing)
      max_cwnd_inside = std::max(max_cwnd_inside, exp.flow(0).sender->window().cwnd_pkts);
    if (entered >= 0 && !probing)
      left = t;
  }
  WARN("ProbeRTT from " << entered << " s to " << left << " s; RTprop was " << stamp_age
                        << " s old; largest cwnd inside " << max_cwnd_inside);
  REQUIRE(entered > 0);
  REQUIRE(left > 0);
  CHECK(stamp_age >= 10);
  CHECK(stamp_age < 10.1);  // entered on the first ACKs after it expired
  CHECK(left - entered >= 0.2);
  CHECK(left - entered < 1.0);  // drain to 4 packets, 200 ms, a round (RTT ~ 0.25 s behind CUBIC's queue)
  CHECK(max_cwnd_inside == 4);
}

namespace {

/// Goodputs (bps) of two flows sharing a 50 Mb/s dumbbell for `duration`, measured after `warmup`.
std::pair<double, double> two_flow_goodputs(const std::string& algo_a, const std::string& rtt_a,
                                            const std::string& algo_b, const std::string& rtt_b,
                                            const std::string& buffer, const std::string& duration) {
  const auto s = scenario_from(R"({"name": "bbr-share", "seed": 1, "duration": ")" + duration +
                               R"(", "warmup": "10s", "topology": {"dumbbell": {
      "bottleneck": {"rate": "50Mbps", "delay": "5ms", "buffer": ")" +
                               buffer + R"("}, "access": {"rate": "1Gbps", "buffer": "100000pkt"}}},
      "defaults": {"stack": "linux"},
      "flows": [{"id": "a", "algorithm": ")" +
                               algo_a + R"(", "rtt": ")" + rtt_a + R"("},
                {"id": "b", "algorithm": ")" +
                               algo_b + R"(", "rtt": ")" + rtt_b + R"("}]})");
  run::Experiment exp(s);
  const run::RunResult r = exp.run();
  REQUIRE(r.intervals.size() == 1);
  REQUIRE(r.intervals[0].flow_throughput_bps.size() == 2);
  return {r.intervals[0].flow_throughput_bps[0], r.intervals[0].flow_throughput_bps[1]};
}

}  // namespace

TEST_CASE("two BBR flows: the longer-RTT flow gets the larger share", "[scenario][bbr][fairness]") {
  // Buffer 1 BDP of the long flow (50 Mb/s x 80 ms = 333 packets).
  const auto [short_bps, long_bps] = two_flow_goodputs("bbr", "20ms", "bbr", "80ms", "333pkt", "60s");
  WARN("BBR 20 ms: " << short_bps / 1e6 << " Mb/s, BBR 80 ms: " << long_bps / 1e6 << " Mb/s");
  CHECK(long_bps > 1.2 * short_bps);
  CHECK(short_bps + long_bps > 0.9 * 50e6);
}

TEST_CASE("BBR against CUBIC: CUBIC takes more of a deep buffer, BBR more of a shallow one",
          "[scenario][bbr][fairness]") {
  // RTT 40 ms: BDP 167 packets. Deep: 8 BDP; shallow: 0.5 BDP.
  const auto [bbr_deep, cubic_deep] = two_flow_goodputs("bbr", "40ms", "cubic", "40ms", "1333pkt", "60s");
  const auto [bbr_shallow, cubic_shallow] = two_flow_goodputs("bbr", "40ms", "cubic", "40ms", "83pkt", "60s");
  WARN("8 BDP: BBR " << bbr_deep / 1e6 << " Mb/s, CUBIC " << cubic_deep / 1e6 << " Mb/s; 0.5 BDP: BBR "
                     << bbr_shallow / 1e6 << " Mb/s, CUBIC " << cubic_shallow / 1e6 << " Mb/s");
  CHECK(cubic_deep > 1.2 * bbr_deep);
  CHECK(bbr_shallow > 1.2 * cubic_shallow);
}
