// TcpReceiver against RFC 5681 section 4.2 and RFC 2018: delayed ACK every second
// segment or on the timer, immediate ACKs for out-of-order data, duplicates and hole
// fills, SACK blocks with the most recent block first, and the send-time echo.
#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include "fastsim/tcp/tcp_receiver.hpp"

using namespace fastsim;

namespace {

struct AckLog final : net::PacketSink {
  net::PacketPool* pool = nullptr;
  Simulator* sim = nullptr;
  struct Ack {
    Time at;
    uint64_t ack;
    std::vector<net::SackBlock> sacks;
    Time echo;
  };
  std::vector<Ack> acks;
  void receive(net::Packet* p) override {
    std::vector<net::SackBlock> sacks;
    for (size_t i = 0; i < p->num_sacks; ++i)
      sacks.push_back(p->sack(i));
    acks.push_back({sim->now(), p->seq, sacks, p->echo});
    pool->release(p);
  }
};

struct Harness {
  Simulator sim;
  net::PacketPool pool;
  tcp::TcpConfig cfg;
  AckLog log;  // the receiver's first hop: ACKs are recorded as they are sent
  net::RouteCounters counters;
  net::Route ack_route;
  std::unique_ptr<tcp::TcpReceiver> rx;

  explicit Harness(bool sack, bool delayed = true) {
    cfg.sack = sack;
    cfg.delayed_ack = delayed;
    log.pool = &pool;
    log.sim = &sim;
    ack_route.counters = &counters;
    rx = std::make_unique<tcp::TcpReceiver>(sim, pool, cfg, &ack_route, log);
  }
  /// Delivers data segment `seq` (sent at time `sent_us`) at the current time.
  void data(uint64_t seq, int64_t sent_us = 0) {
    net::Packet* p = pool.acquire();
    p->seq = seq;
    p->echo = Time::at(Duration::microseconds(sent_us));
    rx->receive(p);
  }
  void advance_ms(int64_t ms) { sim.run_until(sim.now() + Duration::milliseconds(ms)); }
};

/// Event that appends its id to a shared order log.
struct Marker final : Event {
  int id;
  std::vector<int>* order;
  Marker(int i, std::vector<int>* o) : id(i), order(o) {}
  void fire() override { order->push_back(id); }
};

/// Becomes the harness receiver's first hop: each ACK appends -1 to the order log, then is recorded.
struct OrderedAcks final : net::PacketSink {
  AckLog* log;
  std::vector<int>* order;
  OrderedAcks(Harness& h, std::vector<int>& o) : log(&h.log), order(&o) {
    h.rx = std::make_unique<tcp::TcpReceiver>(h.sim, h.pool, h.cfg, &h.ack_route, *this);
  }
  void receive(net::Packet* p) override {
    order->push_back(-1);
    log->receive(p);
  }
};

bool same(const std::vector<net::SackBlock>& a, const std::vector<std::pair<uint64_t, uint64_t>>& b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].start != b[i].first || a[i].end != b[i].second)
      return false;
  }
  return true;
}

}  // namespace

TEST_CASE("delayed ACK: every second segment, or the timer for a lone one", "[tcp][receiver]") {
  Harness h(false);
  h.data(0, 10);
  CHECK(h.log.acks.empty());
  h.data(1, 20);
  REQUIRE(h.log.acks.size() == 1);
  CHECK(h.log.acks[0].ack == 2);
  CHECK(h.log.acks[0].echo == Time::at(Duration::microseconds(20)));  // the segment that triggered it
  h.data(2, 30);
  h.advance_ms(39);
  CHECK(h.log.acks.size() == 1);
  h.advance_ms(2);  // the 40 ms timer fires
  REQUIRE(h.log.acks.size() == 2);
  CHECK(h.log.acks[1].ack == 3);
  h.advance_ms(100);  // and does not fire again
  CHECK(h.log.acks.size() == 2);
}

