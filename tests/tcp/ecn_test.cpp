// ECN at the TCP end points (tcp/ecn.hpp): the receiver's ECE echo (RFC 3168 6.1.3:
// latched until CWR; exact per segment for DCTCP, RFC 8257 3.2, with an immediate ACK when
// the CE state changes under delayed ACKs) and the sender's reaction (ECT(0) on new data,
// Not-ECT on retransmissions, one reduction per window of ECE, CWR on the next new segment).
#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include "../support/sender_harness.hpp"
#include "fastsim/tcp/tcp_receiver.hpp"

using namespace fastsim;
using net::ecn::kCe;
using net::ecn::kCwr;
using net::ecn::kEce;
using net::ecn::kEct0;

namespace {

struct EceLog final : net::PacketSink {
  net::PacketPool* pool = nullptr;
  struct Ack {
    uint64_t ack;
    bool ece;
  };
  std::vector<Ack> acks;
  void receive(net::Packet* p) override {
    acks.push_back({p->seq, (p->ecn & kEce) != 0});
    pool->release(p);
  }
};

struct Receiver {
  Simulator sim;
  net::PacketPool pool;
  tcp::TcpConfig cfg;
  EceLog log;
  net::RouteCounters counters;
  net::Route ack_route;
  std::unique_ptr<tcp::TcpReceiver> rx;

  Receiver(bool ecn, bool exact, bool delayed) {
    cfg.ecn = ecn;
    cfg.ecn_exact_echo = exact;
    cfg.delayed_ack = delayed;
    log.pool = &pool;
    ack_route.counters = &counters;
    rx = std::make_unique<tcp::TcpReceiver>(sim, pool, cfg, &ack_route, log);
  }
  void data(uint64_t seq, uint8_t ecn) {
    net::Packet* p = pool.acquire();
    p->seq = seq;
    p->ecn = ecn;
    rx->receive(p);
  }
  [[nodiscard]] std::vector<bool> eces() const {
    std::vector<bool> v;
    for (const auto& a : log.acks)
      v.push_back(a.ece);
    return v;
  }
};

}  // namespace

TEST_CASE("RFC 3168 receiver: ECE from a CE arrival until a segment with CWR", "[ecn][receiver]") {
  Receiver r(true, false, false);
  r.data(0, kEct0);
  r.data(1, kCe);
  r.data(2, kEct0);
  r.data(3, kEct0);
  r.data(4, kEct0 | kCwr);  // the sender reduced: the echo stops
  r.data(5, kEct0);
  r.data(6, kCe | kCwr);  // CWR and a new mark on one segment: the mark wins
  r.data(7, kEct0);
  CHECK(r.eces() == std::vector<bool>{false, true, true, true, false, false, true, true});
}

TEST_CASE("a receiver without ECN never echoes", "[ecn][receiver]") {
  Receiver r(false, false, false);
  r.data(0, kCe);
  r.data(1, kCe);
  CHECK(r.eces() == std::vector<bool>{false, false});
}

TEST_CASE("DCTCP receiver: ECE is each segment's CE state, ACK at once on a change", "[ecn][receiver][dctcp]") {
  SECTION("delayed ACKs") {
    Receiver r(true, true, true);
    r.data(0, kEct0);
    r.data(1, kEct0);  // ACK 2, no ECE
    r.data(2, kEct0);  // held back
    r.data(3, kCe);    // state 0 -> 1 with one held back: ACK 3 without ECE at once; 3 held
    r.data(4, kCe);    // ACK 5 with ECE
    r.data(5, kEct0);  // state 1 -> 0, nothing held: no extra ACK; 5 held
    r.data(6, kEct0);  // ACK 7 without ECE
    r.data(7, kCe);    // 0 -> 1, nothing held; held
    r.data(8, kEct0);  // 1 -> 0 with 7 held: ACK 8 with ECE at once; 8 held
    REQUIRE(r.log.acks.size() == 5);
    const std::vector<uint64_t> want_ack{2, 3, 5, 7, 8};
    for (size_t i = 0; i < want_ack.size(); ++i)
      CHECK(r.log.acks[i].ack == want_ack[i]);
    CHECK(r.eces() == std::vector<bool>{false, false, true, false, true});
    // CWR does not clear the exact echo.
    r.data(9, kCe | kCwr);  // 0 -> 1 with 8 held: ACK 9 without ECE; 9 held
    r.data(10, kCe);        // ACK 11 with ECE
    CHECK(r.eces() == std::vector<bool>{false, false, true, false, true, false, true});
  }
  SECTION("an ACK per segment") {
    Receiver r(true, true, false);
    for (uint64_t s = 0; s < 8; ++s)
      r.data(s, s % 4 == 3 ? kCe : kEct0);
    CHECK(r.eces() == std::vector<bool>{false, false, false, true, false, false, false, true});
  }
}

