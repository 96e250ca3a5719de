// The sender's retransmission timer under the stack profiles' RTO switches
// (rto_granularity, min_rto_floor): TcpSender builds its RTT estimator from its
// TcpConfig, so the ns2 profile's rule reaches a running flow. Driven by scripted ACKs
// (tests/support/sender_harness.hpp) on a steady 100-ms path.
#include <catch2/catch.hpp>

#include "../support/sender_harness.hpp"
#include "fastsim/tcp/stack_profile.hpp"

using namespace fastsim;
using fastsim::testing::SenderHarness;

namespace {

/// Six rounds of 100 ms, every segment ACKed one by one: 630 samples of exactly 100 ms.
Duration rto_after_steady_path(const tcp::TcpConfig& cfg) {
  SenderHarness h(cfg);
  h.start();
  for (int round = 1; round <= 6; ++round) {
    h.run_until(Time::at(Duration::milliseconds(100 * round)));
    const uint64_t sent = h.sent().size();
    for (uint64_t seq = h.snd_una() + 1; seq <= sent; ++seq)
      h.ack(seq);
  }
  return h.sender().rtt().rto();
}

}  // namespace

TEST_CASE("a sender runs the RTO rule of its stack profile", "[tcp][sender][rto][stack]") {
  // rfc and linux: srtt + max(min_rto, 4 rttvar) = 100 + 200 ms once rttvar has collapsed.
  CHECK(rto_after_steady_path(tcp::stack_config(tcp::Stack::kRfc)) == Duration::milliseconds(300));
  CHECK(rto_after_steady_path(tcp::stack_config(tcp::Stack::kLinux)) == Duration::milliseconds(300));
  // ns2: 10-ms ticks, srtt + 4 rttvar = 13 ticks, floored at minrto_ = 200 ms.
  tcp::TcpConfig ns2 = tcp::stack_config(tcp::Stack::kNs2);
  CHECK(rto_after_steady_path(ns2) == Duration::milliseconds(200));
  // The floor alone (exact arithmetic): max(200 ms, 100 ms + 4 rttvar).
  tcp::TcpConfig floor_only = tcp::stack_config(tcp::Stack::kRfc);
  floor_only.min_rto_floor = true;
  CHECK(rto_after_steady_path(floor_only) == Duration::milliseconds(200));
  // Ticks alone keep Linux's additive min_rto: srtt (10 ticks) + max(200 ms, 3 ticks).
  tcp::TcpConfig ticks_only = tcp::stack_config(tcp::Stack::kRfc);
  ticks_only.rto_granularity = Duration::milliseconds(10);
  CHECK(rto_after_steady_path(ticks_only) == Duration::milliseconds(300));
}
