// Loss recovery after the slow-start overshoot (issue 16, item 1): one flow on
// 100 Mb/s x 100 ms with a one-BDP (833-packet) drop-tail buffer overshoots the buffer at
// the end of slow start and loses hundreds of packets in one window. With SACK alone
// (RFC 6675) a lost retransmission waits for the RTO; with RACK-TLP and PRR on, as in
// Linux, every loss is repaired by fast recovery.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "../support/helpers.hpp"

using namespace fastsim;
using fastsim::testing::dumbbell_json;
using fastsim::testing::scenario_from;

namespace {

struct Outcome {
  uint64_t timeouts;
  double goodput_bps;
};

Outcome run_path(const std::string& algorithm, const std::string& tcp) {
  const auto s = scenario_from(dumbbell_json(
      "100Mbps", "1ms", "833pkt", "32s", R"([{"id": "a", "algorithm": ")" + algorithm + R"(", "rtt": "100ms"}])", tcp));
  run::Experiment exp(s);
  const auto& r = exp.run();
  REQUIRE(r.flows[0].fast_recoveries >= 1);   // the overshoot happened
  fastsim::testing::check_conservation(exp);  // every packet sent is accounted for
  return {r.flows[0].timeouts, r.flows[0].goodput_bps};
}

}  // namespace

TEST_CASE("After the slow-start overshoot, RACK-TLP and PRR repair every loss without a timeout",
          "[scenario][rack][prr][hstcp][stcp][illinois][cubic]") {
  for (const std::string algo : {"hstcp", "stcp", "illinois", "cubic"}) {
    // The switches one by one on the idealised stack; then the linux profile (which also
    // runs HyStart for CUBIC), as the issue asks: no timeout there either.
    const Outcome sack_only = run_path(algo, R"({"stack": "rfc", "sack": true})");
    const Outcome linux_like = run_path(algo, R"({"stack": "rfc", "sack": true, "rack": true, "prr": true})");
    // RACK without PRR: each lost retransmission lowers the window again (RFC 5681 4.3),
    // else cwnd = ssthresh above the path's capacity overflows the buffer for ever.
    const Outcome rack_only = run_path(algo, R"({"stack": "rfc", "sack": true, "rack": true})");
    const Outcome linux_stack = run_path(algo, R"({"stack": "linux"})");
    WARN(algo << ": timeouts in 32 s, SACK only " << sack_only.timeouts << ", SACK + RACK-TLP + PRR "
              << linux_like.timeouts << ", SACK + RACK-TLP " << rack_only.timeouts << ", linux stack "
              << linux_stack.timeouts << " (goodput " << rack_only.goodput_bps / 1e6 << " Mb/s)");
    CHECK(sack_only.timeouts >= 1);  // the control: without RACK a lost retransmission costs an RTO
    CHECK(linux_like.timeouts == 0);
    CHECK(linux_like.goodput_bps > 0.9e8);
    CHECK(rack_only.timeouts == 0);
    CHECK(linux_stack.timeouts == 0);
    CHECK(linux_stack.goodput_bps > 0.9e8);
    CHECK(rack_only.goodput_bps > 0.9e8);
  }
}

TEST_CASE(
    "An on/off flow restarts its window after an off period longer than the RTO only with "
    "slow_start_after_idle",
    "[scenario][idle]") {
  for (const bool restart : {false, true}) {
    CAPTURE(restart);
    const std::string tcp =
        std::string(R"({"sack": true, "slow_start_after_idle": )") + (restart ? "true" : "false") + "}";
    const auto s = scenario_from(dumbbell_json(
        "100Mbps", "1ms", "833pkt", "8s",
        R"([{"id": "a", "algorithm": "reno", "rtt": "100ms", "on_off": {"on": "5s", "off": "2s"}}])", tcp));
    run::Experiment exp(s);
    exp.run_until(Time::at(Duration::milliseconds(6999)));  // off since 5 s: nothing outstanding
    const tcp::TcpSender& sender = *exp.flow(0).sender;
    REQUIRE(sender.snd_una() == sender.snd_nxt());
    const double before = sender.window().cwnd_pkts;
    REQUIRE(before > 100);
    exp.run_until(Time::at(Duration::milliseconds(7001)));  // resumed at 7 s
    if (restart) {
      // Idle 2 s (the last send just before 5 s): cwnd halves once per RTO beyond the
      // first, not below the initial window.
      const double rto_s = sender.rtt().rto().to_seconds();
      const double halvings = std::ceil(2.0 / rto_s) - 1;
      INFO("rto " << rto_s << " s, cwnd before " << before);
      REQUIRE(halvings >= 3);
      CHECK(sender.window().cwnd_pkts == Approx(std::max(before / std::pow(2.0, halvings), 10.0)));
      CHECK(sender.window().ssthresh_pkts >= 0.75 * before);
      CHECK(sender.counters().idle_restarts == 1);
    } else {
      CHECK(sender.window().cwnd_pkts == before);
      CHECK(sender.counters().idle_restarts == 0);
    }
  }
}

namespace {

/// configs/experiments/leith-recovery.json (400 Mb/s x 200 ms, one-BDP buffer, dummynet
/// ticks, Illinois, linux stack) cut to `duration`: the slow-start overshoot at ~3 s and,
/// when the run passes 100 s, the 5-s line-rate UDP burst.
run::RunResult run_leith_recovery(const std::string& duration) {
  auto doc = nlohmann::json::parse(
      fastsim::testing::read_file(std::string(FASTSIM_SOURCE_DIR) + "/configs/experiments/leith-recovery.json"));
  doc["duration"] = duration;
  const auto scenario = scenario_from(doc.dump());
  run::Experiment exp(scenario);
  run::RunResult r = exp.run();
  fastsim::testing::check_conservation(exp);
  return r;
}

}  // namespace

TEST_CASE("RACK + PRR on a deep dummynet path: every recovery ends, in a bounded number of events",
          "[scenario][rack][prr][illinois]") {
  // Before the fix the overshoot's recovery never ended: a false reordering signal (segments
  // of one SACK block reported top-down) opened RACK's reordering window, the timer-found
  // losses were resent out of the ACK clock into the full queue, and PRR's unconditional
  // extra segment kept the pipe above the path's 13 334 packets: snd_una stuck from 4 s,
  // goodput 5 Mb/s of 400, 990 000 retransmissions lost, and a retransmission scan over
  // the whole window per call (110 simulated seconds took > 100 s of CPU).
  const run::RunResult r = run_leith_recovery("110s");
  const run::FlowResult& f = r.flows[0];
  CHECK(f.timeouts == 0);
  CHECK(f.fast_recoveries >= 2);  // the overshoot and the burst
  // Every recovery ends: 110 s at ~390 Mb/s is ~3.6 M packets; the retransmissions are a
  // few per cent of them (the overshoot and the burst each lose one window's excess).
  CHECK(f.data_packets_delivered > 3'000'000);
  CHECK(static_cast<double>(f.retransmits) < 0.02 * static_cast<double>(f.data_packets_sent));
  // The flow is back after the burst: the last 5 s (105-110 s) carry data.
  REQUIRE(f.goodput_samples_bps.size() >= 110);
  for (size_t k = 105; k < 110; ++k)
    CHECK(f.goodput_samples_bps[k] > 2e7);
  // Events per delivered data packet stay at the chain's few per packet (about 3 here).
  CHECK(static_cast<double>(r.events) / static_cast<double>(r.data_packets_delivered) < 4.0);
}
