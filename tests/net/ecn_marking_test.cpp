// ECN marking at a link's queue: the step-threshold marker (mark CE when an ECN-capable
// packet finds at least K packets waiting), RED with ecn (mark instead of an early drop for
// ECN-capable packets, drop the others, force-drop everything where p_b = 1), and chained
// links marking exactly as links fed by delivery events.
#include <catch2/catch.hpp>

#include <vector>

#include "fastsim/net/link.hpp"

using namespace fastsim;
using namespace fastsim::net;

namespace {

struct EcnSink final : PacketSink {
  PacketPool* pool = nullptr;
  Simulator* sim = nullptr;
  std::vector<uint64_t> seqs;
  std::vector<bool> ce;
  std::vector<Time> times;
  void receive(Packet* p) override {
    seqs.push_back(p->seq);
    ce.push_back(p->ce());
    times.push_back(sim->now());
    pool->release(p);
  }
};

LinkConfig link_config(const char* id, uint64_t rate_bps, uint64_t buffer_pkts) {
  LinkConfig c;
  c.id = id;
  c.rate = Rate{rate_bps};
  c.delay = Duration::milliseconds(1);
  c.buffer = {buffer_pkts, 0};
  return c;
}

/// Host -> fast link -> slow link -> sink; the slow link optionally chained.
struct Path {
  Simulator sim;
  PacketPool pool;
  Link fast;
  Link slow;
  EcnSink sink;
  RouteCounters counters;
  Route route;
  Path(LinkConfig slow_cfg, bool chained)
      : fast(sim, pool, link_config("fast", 1'000'000'000, 1000), 7), slow(sim, pool, std::move(slow_cfg), 7) {
    sink.pool = &pool;
    sink.sim = &sim;
    route.links = {&fast, &slow};
    route.sink = &sink;
    route.counters = &counters;
    const Route* routes[] = {&route};
    if (chained)
      wire_single_fed_links(routes);
  }
  void send(uint64_t seq, uint8_t ecn) {
    Packet* p = pool.acquire();
    p->route = &route;
    p->size_bytes = 1500;
    p->seq = seq;
    p->ecn = ecn;
    fast.enqueue(p);
  }
};

/// One link; packets enter it directly.
struct Single {
  Simulator sim;
  PacketPool pool;
  Link link;
  EcnSink sink;
  RouteCounters counters;
  Route route;
  explicit Single(LinkConfig cfg) : link(sim, pool, std::move(cfg), 7) {
    sink.pool = &pool;
    sink.sim = &sim;
    route.links = {&link};
    route.sink = &sink;
    route.counters = &counters;
  }
  void send(uint64_t seq, uint8_t ecn) {
    Packet* p = pool.acquire();
    p->route = &route;
    p->size_bytes = 1500;
    p->seq = seq;
    p->ecn = ecn;
    link.enqueue(p);
  }
  void run_for(Duration d) { sim.run_until(sim.now() + d); }
};

}  // namespace

TEST_CASE("the step marker marks ECN-capable packets that find at least K waiting", "[ecn][marking]") {
  LinkConfig cfg = link_config("l", 10'000'000, 100);
  cfg.marking = MarkingParams{5};
  REQUIRE(cfg.marks_ecn());
  SECTION("all ECN-capable: exactly from the packet that finds K waiting") {
    Single s(cfg);
    for (uint64_t i = 0; i < 20; ++i)
      s.send(i, ecn::kEct0);  // packet i finds max(i - 1, 0) waiting (packet 0 is in service)
    s.run_for(Duration::seconds_int(1));
    REQUIRE(s.sink.ce.size() == 20);
    for (uint64_t i = 0; i < 20; ++i)
      CHECK(s.sink.ce[i] == (i >= 6));
    CHECK(s.link.counters().ce_marks == 14);
    CHECK(s.link.counters().drops == 0);
  }
  SECTION("Not-ECT packets are never marked") {
    Single s(cfg);
    for (uint64_t i = 0; i < 20; ++i)
      s.send(i, i % 2 == 0 ? ecn::kEct0 : ecn::kNotEct);
    s.run_for(Duration::seconds_int(1));
    REQUIRE(s.sink.ce.size() == 20);
    for (uint64_t i = 0; i < 20; ++i)
      CHECK(s.sink.ce[i] == (i % 2 == 0 && i >= 6));
    CHECK(s.link.counters().ce_marks == 7);
  }
  SECTION("the buffer still drops") {
    cfg.buffer = {8, 0};
    Single s(cfg);
    for (uint64_t i = 0; i < 20; ++i)
      s.send(i, ecn::kEct0);
    s.run_for(Duration::seconds_int(1));
    CHECK(s.link.counters().drops == 11);    // 1 in service + 8 waiting admitted
    CHECK(s.link.counters().ce_marks == 3);  // packets 6, 7, 8 found 5, 6, 7 waiting
  }
}

TEST_CASE("RED with ecn marks ECN-capable packets instead of dropping them early", "[ecn][marking][red]") {
  RedParams red;
  red.min_th = 5;
  red.max_th = 15;
  red.max_p = 0.1;
  red.weight = 1;  // the average is the instantaneous queue
  red.ecn = true;
  SECTION("the gate: marks in the early region, drops Not-ECT, force-drops beyond") {
    RedGate gate(red, Duration::microseconds(12), 7, "g");
    uint64_t marks = 0, drops = 0, forced = 0;
    for (int i = 0; i < 10'000; ++i) {
      switch (gate.decide(12, false, Time::zero(), Time::zero(), true)) {
        case RedVerdict::kMark:
          ++marks;
          break;
        case RedVerdict::kDrop:
          ++drops;
          break;
        case RedVerdict::kAdmit:
          break;
      }
    }
    CHECK(drops == 0);
    // p_b = 0.07; spread with the count the fraction is 2 p_b / (1 + p_b) = 0.131.
    CHECK(static_cast<double>(marks) / 10'000 == Approx(2 * 0.07 / 1.07).epsilon(0.1));
    for (int i = 0; i < 10'000; ++i)
      drops += gate.decide(12, false, Time::zero(), Time::zero(), false) == RedVerdict::kDrop ? 1 : 0;
    CHECK(static_cast<double>(drops) / 10'000 == Approx(2 * 0.07 / 1.07).epsilon(0.1));
    for (int i = 0; i < 100; ++i)  // gentle: p_b = 1 from 2 max_th
      forced += gate.decide(31, false, Time::zero(), Time::zero(), true) == RedVerdict::kDrop ? 1 : 0;
    CHECK(forced == 100);
    red.ecn = false;
    RedGate plain(red, Duration::microseconds(12), 7, "g");
    uint64_t plain_marks = 0;
    for (int i = 0; i < 1'000; ++i)
      plain_marks += plain.decide(12, false, Time::zero(), Time::zero(), true) == RedVerdict::kMark ? 1 : 0;
    CHECK(plain_marks == 0);
  }
  SECTION("on a link") {
    auto run = [&](uint8_t codepoint) {
      LinkConfig cfg = link_config("l", 10'000'000, 100);
      cfg.red = red;
      Single s(cfg);
      for (uint64_t burst = 0; burst < 50; ++burst) {  // queues up to 13: never p_b = 1
        for (uint64_t i = 0; i < 14; ++i)
          s.send(burst * 14 + i, codepoint);
        s.run_for(Duration::milliseconds(50));  // drains (14 x 1.2 ms)
      }
      return s.link.counters();
    };
    const LinkCounters ect = run(ecn::kEct0);
    const LinkCounters not_ect = run(ecn::kNotEct);
    CHECK(ect.drops == 0);
    CHECK(ect.ce_marks > 5);
    CHECK(not_ect.ce_marks == 0);
    CHECK(not_ect.early_drops > 5);
    CHECK(not_ect.drops == not_ect.early_drops);
  }
}

TEST_CASE("a chained link marks exactly as one fed by delivery events", "[ecn][marking][chain]") {
  for (bool use_red : {false, true}) {
    LinkConfig cfg = link_config("slow", 10'000'000, 20);
    if (use_red) {
      RedParams red;
      red.min_th = 3;
      red.max_th = 10;
      red.weight = 0.2;
      red.max_p = 0.5;
      red.ecn = true;
      cfg.red = red;
    } else {
      cfg.marking = MarkingParams{4};
    }
    Path events(cfg, false), chained(cfg, true);
    REQUIRE(chained.slow.single_feeder() == &chained.fast);
    for (Path* p : {&events, &chained}) {
      for (uint64_t i = 0; i < 60; ++i)  // bursts into the fast link; the slow one queues
        p->send(i, i % 3 == 2 ? ecn::kNotEct : ecn::kEct0);
    }
    uint64_t last = 0;
    for (int ms = 1; ms <= 100; ms += 3) {
      const Time t = Time::at(Duration::milliseconds(ms));
      events.sim.run_until(t);
      chained.sim.run_until(t);
      // Counted at the true arrival time, whichever way the packets came.
      CHECK(chained.slow.counters().ce_marks == events.slow.counters().ce_marks);
      CHECK(chained.slow.counters().drops == events.slow.counters().drops);
      last = events.slow.counters().ce_marks;
    }
    CHECK(last > 5);
    CHECK(chained.sink.seqs == events.sink.seqs);
    CHECK(chained.sink.ce == events.sink.ce);
    CHECK(chained.sink.times == events.sink.times);
  }
}
