// The sender's retransmission timer under the stack profiles' RTO switches
// (rto_granularity, min_rto_floor, rtt_every_ack): TcpSender builds its RTT estimator from its
// TcpConfig, so the ns2 profile's rule reaches a running flow. Driven by scripted ACKs
// (tests/support/sender_harness.hpp) on a steady 100-ms path.
#include <catch2/catch.hpp>

#include "../support/sender_harness.hpp"
#include "fastsim/tcp/stack_profile.hpp"

using namespace fastsim;
using fastsim::testing::SenderHarness;

namespace {

/// Six rounds of 100 ms, every segment ACKed one by one: every ACK a 100-ms sample (with
/// rtt_every_ack false, as in ns2, one timed sample per round).
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
  // ns2: 10-ms ticks and one timed sample per round: srtt + 4 rttvar = 16 ticks after six
  // samples (rttvar decays by a quarter per sample), floored at minrto_ = 200 ms.
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

TEST_CASE("without timestamps the RTO estimator times one segment at a time and none across a retransmission",
          "[tcp][sender][rto][stack]") {
  // rtt_every_ack false (the ns2 profile; RFC 6298 with Karn's rule): srtt, rttvar and the
  // RTO take only the timed segment's samples; the algorithms still see every ACK's.
  tcp::TcpConfig cfg = tcp::stack_config(tcp::Stack::kRfc);
  cfg.rtt_every_ack = false;
  SenderHarness h(cfg);
  h.start();  // ten segments at 0 s; segment 0 is timed
  h.run_until(Time::at(Duration::milliseconds(100)));
  h.ack(1);  // covers segment 0: the timed sample, 100 ms; segments 10 and 11 leave, 10 is timed
  CHECK(h.srtt() == Duration::milliseconds(100));
  REQUIRE(h.sent().at(10).at == Time::at(Duration::milliseconds(100)));
  h.run_until(Time::at(Duration::milliseconds(150)));
  h.ack(2);  // echoes segment 1 (sent at 0 s): a 150-ms sample for the algorithms only
  CHECK(h.sender().rtt().view().latest == Duration::milliseconds(150));
  CHECK(h.srtt() == Duration::milliseconds(100));
  for (uint64_t cum = 3; cum <= 10; ++cum)
    h.ack(cum);
  CHECK(h.srtt() == Duration::milliseconds(100));
  h.run_until(Time::at(Duration::milliseconds(300)));
  h.ack(11);  // covers segment 10, timed at 100 ms: 200 ms; srtt = (7 x 100 + 200) / 8
  CHECK(h.srtt() == Duration::microseconds(112500));
  // rttvar = (3 x 50 + |100 - 200|) / 4 = 62.5 ms (RFC 6298 takes the old srtt)
  const Duration rto = Duration::microseconds(112500 + 4 * 62500);
  CHECK(h.rto() == rto);
  // Nothing more is ACKed: the RTO fires and resends segment 11; the timing (of the first
  // new segment sent after 300 ms) stops.
  h.run_until(Time::at(Duration::milliseconds(300)) + rto + Duration::milliseconds(1));
  REQUIRE(h.retransmitted() == std::vector<uint64_t>{11});
  CHECK(h.rto() == rto * 2);
  // An ACK of everything outstanding, echoing the retransmission: without the stop, the
  // timed segment's 400-ms sample would move srtt; the backoff stays until a timed sample.
  h.run_until(Time::at(Duration::milliseconds(700)));
  const size_t before = h.sent().size();
  h.ack(h.snd_nxt(), {}, true);
  CHECK(h.srtt() == Duration::microseconds(112500));
  CHECK(h.rto() == rto * 2);
  // The next new segment is timed: its ACK 100 ms later ends the backoff.
  REQUIRE(h.sent().size() > before);
  const uint64_t timed = h.sent().at(before).seq;
  h.run_until(Time::at(Duration::milliseconds(800)));
  h.ack(timed + 1);
  CHECK(h.srtt() ==
        Duration::picoseconds((7 * Duration::microseconds(112500).ps() + Duration::milliseconds(100).ps()) / 8));
  CHECK(h.rto() < rto * 2);
}

TEST_CASE("with timestamps (rtt_every_ack, the default) every ACK's sample moves srtt", "[tcp][sender][rto][stack]") {
  SenderHarness h(tcp::stack_config(tcp::Stack::kRfc));
  h.start();
  h.run_until(Time::at(Duration::milliseconds(100)));
  h.ack(1);
  CHECK(h.srtt() == Duration::milliseconds(100));
  h.run_until(Time::at(Duration::milliseconds(150)));
  h.ack(2);  // 150 ms: srtt = (7 x 100 + 150) / 8
  CHECK(h.srtt() == Duration::microseconds(106250));
}
