// Two rules of RACK (RFC 8985) and PRR (RFC 9937) checked on their own, below the sender:
// - RACK's reordering signal (section 6.2 step 3) compares a newly delivered segment with
//   the highest segment delivered by an earlier ACK, so the segments of one ACK may be
//   reported in any order (the sender walks a SACK block top-down).
// - PRR's reduction bound: packet conservation (PRR-CRB) by default, one extra segment
//   (PRR-SSRB) only on an ACK that advances snd.una and marks nothing lost.
#include <catch2/catch.hpp>

#include <algorithm>
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
      rack.on_new_data(s, ms(static_cast<int64_t>(s)));  // segment s leaves at s ms
    rack.begin_ack();
    rack.on_delivered(2, false, ms(2), ms(82));  // RACK.rtt 80 ms, min_RTT 80 ms: reo_wnd 20 ms
    std::vector<uint64_t> lost;
    const auto fresh = [](uint64_t s) { return s != 2; };
    const auto live = [](uint64_t) { return false; };  // nothing resent
    const auto lose = [&lost](uint64_t s) { lost.push_back(s); };
    // Segment s < 2 (sent at s ms) is lost at s + 80 ms + reo_wnd; 3, sent after 2, never here.
    const std::optional<Duration> wait = rack.detect_loss(ms(82), zero, srtt, 0, 4, fresh, live, lose);
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
    rack.on_new_data(s, ms(static_cast<int64_t>(s)));
  rack.begin_ack();
  rack.on_delivered(0, false, ms(0), ms(50));
  std::vector<uint64_t> lost;
  const auto wait = rack.detect_loss(
      ms(50), false, srtt, 0, 3, [](uint64_t s) { return s != 0; }, [](uint64_t) { return false; },
      [&lost](uint64_t s) { lost.push_back(s); });
  CHECK_FALSE(wait);
  CHECK(lost.empty());
}

TEST_CASE("RACK: segments of one ACK in any order are not reordering; below an earlier ACK's highest is",
          "[tcp][rack]") {
  tcp::Rack rack(16);
  const Time t0 = Time::at(Duration::milliseconds(0));
  for (uint64_t s = 0; s < 8; ++s)
    rack.on_new_data(s, t0);
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

TEST_CASE("RACK: interleaved retransmissions and new segments are marked lost in transmit order", "[tcp][rack]") {
  // New data 0..5 at 0 ms; 1 resent at 10 ms; new 6 at 12 ms; at 14 ms new 7 and a resend
  // of 3 in either order; new 8 and 9 at 20 ms. 8 is delivered at 100 ms (RACK.rtt 80 ms,
  // reo_wnd 0). Every outstanding segment sent before 8 is lost once 80 ms have passed since
  // it left, in transmit order: neither sequence order (1 before 2) nor time order with a
  // fixed tie-break (7 and 3 at 14 ms follow the order they left in).
  const auto ms = [](int64_t v) { return Time::at(Duration::milliseconds(v)); };
  for (const bool resend_first : {false, true}) {
    CAPTURE(resend_first);
    tcp::Rack rack(16);
    uint64_t nxt = 0;
    auto send_new = [&](int64_t at) { rack.on_new_data(nxt++, ms(at)); };
    for (int i = 0; i < 6; ++i)
      send_new(0);
    rack.on_retransmit(1, ms(10), nxt);
    send_new(12);
    if (resend_first)
      rack.on_retransmit(3, ms(14), nxt);
    send_new(14);
    if (!resend_first)
      rack.on_retransmit(3, ms(14), nxt);
    send_new(20);
    send_new(20);
    rack.begin_ack();
    rack.on_delivered(8, false, ms(20), ms(100));
    std::vector<uint64_t> lost;
    const auto is_lost = [&lost](uint64_t s) { return std::find(lost.begin(), lost.end(), s) != lost.end(); };
    const auto resent = [](uint64_t s) { return s == 1 || s == 3; };
    std::vector<uint64_t> delivered{8};
    const auto fresh = [&](uint64_t s) { return std::ranges::count(delivered, s) == 0 && !resent(s) && !is_lost(s); };
    const auto live = [&](uint64_t s) { return resent(s) && !is_lost(s); };
    const auto lose = [&lost](uint64_t s) { lost.push_back(s); };
    // At 93 ms what left up to 13 ms is overdue; 7 or 3 (14 ms) is due in 1 ms.
    std::optional<Duration> wait = rack.detect_loss(ms(93), true, std::nullopt, 0, nxt, fresh, live, lose);
    CHECK(lost == std::vector<uint64_t>{0, 2, 4, 5, 1, 6});
    REQUIRE(wait);
    CHECK(*wait == Duration::milliseconds(1));
    wait = rack.detect_loss(ms(100), true, std::nullopt, 0, nxt, fresh, live, lose);
    const std::vector<uint64_t> tail = resend_first ? std::vector<uint64_t>{3, 7} : std::vector<uint64_t>{7, 3};
    CHECK(std::vector<uint64_t>(lost.begin() + 6, lost.end()) == tail);
    CHECK_FALSE(wait);  // 8 is RACK's own segment and 9 left after it
    // A resend of a segment lost again goes to the back of the order: lost once more
    // only after what left before it.
    rack.on_retransmit(0, ms(110), nxt);
    rack.begin_ack();
    rack.on_delivered(9, false, ms(20), ms(120));  // RACK.xmit_ts 20 ms, before 0's resend
    delivered.push_back(9);
    const auto live_again = [&](uint64_t s) { return s == 0; };
    const size_t before = lost.size();
    wait = rack.detect_loss(ms(120), true, std::nullopt, 0, nxt, fresh, live_again, lose);
    CHECK(lost.size() == before);  // 0's resend left after RACK.xmit_ts (9 at 20 ms)
    CHECK_FALSE(wait);
  }
}

TEST_CASE("RACK: after a timeout the walk starts at snd_nxt and with the later resends", "[tcp][rack]") {
  const auto ms = [](int64_t v) { return Time::at(Duration::milliseconds(v)); };
  tcp::Rack rack(16);
  for (uint64_t s = 0; s < 4; ++s)
    rack.on_new_data(s, ms(0));
  rack.on_timeout(4);  // 0..3 all lost by the timeout; the caller's flags say so too
  rack.on_retransmit(0, ms(300), 4);
  rack.on_new_data(4, ms(300));
  rack.on_retransmit(1, ms(300), 5);
  rack.on_new_data(5, ms(310));
  rack.begin_ack();
  rack.on_delivered(5, false, ms(310), ms(400));  // RACK.rtt 90 ms
  std::vector<uint64_t> lost;
  // The fresh test is deliberately loose (only 5 delivered): segments 1..3, which were
  // never resent, would be taken as fresh if the walk did not restart at snd_nxt.
  const auto fresh = [&](uint64_t s) { return s != 5 && s != 0 && s != 1 && std::ranges::count(lost, s) == 0; };
  const auto live = [&](uint64_t s) { return (s == 0 || s == 1) && std::ranges::count(lost, s) == 0; };
  const auto lose = [&lost](uint64_t s) { lost.push_back(s); };
  const auto wait = rack.detect_loss(ms(400), true, std::nullopt, 0, 6, fresh, live, lose);
  CHECK(lost == std::vector<uint64_t>{0, 4, 1});
  CHECK_FALSE(wait);
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