TEST_CASE("delayed ACK: a timer left pending from an acknowledged segment moves on to the held one's deadline",
          "[tcp][receiver]") {
  // Segment 0 at 0 ms arms the 40-ms timer; segment 1 at 10 ms is acknowledged at once, and
  // the timer stays pending; segment 2 at 25 ms is held back: its ACK is due at 65 ms,
  // not at 40 ms when the old timer fires. Among events due at 65 ms, the ACK goes after
  // those scheduled before 25 ms and before those scheduled after, as a timer armed at
  // 25 ms would.
  Harness h(false);
  std::vector<int> order;
  OrderedAcks mark(h, order);
  Marker early(1, &order), late(2, &order);
  const Time due = Time::at(Duration::milliseconds(65));
  h.data(0, 0);
  h.advance_ms(10);
  h.data(1, 10);
  REQUIRE(h.log.acks.size() == 1);
  h.advance_ms(10);  // 20 ms
  h.sim.schedule_at(early, due);
  h.advance_ms(5);  // 25 ms
  h.data(2, 25);
  h.advance_ms(5);  // 30 ms
  h.sim.schedule_at(late, due);
  h.advance_ms(34);  // 64 ms: the old timer fired at 40 ms and sent nothing
  CHECK(h.log.acks.size() == 1);
  h.advance_ms(2);
  REQUIRE(h.log.acks.size() == 2);
  CHECK(h.log.acks[1].at == due);
  CHECK(h.log.acks[1].ack == 3);
  CHECK(order == std::vector<int>{-1, 1, -1, 2});  // the first ACK (10 ms), then the ties at 65 ms
  h.advance_ms(200);
  CHECK(h.log.acks.size() == 2);
}

TEST_CASE("delayed ACK: a held segment due when the pending timer fires still takes its own tie order",
          "[tcp][receiver]") {
  // Three segments at the same instant (a pipe's batch): 0 arms the timer, 1 is ACKed, 2
  // is held with the same deadline as the pending timer. A marker scheduled between 0 and
  // 2 for that deadline fires before the ACK, as with a timer armed at segment 2.
  Harness h(false);
  std::vector<int> order;
  OrderedAcks mark(h, order);
  Marker marker(1, &order);
  const Time due = Time::at(Duration::milliseconds(40));
  h.data(0, 0);
  h.sim.schedule_at(marker, due);
  h.data(1, 0);
  REQUIRE(h.log.acks.size() == 1);
  h.data(2, 0);
  h.advance_ms(41);
  REQUIRE(h.log.acks.size() == 2);
  CHECK(h.log.acks[1].at == due);
  CHECK(h.log.acks[1].ack == 3);
  CHECK(order == std::vector<int>{-1, 1, -1});  // the immediate ACK, the marker, the delayed ACK
  h.advance_ms(200);
  CHECK(h.log.acks.size() == 2);
}

TEST_CASE("without delayed ACK every segment is acknowledged", "[tcp][receiver]") {
  Harness h(false, false);
  for (uint64_t s = 0; s < 5; ++s)
    h.data(s);
  CHECK(h.log.acks.size() == 5);
  CHECK(h.log.acks.back().ack == 5);
}

TEST_CASE("out-of-order data, hole fills and duplicates are ACKed at once with SACK blocks", "[tcp][receiver][sack]") {
  Harness h(true);
  h.data(0);
  h.data(1);  // ACK 2
  h.data(4);  // hole at 2-3
  REQUIRE(h.log.acks.size() == 2);
  CHECK(h.log.acks[1].ack == 2);
  CHECK(same(h.log.acks[1].sacks, {{4, 5}}));
  h.data(5);
  CHECK(same(h.log.acks[2].sacks, {{4, 6}}));
  h.data(8);  // a second hole at 6-7: the newest block first
  CHECK(h.log.acks[3].ack == 2);
  CHECK(same(h.log.acks[3].sacks, {{8, 9}, {4, 6}}));
  h.data(6);  // extends the lower block: it is reported first now
  CHECK(same(h.log.acks[4].sacks, {{4, 7}, {8, 9}}));
  h.data(2);  // partial hole fill: immediate ACK, still out of order above
  CHECK(h.log.acks[5].ack == 3);
  h.data(3);  // fills the first hole: cumulative ACK jumps over the block
  CHECK(h.log.acks[6].ack == 7);
  CHECK(same(h.log.acks[6].sacks, {{8, 9}}));
  h.data(7);
  CHECK(h.log.acks[7].ack == 9);
  CHECK(h.log.acks[7].sacks.empty());
  h.data(3);  // a duplicate of delivered data: immediate ACK
  CHECK(h.log.acks.size() == 9);
  CHECK(h.log.acks[8].ack == 9);
  CHECK(h.rx->counters().segments_delivered == 9);
  CHECK(h.rx->counters().data_arrivals == 10);
}

TEST_CASE("without SACK the receiver sends plain duplicate ACKs", "[tcp][receiver]") {
  Harness h(false);
  h.data(0);
  h.data(2);
  h.data(3);
  REQUIRE(h.log.acks.size() == 2);
  for (const auto& a : h.log.acks) {
    CHECK(a.ack == 1);
    CHECK(a.sacks.empty());
  }
}