TEST_CASE("ECN sender: ECT(0) on new data, Not-ECT on retransmissions", "[ecn][sender]") {
  tcp::TcpConfig cfg;
  cfg.ecn = true;
  testing::SenderHarness h(cfg);
  h.start();
  REQUIRE(h.sent().size() == 10);
  for (const auto& s : h.sent())
    CHECK(s.ecn == kEct0);
  h.dupacks(3);  // fast retransmit of segment 0
  REQUIRE(h.retransmitted() == std::vector<uint64_t>{0});
  CHECK(h.sent().back().retransmission);
  CHECK(h.sent().back().ecn == net::ecn::kNotEct);
}

TEST_CASE("ECN sender: one reduction per window of ECE, then CWR on the next new segment", "[ecn][sender]") {
  tcp::TcpConfig cfg;
  cfg.ecn = true;
  cfg.initial_ssthresh = 8;  // congestion avoidance from the start: no slow-start growth to account for
  testing::SenderHarness h(cfg);
  h.start();
  REQUIRE(h.snd_nxt() == 10);
  h.set_ack_ecn(kEce);
  h.ack(1);  // ECE: ssthresh = cwnd/2, cwnd cut to it, no retransmission
  const double after_first = h.cwnd();
  CHECK(h.calls().ecn == 1);
  CHECK(h.sender().counters().ecn_reductions == 1);
  CHECK(h.ssthresh() == Approx(5.0).margin(0.2));
  CHECK(after_first == Approx(5.0).margin(0.2));
  CHECK(h.sender().counters().retransmits == 0);
  CHECK(h.state() == cc::CaState::kOpen);
  // More ECE within the same window (snd_una below snd_nxt at the reduction): no new cut.
  const size_t sent_before = h.sent().size();
  for (uint64_t a = 2; a <= 9; ++a)
    h.ack(a);
  CHECK(h.sender().counters().ecn_reductions == 1);
  CHECK(h.calls().ecn == 1);
  CHECK(h.cwnd() >= after_first);
  // The first new segment after the reduction carries CWR, later ones do not.
  REQUIRE(h.sent().size() > sent_before + 1);
  CHECK(h.sent()[sent_before].ecn == (kEct0 | kCwr));
  for (size_t i = sent_before + 1; i < h.sent().size(); ++i)
    CHECK(h.sent()[i].ecn == kEct0);
  // Once snd_una reaches the end of the reduced window, the next ECE cuts again.
  h.ack(10);
  CHECK(h.sender().counters().ecn_reductions == 2);
  CHECK(h.calls().ecn == 2);
  CHECK(h.calls().loss == 0);  // a mark is no loss (Reno's on_ecn reuses its loss response internally)
  CHECK(h.sender().counters().retransmits == 0);
}

TEST_CASE("ECE without ECN, or in recovery, does not reduce", "[ecn][sender]") {
  SECTION("ecn off") {
    testing::SenderHarness h;
    h.start();
    for (const auto& s : h.sent())
      CHECK(s.ecn == net::ecn::kNotEct);
    h.set_ack_ecn(kEce);
    h.ack(2);
    CHECK(h.sender().counters().ecn_reductions == 0);
    CHECK(h.cwnd() == Approx(12.0));  // slow start
  }
  SECTION("in recovery") {
    tcp::TcpConfig cfg;
    cfg.ecn = true;
    testing::SenderHarness h(cfg);
    h.start();
    h.dupacks(3);
    REQUIRE(h.state() == cc::CaState::kRecovery);
    const double cwnd = h.cwnd();
    h.set_ack_ecn(kEce);
    h.dupacks(1);
    CHECK(h.sender().counters().ecn_reductions == 0);
    CHECK(h.cwnd() == cwnd);
  }
}
