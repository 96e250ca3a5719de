// AQM disciplines against their specifications, driven packet by packet with chosen
// enqueue and dequeue times: CoDel's control law (RFC 8289 Section 5), FQ-CoDel's
// scheduler (RFC 8290 Section 4) and PIE's probability update and enqueue test
// (RFC 8033 Section 4 and Appendix), and an AQM link's statistics and conservation.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <vector>

#include "../support/link_bench.hpp"
#include "fastsim/net/codel.hpp"
#include "fastsim/net/fq_codel.hpp"
#include "fastsim/net/link.hpp"
#include "fastsim/net/pie.hpp"

using namespace fastsim;
using namespace fastsim::net;

namespace {

Time ms(double v) {
  return Time::at(Duration::seconds(v / 1000.0));
}

/// Records the times of the drops a discipline makes and returns the packets to the pool.
struct DropLog final : AqmDropSink {
  PacketPool* pool = nullptr;
  Time now;
  std::vector<Time> times;
  std::vector<bool> early;
  void aqm_drop(Packet* p, bool e) override {
    times.push_back(now);
    early.push_back(e);
    pool->release(p);
  }
};

/// Drives a discipline by hand: packets of 1500 bytes on one or more routes.
struct Driver {
  PacketPool pool;
  DropLog drops;
  RouteCounters counters;
  std::vector<Route> routes = std::vector<Route>(4);
  Driver() {
    drops.pool = &pool;
    for (auto& r : routes)
      r.counters = &counters;
  }
  Packet* make(uint32_t bytes = 1500, size_t route = 0) {
    Packet* p = pool.acquire();
    p->size_bytes = bytes;
    p->route = &routes[route];
    return p;
  }
  void enqueue(AqmQueue& q, Time t, uint32_t bytes = 1500, size_t route = 0) {
    drops.now = t;
    q.enqueue(make(bytes, route), t);
  }
  /// Dequeues at `t`; returns the packet's route index (-1 if none) and releases it.
  int dequeue(AqmQueue& q, Time t) {
    drops.now = t;
    Packet* p = q.dequeue(t);
    if (p == nullptr)
      return -1;
    const int r = static_cast<int>(p->route - routes.data());
    pool.release(p);
    return r;
  }
};

const BufferLimit kBig{1'000'000, 0};

/// A standing queue whose packets wait `wait_ms` (one enqueue and one dequeue per ms,
/// `extra` more enqueues per ms), from 0 to `until_ms`.
void standing_queue(Driver& d, AqmQueue& q, int wait_ms, int until_ms, int extra = 0, int from_ms = 0) {
  for (int t = from_ms; t < from_ms + wait_ms; ++t)
    d.enqueue(q, ms(t));
  for (int t = from_ms + wait_ms; t <= until_ms; ++t) {
    d.enqueue(q, ms(t));
    for (int k = 0; k < extra; ++k)
      d.enqueue(q, ms(t));
    d.dequeue(q, ms(t));
  }
}

}  // namespace

