// Two rules of RACK (RFC 8985) and PRR (RFC 9937) checked on their own, below the sender:
// - RACK's reordering signal (section 6.2 step 3) compares a newly delivered segment with
//   the highest segment delivered by an earlier ACK, so the segments of one ACK may be
//   reported in any order (the sender walks a SACK block top-down).
// - PRR's reduction bound: packet conservation (PRR-CRB) by default, one extra segment
//   (PRR-SSRB) only on an ACK that advances snd.una and marks nothing lost.
#include <catch2/catch.hpp>

#include <optional>
#include <vector>

#include "fastsim/tcp/prr.hpp"
#include "fastsim/tcp/rack.hpp"

using namespace fastsim;

TEST_CASE("RACK: the reordering window delays only segments sent before RACK.xmit_ts; zero without reordering",
          "[tcp][rack]") {
  // detect_loss computes reo_wnd only once a segment sent before RACK.xmit_ts is found:
  // the result must be the same as with the window computed up front.
  const auto ms = [](int64_t v) { return Time::at(Duration::milliseconds(v)); };
  const std::optional<Duration> srtt = Duration::milliseconds(100);
  for (const bool zero : {false, true}) {
    CAPTURE(zero);
    tcp::Rack rack(16);
    for (uint64_t s = 0; s < 4; ++s)
      rack.on_transmit(s, ms(static_cast<int64_t>(s)));  // segment s leaves at s ms
    rack.begin_ack();
    rack.on_delivered(2, false, ms(2), ms(82));  // RACK.rtt 80 ms, min_RTT 80 ms: reo_wnd 20 ms
    std::vector<uint64_t> lost;
    const auto live = [](uint64_t s) { return s != 2; };
    const auto lose = [&lost](uint64_t s) { lost.push_back(s); };
    // Segment s < 2 (sent at s ms) is lost at s + 80 ms + reo_wnd; 3, sent after 2, never here.
    const std::optional<Duration> wait = rack.detect_loss(ms(82), zero, srtt, live, lose);
    if (zero) {  // no reordering seen, window zero: 0 and 1 are overdue now
      CHECK(lost == std::vector<uint64_t>{0, 1});
      CHECK_FALSE(wait);
    } else {  // reo_wnd = min_RTT / 4 = 20 ms: 0 is lost 18 ms from now
      CHECK(lost.empty());
      REQUIRE(wait);
      CHECK(*wait == Duration::milliseconds(18));
    }
  }
  // Nothing sent before RACK.xmit_ts: no timer, nothing lost, whatever the window.
  tcp::Rack rack(16);
  for (uint64_t s = 0; s < 3; ++s)
    rack.on_transmit(s, ms(static_cast<int64_t>(s)));
  rack.begin_ack();
  rack.on_delivered(0, false, ms(0), ms(50));
  std::vector<uint64_t> lost;
  const auto wait = rack.detect_loss(
      ms(50), false, srtt, [](uint64_t s) { return s != 0; }, [&lost](uint64_t s) { lost.push_back(s); });
  CHECK_FALSE(wait);
  CHECK(lost.empty());
}

TEST_CASE("RACK: segments of one ACK in any order are not reordering; below an earlier ACK's highest is",
          "[tcp][rack]") {
  tcp::Rack rack(16);
  const Time t0 = Time::at(Duration::milliseconds(0));
  for (uint64_t s = 0; s < 8; ++s)
    rack.on_transmit(s, t0);
  const Time t1 = Time::at(Duration::milliseconds(100));
  rack.begin_ack();  // one ACK SACKs 3..5, reported top-down
  for (uint64_t s = 6; s-- > 3;)
    rack.on_delivered(s, false, t0, t1);
  CHECK_FALSE(rack.reordering_seen());
  rack.begin_ack();  // the next ACK SACKs 6: above everything so far
  rack.on_delivered(6, false, t0, t1);
  CHECK_FALSE(rack.reordering_seen());
  rack.begin_ack();  // then 1, never retransmitted, below 6 delivered earlier: reordering
  rack.on_delivered(1, false, t0, t1);
  CHECK(rack.reordering_seen());
}

TEST_CASE("PRR: one segment beyond packet conservation only on a safe ACK (RFC 9937)", "[tcp][prr]") {
  tcp::Prr prr;
  prr.start(20);
  // ssthresh 10, pipe 8 (at or below ssthresh): the reduction-bound branch.
  prr.out = 3;
  const double conservative = prr.on_ack(1, 8, 10, false);  // prr_delivered 1: max(1 - 3, 1)
  CHECK(conservative == 1);
  const double slow_start = prr.on_ack(1, 8, 10, true);  // prr_delivered 2: max(2 - 3, 1) + 1
  CHECK(slow_start == 2);
  // Owed segments are caught up either way, never beyond ssthresh - pipe.
  prr.out = 0;
  CHECK(prr.on_ack(1, 8, 10, false) == 2);  // min(10 - 8, max(3 - 0, 1))
  CHECK(prr.on_ack(1, 9.5, 10, true) == 0.5);
  // Above ssthresh the proportional part is unchanged: ceil(delivered * ssthresh / RecoverFS) - out.
  tcp::Prr p2;
  p2.start(20);
  CHECK(p2.on_ack(4, 15, 10, false) == 2);
  CHECK(p2.on_ack(4, 15, 10, true) == 4);
}
