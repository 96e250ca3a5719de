// Two rules of RACK (RFC 8985) and PRR (RFC 9937) checked on their own, below the sender:
// - RACK's reordering signal (section 6.2 step 3) compares a newly delivered segment with
//   the highest segment delivered by an earlier ACK, so the segments of one ACK may be
//   reported in any order (the sender walks a SACK block top-down).
// - PRR's reduction bound: packet conservation (PRR-CRB) by default, one extra segment
//   (PRR-SSRB) only on an ACK that advances snd.una and marks nothing lost.
#include <catch2/catch.hpp>

#include "fastsim/tcp/prr.hpp"
#include "fastsim/tcp/rack.hpp"

using namespace fastsim;

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