TEST_CASE("CoDel: no drop while the sojourn time stays below target", "[aqm][codel]") {
  Driver d;
  CodelQueue q(d.drops, kBig, aqm_defaults(AqmKind::kCodel));
  standing_queue(d, q, 4, 20'000);  // 4 ms < 5 ms for 20 s
  CHECK(d.drops.times.empty());
  CHECK(q.stats().dequeued == 20'000 - 4 + 1);
  CHECK(q.stats().mean_sojourn_s() == Approx(0.004).margin(1e-9));
}

TEST_CASE("CoDel: the first drop comes once the sojourn has been above target for one interval", "[aqm][codel]") {
  Driver d;
  CodelQueue q(d.drops, kBig, aqm_defaults(AqmKind::kCodel));
  // 6 ms of queueing from t = 6 ms (the first dequeue): first_above_time = 106 ms.
  standing_queue(d, q, 6, 105);
  CHECK(d.drops.times.empty());
  CHECK(!q.control().dropping());
  standing_queue(d, q, 0, 106, 0, 106);
  REQUIRE(d.drops.times.size() == 1);
  CHECK(d.drops.times.front() == ms(106));
  CHECK(d.drops.early.front());
  CHECK(q.control().dropping());
  CHECK(q.control().drop_next() == ms(206));
}

TEST_CASE("CoDel: drops in the dropping state are spaced interval / sqrt(count)", "[aqm][codel]") {
  Driver d;
  CodelQueue q(d.drops, kBig, aqm_defaults(AqmKind::kCodel));
  // Two arrivals per ms and one departure: the sojourn only grows, CoDel keeps dropping.
  standing_queue(d, q, 6, 1500, 1);
  REQUIRE(d.drops.times.size() >= 20);
  // drop_next advances by 100 ms / sqrt(count) from the first drop; drops happen at the
  // first dequeue (every ms) at or after it.
  double next = d.drops.times[0].to_seconds();
  for (size_t k = 1; k < 20; ++k) {
    next += 0.1 / std::sqrt(static_cast<double>(k));
    CHECK(d.drops.times[k].to_seconds() >= next - 1e-9);
    CHECK(d.drops.times[k].to_seconds() < next + 0.001 + 1e-9);
  }
  CHECK(q.control().count() == d.drops.times.size());
}

TEST_CASE("CoDel: re-entering the dropping state soon reuses the count", "[aqm][codel]") {
  const auto episode = [](Driver& d, CodelQueue& q, int from_ms) {
    standing_queue(d, q, 6, from_ms + 400, 1, from_ms);
    while (d.dequeue(q, ms(from_ms + 400)) >= 0) {  // drain: the sojourn goes below target
    }
  };
  SECTION("within 16 intervals: count - lastcount") {
    Driver d;
    CodelQueue q(d.drops, kBig, aqm_defaults(AqmKind::kCodel));
    episode(d, q, 0);
    CHECK(!q.control().dropping());
    const uint32_t first = q.control().count();
    REQUIRE(first > 2);
    const size_t before = d.drops.times.size();
    episode(d, q, 500);
    REQUIRE(d.drops.times.size() > before);
    // The second episode starts with count = first - 1 (lastcount was 1) and its next
    // drop comes interval / sqrt(first - 1) later.
    const double gap = (d.drops.times[before + 1] - d.drops.times[before]).to_seconds();
    CHECK(gap == Approx(0.1 / std::sqrt(first - 1.0)).margin(0.0015));
  }
  SECTION("after 16 intervals: from 1") {
    Driver d;
    CodelQueue q(d.drops, kBig, aqm_defaults(AqmKind::kCodel));
    episode(d, q, 0);
    const size_t before = d.drops.times.size();
    episode(d, q, 2500);
    REQUIRE(d.drops.times.size() > before + 1);
    const double gap = (d.drops.times[before + 1] - d.drops.times[before]).to_seconds();
    CHECK(gap == Approx(0.1).margin(0.0015));
  }
}

TEST_CASE("CoDel: nothing is dropped with at most one MTU queued", "[aqm][codel]") {
  Driver d;
  CodelQueue q(d.drops, kBig, aqm_defaults(AqmKind::kCodel));
  // One packet waits 50 ms each time, alone in the queue.
  for (int t = 0; t < 10'000; t += 50) {
    d.enqueue(q, ms(t));
    d.dequeue(q, ms(t + 50));
  }
  CHECK(d.drops.times.empty());
}

TEST_CASE("FQ-CoDel: DRR gives equal bytes to flows of 1500- and 500-byte packets", "[aqm][fq_codel]") {
  Driver d;
  FqCodelQueue q(d.drops, kBig, aqm_defaults(AqmKind::kFqCodel), 1);
  REQUIRE(q.flow_of(*d.make(1500, 0)) != q.flow_of(*d.make(500, 1)));
  for (int i = 0; i < 3000; ++i) {
    d.enqueue(q, Time::zero(), 1500, 0);
    d.enqueue(q, Time::zero(), 500, 1);
    d.enqueue(q, Time::zero(), 500, 1);
    d.enqueue(q, Time::zero(), 500, 1);
  }
  std::map<int, uint64_t> bytes;
  for (int i = 0; i < 4000; ++i) {
    const int r = d.dequeue(q, Time::zero());  // no time passes: CoDel never drops
    bytes[r] += r == 0 ? 1500 : 500;
  }
  CHECK(static_cast<double>(bytes[0]) / static_cast<double>(bytes[1]) == Approx(1.0).margin(0.01));
  CHECK(d.drops.times.empty());
}

TEST_CASE("FQ-CoDel: a new sparse flow is served before the backlogged one", "[aqm][fq_codel]") {
  Driver d;
  FqCodelQueue q(d.drops, kBig, aqm_defaults(AqmKind::kFqCodel), 1);
  for (int i = 0; i < 100; ++i)
    d.enqueue(q, Time::zero(), 1500, 0);
  for (int i = 0; i < 10; ++i)
    CHECK(d.dequeue(q, Time::zero()) == 0);
  d.enqueue(q, Time::zero(), 200, 1);  // a sparse flow arrives behind 90 packets
  CHECK(d.dequeue(q, Time::zero()) == 1);
  CHECK(d.dequeue(q, Time::zero()) == 0);
}

TEST_CASE("FQ-CoDel: over the limit it drops from the head of the fattest queue", "[aqm][fq_codel]") {
  Driver d;
  FqCodelQueue q(d.drops, BufferLimit{10, 0}, aqm_defaults(AqmKind::kFqCodel), 1);
  for (int i = 0; i < 8; ++i)
    d.enqueue(q, Time::zero(), 1500, 0);
  d.enqueue(q, Time::zero(), 100, 1);
  d.enqueue(q, Time::zero(), 100, 1);
  CHECK(d.drops.times.empty());
  d.enqueue(q, Time::zero(), 100, 1);  // 11 > 10: the 1500-byte flow loses a packet
  CHECK(d.drops.times.size() == 1);
  CHECK(!d.drops.early.front());
  CHECK(q.packets() == 10);
  CHECK(q.bytes() == 7 * 1500 + 3 * 100);
  CHECK(q.stats().overflow_drops == 1);
}

TEST_CASE("PIE: the update follows alpha (qdelay - target) + beta (qdelay - qdelay_old), scaled", "[aqm][pie]") {
  Simulator sim;
  Driver d;
  PieQueue q(sim, d.drops, kBig, aqm_defaults(AqmKind::kPie), 1, "l");
  for (int i = 0; i < 10; ++i)
    d.enqueue(q, Time::zero());
  d.dequeue(q, ms(30));  // qdelay = 30 ms (packets remain)
  CHECK(q.qdelay() == Duration::milliseconds(30));
  q.update();
  // p = 0.125 * 0.015 + 1.25 * 0.030 = 0.039375, /2048 while the probability is < 1e-6.
  const double p1 = 0.039375 / 2048;
  CHECK(q.drop_prob() == Approx(p1).epsilon(1e-9));
  q.update();  // qdelay_old = 30 ms now: p = 0.001875, /128 (1e-5 <= prob < 1e-4)
  const double p2 = p1 + 0.001875 / 128;
  CHECK(q.drop_prob() == Approx(p2).epsilon(1e-9));
  // Burst allowance: 150 ms less 15 ms per update.
  CHECK(q.burst_allowance() == Duration::milliseconds(120));
}

TEST_CASE("PIE: steps are capped at 0.02 above 0.1 and the probability decays without delay", "[aqm][pie]") {
  Simulator sim;
  Driver d;
  PieQueue q(sim, d.drops, kBig, aqm_defaults(AqmKind::kPie), 1, "l");
  for (int i = 0; i < 2000; ++i)
    d.enqueue(q, Time::zero());
  d.dequeue(q, ms(200));  // qdelay = 200 ms, far above target
  double prev = 0;
  bool capped = false;
  for (int i = 0; i < 400 && q.drop_prob() < 0.5; ++i) {
    q.update();
    if (prev >= 0.1) {
      CHECK(q.drop_prob() - prev <= 0.02 + 1e-12);
      capped = capped || q.drop_prob() - prev == Approx(0.02);
    }
    prev = q.drop_prob();
  }
  CHECK(capped);
  CHECK(q.drop_prob() >= 0.5);
  while (d.dequeue(q, ms(300)) >= 0) {  // empty: qdelay = 0
  }
  q.update();  // qdelay_old was 200 ms: the beta term brings it down
  const double before = q.drop_prob();
  REQUIRE(before >= 0.1);  // no scaling of the step
  q.update();              // qdelay and qdelay_old both 0: p = -alpha target, then x0.98
  CHECK(q.drop_prob() == Approx((before - 0.125 * 0.015) * 0.98).epsilon(1e-9));
}

TEST_CASE("PIE: no early drop during the burst allowance, drops once it is used up", "[aqm][pie]") {
  Simulator sim;
  Driver d;
  PieQueue q(sim, d.drops, kBig, aqm_defaults(AqmKind::kPie), 1, "l");
  for (int i = 0; i < 200; ++i)
    d.enqueue(q, Time::zero());
  d.dequeue(q, ms(1000));  // 1 s of delay (above 250 ms: +0.02 per update)
  for (int i = 0; i < 9; ++i)
    q.update();  // 9 x 15 ms < 150 ms: still some allowance
  REQUIRE(q.drop_prob() > 0.1);
  REQUIRE(q.burst_allowance() > Duration::zero());
  for (int i = 0; i < 500; ++i)
    d.enqueue(q, ms(1000));
  CHECK(d.drops.times.empty());
  q.update();
  q.update();
  REQUIRE(q.burst_allowance() == Duration::zero());
  const int n = 20'000;
  for (int i = 0; i < n; ++i)
    d.enqueue(q, ms(1000));
  // De-randomized (Section 5.1): after a drop no drop until the accumulated probability
  // reaches 0.85 (n0 arrivals), then each arrival with the probability: a mean gap of
  // n0 - 1 + 1 / p arrivals.
  const double p = q.drop_prob();
  const double gap = std::ceil(0.85 / p) - 1 + 1 / p;
  const double frac = static_cast<double>(d.drops.times.size()) / n;
  CHECK(frac == Approx(1 / gap).epsilon(0.1));
  CHECK(frac < p * 0.8);  // plain Bernoulli dropping would drop p of them
  CHECK(q.stats().aqm_drops == d.drops.times.size());
}

TEST_CASE("an AQM link keeps the link's counters and conserves packets", "[aqm][link]") {
  for (AqmKind kind : {AqmKind::kCodel, AqmKind::kFqCodel, AqmKind::kPie}) {
    LinkConfig cfg{"l", Rate{10'000'000}, Duration::milliseconds(5), {200, 0}, 0.0, {}, {}};
    cfg.aqm = aqm_defaults(kind);
    Bench b(cfg);
    Injector inj;
    inj.b = &b;
    inj.every = serialization_time(1500, Rate{10'000'000}) / 2;  // twice the rate
    inj.limit = 20'000;
    b.sim.schedule_at(inj, Time::zero());
    for (int t = 1; t <= 30; ++t) {
      b.sim.run_until(Time::at(Duration::seconds_int(t) / 10));
      const auto& c = b.link.counters();
      CHECK(c.arrivals == c.drops + c.departures + c.random_losses + b.link.packets_on_link());
      CHECK(b.pool.live() == b.link.packets_on_link());
      CHECK(b.link.queue_packets() <= 200);
    }
    const auto& c = b.link.counters();
    // Saturated: busy all the time, and the delivered rate is the link's.
    CHECK(c.busy.to_seconds() == Approx(3.0).margin(0.002));
    CHECK(static_cast<double>(b.sink.times.size()) * 1500 * 8 / 3.0 == Approx(10e6).epsilon(0.01));
    CHECK(c.drops > 0);
    CHECK(c.early_drops == b.link.aqm()->stats().aqm_drops);
    CHECK(c.drops == b.link.aqm()->stats().aqm_drops + b.link.aqm()->stats().overflow_drops);
    CHECK(c.max_queue_pkts <= 200);
    CHECK(c.early_drops > 0);
  }
}

TEST_CASE("a link next to an AQM link is never chained", "[aqm][link]") {
  Simulator sim;
  PacketPool pool;
  LinkConfig a{"a", Rate{10'000'000}, Duration::milliseconds(1), {100, 0}, 0.0, {}, {}};
  LinkConfig q{"q", Rate{10'000'000}, Duration::milliseconds(1), {100, 0}, 0.0, {}, {}};
  LinkConfig z{"z", Rate{10'000'000}, Duration::milliseconds(1), {100, 0}, 0.0, {}, {}};
  q.aqm = aqm_defaults(AqmKind::kCodel);
  Link la(sim, pool, a, 1), lq(sim, pool, q, 1), lz(sim, pool, z, 1);
  Route r;
  r.links = {&la, &lq, &lz};
  const Route* routes[] = {&r};
  wire_single_fed_links(routes);
  CHECK(lq.single_feeder() == nullptr);
  CHECK(lz.single_feeder() == nullptr);
  // Without the AQM the same chain is wired.
  LinkConfig q2 = q;
  q2.aqm.reset();
  Link lq2(sim, pool, q2, 1);
  r.links = {&la, &lq2, &lz};
  wire_single_fed_links(routes);
  CHECK(lq2.single_feeder() == &la);
  CHECK(lz.single_feeder() == &lq2);
}

TEST_CASE("FQ-CoDel link: a sparse flow's packets see almost no queueing behind a flood", "[aqm][fq_codel][link]") {
  // A 10 Mb/s link with a flood at twice its rate (route 0) and one 200-byte packet every
  // 10 ms on route 1: each sparse packet is a new flow, served after at most the packet
  // in transmission (1.2 ms), while the flood's packets wait up to the buffer.
  const auto run = [](bool fq) {
    LinkConfig cfg{"l", Rate{10'000'000}, Duration::milliseconds(2), {1000, 0}, 0.0, {}, {}};
    if (fq)
      cfg.aqm = aqm_defaults(AqmKind::kFqCodel);
    Bench b(cfg);
    RouteCounters sparse_counters;
    struct Recorder final : PacketSink {
      Bench* b = nullptr;
      std::vector<double> delays;
      void receive(Packet* p) override {
        delays.push_back((b->sim.now() - p->echo).to_seconds());
        b->pool.release(p);
      }
    } rec;
    rec.b = &b;
    Route sparse;
    sparse.links = {&b.link};
    sparse.sink = &rec;
    sparse.counters = &sparse_counters;
    Injector flood;
    flood.b = &b;
    flood.every = serialization_time(1500, Rate{10'000'000}) / 2;
    flood.limit = UINT64_MAX;
    b.sim.schedule_at(flood, Time::zero());
    for (int i = 1; i <= 200; ++i) {
      b.sim.call_at(Time::at(Duration::milliseconds(10) * i), [&b, &sparse] {
        Packet* p = b.pool.acquire();
        p->route = &sparse;
        p->size_bytes = 200;
        p->echo = b.sim.now();
        b.link.enqueue(p);
      });
    }
    b.sim.run_until(Time::at(Duration::milliseconds(2010)));
    b.sim.clear();
    return rec.delays;
  };
  const auto fq = run(true);
  REQUIRE(fq.size() == 200);
  // Propagation 2 ms + own serialization 0.16 ms + at most one 1500-byte packet (1.2 ms).
  for (double d : fq)
    CHECK(d <= 0.002 + 0.00016 + 0.0012 + 1e-9);
  const auto fifo = run(false);
  REQUIRE(!fifo.empty());
  CHECK(fifo.back() > 0.5);  // drop-tail: behind a full 1000-packet buffer (1.2 s)
}

TEST_CASE("an AQM link loses packets on its wire at the configured rate and by injection", "[aqm][link]") {
  LinkConfig cfg{"l", Rate{10'000'000}, Duration::milliseconds(3), {100, 0}, 0.1, {}, {}};
  cfg.aqm = aqm_defaults(AqmKind::kCodel);
  Bench b(cfg);
  Injector inj;
  inj.b = &b;
  inj.every = serialization_time(1500, Rate{10'000'000}) * 2;  // half the rate: no queue drops
  inj.limit = 5000;
  b.sim.schedule_at(inj, Time::zero());
  b.link.inject_losses_at(Time::at(Duration::seconds_int(20)), 50);  // after the last packet: no effect
  b.sim.run_until(Time::at(Duration::seconds_int(13)));
  const auto& c = b.link.counters();
  CHECK(c.arrivals == 5000);
  CHECK(c.drops == 0);
  CHECK(c.random_losses + c.departures == 5000);
  CHECK(c.random_losses == b.counters.random_losses);
  // Binomial(5000, 0.1): mean 500, sd 21.
  CHECK(c.random_losses > 430);
  CHECK(c.random_losses < 570);
  CHECK(b.pool.live() == 0);

  // Injected losses: the next 7 packets to arrive after the change are lost.
  b.link.set_loss_rate(0.0);
  b.link.inject_losses(7);
  const uint64_t before = c.random_losses;
  for (uint64_t i = 0; i < 20; ++i)
    b.inject(i);
  b.sim.run_until(Time::at(Duration::seconds_int(14)));
  CHECK(b.link.counters().random_losses == before + 7);
  CHECK(b.link.counters().departures == 5000 - before + 13);
}
