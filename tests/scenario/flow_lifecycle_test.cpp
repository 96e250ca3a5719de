// The flow lifecycle against its definition: a finite flow ends at the exact instant its
// last byte is acknowledged (the sender's completion callback), not at the next sample,
// so the number of flows crossing the bottleneck drops then; and an arriving flow's
// fair-share completion time (base RTT + wire bits x n / C, n the time-average number of
// flows crossing the bottleneck while it ran) matches the same formula computed by hand
// from the two flows' start and completion times.
#include <catch2/catch.hpp>

#include <algorithm>

#include "../support/helpers.hpp"

using namespace fastsim;
using fastsim::testing::scenario_from;

namespace {

// 10 Mb/s, 40 ms, a deep buffer (no loss); 1-s samples, so a polled completion would
// lag the true one by up to a second.
std::string two_flow_scenario(const std::string& traffic, int seed = 3) {
  return R"({"name": "lifecycle", "seed": )" + std::to_string(seed) + R"(, "duration": "6s", "sample_interval": "1s",
    "topology": {"dumbbell": {"bottleneck": {"rate": "10Mbps", "delay": "5ms", "buffer": "1000pkt"},
                              "access": {"rate": "1Gbps", "buffer": "10000pkt"}}},
    "defaults": {"delayed_ack": false}, )" +
         traffic + "}";
}

}  // namespace

TEST_CASE("a finite flow leaves the active-flow count at its completion instant", "[scenario][lifecycle]") {
  const auto s = scenario_from(two_flow_scenario(R"("flows": [
      {"id": "finite", "algorithm": "reno", "rtt": "40ms", "size": "300KB"},
      {"id": "bulk", "algorithm": "reno", "rtt": "40ms", "start": "0.1s"}])"));
  Time done;
  {
    run::Experiment full(s);
    full.run();
    REQUIRE(full.flow(0).sender->complete());
    done = full.flow(0).sender->completion_time();
    // strictly inside a sample period: a polled end would come later
    REQUIRE(done.ps() % Duration::seconds_int(1).ps() != 0);
  }
  run::Experiment exp(s);
  exp.run_until(done - Duration::picoseconds(1));
  CHECK(exp.active_flows() == 2);
  CHECK_FALSE(exp.flow(0).activity.ended);
  exp.run_until(done);
  CHECK(exp.active_flows() == 1);
  REQUIRE(exp.flow(0).activity.ended);
  CHECK(*exp.flow(0).activity.ended == done);
}

TEST_CASE("fair-share completion time of an arriving flow, by hand for two flows", "[scenario][lifecycle]") {
  // One scenario flow of 400 KB from 0 s; one arrival of 600 KB in [0.2 s, 0.3 s) (seed 7
  // draws exactly one, at 0.237 s). Both cross the bottleneck; the scenario flow finishes first.
  const auto s = scenario_from(two_flow_scenario(R"("flows": [
      {"id": "first", "algorithm": "reno", "rtt": "40ms", "size": "400KB"}],
    "arrivals": [{"id": "web", "rate": 10, "start": "0.2s", "stop": "0.3s", "algorithm": "reno",
                  "size": {"distribution": "fixed", "mean": 600000}, "rtt": "40ms"}])",
                                                 7));
  run::Experiment exp(s);
  const auto& r = exp.run();
  REQUIRE(r.arrivals.size() == 1);
  REQUIRE(r.arrivals[0].started == 1);
  REQUIRE(r.arrivals[0].completed_flows.size() == 1);
  const traffic::CompletedFlow& b = r.arrivals[0].completed_flows[0];
  REQUIRE(r.flows[0].completion_s);
  const double a_end = *r.flows[0].completion_s;
  const double b_end = b.start_s + b.fct_s;
  REQUIRE(a_end > b.start_s);  // the two overlap ...
  REQUIRE(a_end < b_end);      // ... and the scenario flow ends first, between samples
  // n: the arriving flow itself all along, plus the scenario flow until its completion.
  const double n = (b.fct_s + (a_end - b.start_s)) / b.fct_s;
  const double segments = std::ceil(600000.0 / 1460.0);
  const double wire_bits = segments * 1500 * 8;
  const double base_rtt = 0.040;
  const double expected = base_rtt + wire_bits * n / 10e6;
  CHECK(b.fair_fct_s == Approx(expected).epsilon(1e-9));
  // With the end polled at the next 1-s sample, n would have been 2.
  CHECK(n < 1.99);
}

TEST_CASE("on/off toggles are scheduled one at a time, whatever the number of periods", "[scenario][lifecycle]") {
  // 1-us on and off periods over 6 s: three million toggles, which used to be scheduled (and
  // allocated) at the start.
  const auto s = scenario_from(two_flow_scenario(R"("flows": [
      {"id": "blinking", "algorithm": "reno", "rtt": "40ms", "on_off": {"on": "1us", "off": "1us"}}])"));
  run::Experiment exp(s);
  // flow start, its first toggle, the sampler
  CHECK(exp.sim().pending() == 3);
  exp.run_until(Time::at(Duration::milliseconds(500)));
  CHECK(exp.sim().pending() < 16);  // the toggle, the sampler and a few packet and timer events
  CHECK(exp.flow(0).sender->counters().data_sent > 0);
}

TEST_CASE("a stopped flow's goodput counts what arrived while it was active", "[scenario][lifecycle]") {
  // Stopped at 2.2 s while its fifth slow-start window (160 segments, 192 ms at 10 Mb/s,
  // sent from ~2.1 s) crosses the bottleneck: the data arriving after the stop is in
  // bytes_delivered, not in the goodput over the active time [0.5 s, 2.2 s].
  const auto s = scenario_from(two_flow_scenario(R"("flows": [
      {"id": "stopped", "algorithm": "reno", "rtt": "400ms", "start": "0.5s", "stop": "2.2s"}])"));
  run::Experiment exp(s);
  exp.run_until(Time::at(Duration::milliseconds(2200)));
  const uint64_t at_stop = exp.flow(0).receiver->counters().segments_delivered * 1460;
  const auto& r = exp.run();
  REQUIRE(r.flows[0].end_s == Approx(2.2).margin(1e-12));
  CHECK(r.flows[0].bytes_delivered > at_stop);  // the last window arrived after the stop
  CHECK(r.flows[0].goodput_bps == Approx(static_cast<double>(at_stop) * 8 / (r.flows[0].end_s - 0.5)).epsilon(1e-12));
}
