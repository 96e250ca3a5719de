// Unit test of docs/extending.md's example algorithm, written as a contribution's
// tests/unit/delay_aimd_test.cpp would be: the algorithm alone, driven by CcDriver
// (rounds of ACKs with chosen RTT samples, losses), against its rules.
#include <catch2/catch.hpp>

#include "../support/cc_driver.hpp"

using namespace fastsim;
using fastsim::testing::CcDriver;

namespace {
const Duration kBase = Duration::milliseconds(40);
}

TEST_CASE("delay-aimd: Reno's increase and decrease while the queueing delay stays below the threshold",
          "[cc][delay-aimd]") {
  CcDriver d("delay-aimd", {{"increase", 2}, {"decrease", 0.3}});
  d.round_trips(3, kBase);  // baseRTT 40 ms, no queueing delay
  d.w = {100, 1};
  d.round_trip(kBase + Duration::milliseconds(4));  // 4 ms: below the 5 ms default
  const double grown = d.w.cwnd_pkts;
  CHECK(grown == Approx(102).epsilon(1e-3));  // + increase per RTT
  CHECK(d.loss().ssthresh_pkts == Approx(grown * 0.7));
}

TEST_CASE("delay-aimd: a round above the threshold cuts the window once, not in the next round", "[cc][delay-aimd]") {
  CcDriver d("delay-aimd", {{"delay_decrease", 0.25}});
  d.round_trips(3, kBase);
  d.w = {200, 1};
  // The round's ACKs first grow the window by about one packet; the last one ends the round
  // whose smallest sample is 10 ms above baseRTT, and cuts by delay_decrease.
  d.round_trip(kBase + Duration::milliseconds(10));
  const double cut = d.w.cwnd_pkts;
  CHECK(cut == Approx(0.75 * 201).epsilon(2e-3));
  CHECK(d.w.ssthresh_pkts == cut);
  d.round_trip(kBase + Duration::milliseconds(10));  // still queued, the round after a cut: grows
  const double after = d.w.cwnd_pkts;
  CHECK(after == Approx(cut + 1).epsilon(1e-3));
  d.round_trip(kBase + Duration::milliseconds(10));  // cut again
  CHECK(d.w.cwnd_pkts == Approx(0.75 * (after + 1)).epsilon(2e-3));
  const auto values = d.cc->summary_values();
  REQUIRE(values.size() == 1);
  CHECK(values[0].value(*d.cc) == 2);  // delay_cuts
}
