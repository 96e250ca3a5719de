// Link physics: exact serialization and propagation, throughput equal to the rate,
// drop-tail drops exactly at capacity (packets and bytes), Bernoulli loss rate,
// FIFO order, exact queue integral, and conservation.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "../support/link_bench.hpp"
#include "fastsim/net/link.hpp"

using namespace fastsim;
using namespace fastsim::net;

TEST_CASE("a burst departs back to back after exact serialization and delay", "[link]") {
  Bench b({"l", Rate{100'000'000}, Duration::milliseconds(10), {100, 0}, 0.0, {}, {}, {}});
  for (uint64_t i = 0; i < 5; ++i)
    b.inject(i);
  b.sim.run_until(Time::at(Duration::seconds_int(1)));
  REQUIRE(b.sink.times.size() == 5);
  for (size_t i = 0; i < 5; ++i) {
    CHECK(b.sink.seqs[i] == i);
    CHECK(b.sink.times[i] ==
          Time::at(Duration::microseconds(120) * static_cast<int64_t>(i + 1) + Duration::milliseconds(10)));
  }
}

TEST_CASE("drop-tail drops exactly what exceeds the buffer", "[link]") {
  SECTION("packets") {
    Bench b({"l", Rate{100'000'000}, Duration::milliseconds(1), {50, 0}, 0.0, {}, {}, {}});
    for (uint64_t i = 0; i < 80; ++i)
      b.inject(i);
    CHECK(b.link.queue_packets() == 50);  // one more is being serialized
    b.sim.run_until(Time::at(Duration::seconds_int(1)));
    CHECK(b.sink.times.size() == 51);
    CHECK(b.link.counters().drops == 29);
    CHECK(b.counters.queue_drops == 29);
    CHECK(b.link.counters().max_queue_pkts == 50);
  }
  SECTION("bytes") {
    Bench b({"l", Rate{100'000'000}, Duration::milliseconds(1), {0, 15'000}, 0.0, {}, {}, {}});
    for (uint64_t i = 0; i < 40; ++i)
      b.inject(i);
    b.sim.run_until(Time::at(Duration::seconds_int(1)));
    CHECK(b.sink.times.size() == 11);  // 1 serializing + 10 x 1500 B
    CHECK(b.link.counters().drops == 29);
  }
}

TEST_CASE("an overloaded link delivers exactly its rate", "[link]") {
  for (uint64_t rate : {10'000'000ULL, 800'000'000ULL}) {
    Bench b({"l", Rate{rate}, Duration::milliseconds(5), {100, 0}, 0.0, {}, {}, {}});
    Injector inj;
    inj.b = &b;
    inj.every = serialization_time(1500, Rate{rate}) / 2;  // offered load = 2x capacity
    inj.limit = UINT64_MAX;
    b.sim.schedule_at(inj, Time::zero());
    const double secs = 2.0;
    b.sim.run_until(Time::at(Duration::seconds(secs)));
    const double delivered_bps = static_cast<double>(b.sink.times.size()) * 1500 * 8 / (secs - 0.005);
    CHECK(delivered_bps == Approx(static_cast<double>(rate)).epsilon(0.01));
    const auto& c = b.link.counters();
    CHECK(c.busy.to_seconds() / secs == Approx(1.0).epsilon(0.01));
    CHECK(c.arrivals == c.drops + c.departures + b.link.packets_on_link());
    CHECK(b.pool.live() == b.link.packets_on_link());
    // the queue grows by one packet per serialization time, then sits at the buffer size
    const double fill_s = 100 * serialization_time(1500, Rate{rate}).to_seconds();
    CHECK(c.queue_area / secs == Approx(100 * (secs - fill_s / 2) / secs).epsilon(0.001));
  }
}

TEST_CASE("Bernoulli loss removes the configured fraction", "[link]") {
  Bench b({"l", Rate{10'000'000'000}, Duration::milliseconds(1), {1'000'000, 0}, 0.01, {}, {}, {}});
  Injector inj;
  inj.b = &b;
  inj.every = Duration::microseconds(2);
  inj.limit = 200'000;
  b.sim.schedule_at(inj, Time::zero());
  b.sim.run_until(Time::at(Duration::seconds_int(2)));
  const auto& c = b.link.counters();
  CHECK(c.random_losses + c.departures == 200'000);
  // 200000 * 0.01 = 2000 expected, sigma = 44.5: a 4-sigma band
  CHECK(c.random_losses > 2000 - 178);
  CHECK(c.random_losses < 2000 + 178);
  CHECK(b.counters.random_losses == c.random_losses);
}

TEST_CASE("the mean queue is the exact time integral", "[link]") {
  // 11 packets at t=0 on a 12 Mb/s link (1 ms each): the queue steps 10, 9, ..., 1, 0
  Bench b({"l", Rate{12'000'000}, Duration::zero(), {100, 0}, 0.0, {}, {}, {}});
  for (uint64_t i = 0; i < 11; ++i)
    b.inject(i);
  b.sim.run_until(Time::at(Duration::milliseconds(20)));
  CHECK(b.link.counters().queue_area == Approx(0.055));  // (10+9+...+1) packet-ms
}

namespace {
/// Host -> fast link -> slow link -> sink, with the slow link optionally chained
/// (handed packets when they enter the fast one) instead of fed by delivery events.
struct Chain {
  Simulator sim;
  PacketPool pool;
  Link fast{sim, pool, {"fast", Rate{100'000'000}, Duration::milliseconds(3), {1000, 0}, 0.0, {}, {}, {}}, 7};
  Link slow;
  Sink sink;
  RouteCounters counters;
  Route route;
  bool ect = false;  // the bursts' packets are ECN-capable
  static LinkConfig slow_config() {
    return {"slow", Rate{10'000'000}, Duration::milliseconds(2), {20, 0}, 0.0, {}, {}, {}};
  }
  explicit Chain(bool chained, LinkConfig slow_cfg = slow_config()) : slow(sim, pool, std::move(slow_cfg), 7) {
    sink.pool = &pool;
    sink.sim = &sim;
    route.links = {&fast, &slow};
    route.sink = &sink;
    route.counters = &counters;
    const Route* routes[] = {&route};
    if (chained)
      wire_single_fed_links(routes);
  }
  void burst(uint64_t first, uint64_t n) {
    for (uint64_t i = first; i < first + n; ++i) {
      Packet* p = pool.acquire();
      p->route = &route;
      p->size_bytes = 1500;
      p->seq = i;
      p->ecn = ect ? ecn::kEct0 : ecn::kNotEct;
      fast.enqueue(p);
    }
  }
  struct Snapshot {
    uint64_t arrivals, drops, early_drops, marks, losses, departures, bytes_sent, queue, queue_bytes, on_link,
        max_queue, period_max_queue, live, fast_departures, fast_max_queue;
    double area, fast_area;
    Duration busy;
    bool operator==(const Snapshot&) const = default;
  };
  /// The slow link's statistics now, and the fast one's that chaining changes (its
  /// departures are handed on chained: counted when read), each computed lazily when
  /// read: they must be exact at any instant; after checking both links' invariants.
  Snapshot snapshot() {
    fast.check_invariants();
    slow.check_invariants();
    const auto f = fast.counters();
    const auto c = slow.counters();
    return {c.arrivals,         c.drops,
            c.early_drops,      c.ce_marks,
            c.random_losses,    c.departures,
            c.bytes_sent,       slow.queue_packets(),
            slow.queue_bytes(), slow.packets_on_link(),
            c.max_queue_pkts,   slow.take_period_max_queue(),
            pool.live(),        f.departures,
            f.max_queue_pkts,   c.queue_area,
            f.queue_area,       c.busy};
  }
};
}  // namespace

TEST_CASE("a chained link behaves exactly like one fed by delivery events", "[link][chain]") {
  Chain events(false), chained(true);
  CHECK(chained.slow.single_feeder() == &chained.fast);
  CHECK(events.slow.single_feeder() == nullptr);
  // Two bursts that overflow the slow link's 20-packet buffer, the second while the
  // first is still queued; compare every statistic of the slow link at many instants.
  for (Chain* c : {&events, &chained}) {
    c->burst(0, 40);
    c->sim.call_at(Time::at(Duration::milliseconds(10)), [c] { c->burst(40, 30); });
  }
  for (int step = 1; step <= 120; ++step) {
    const Time t = Time::at(Duration::microseconds(500) * step);
    events.sim.run_until(t);
    chained.sim.run_until(t);
    INFO("t = " << t.to_seconds());
    CHECK(chained.snapshot() == events.snapshot());
  }
  CHECK(chained.sink.times == events.sink.times);
  CHECK(chained.sink.seqs == events.sink.seqs);
  CHECK(events.slow.counters().drops > 0);
  // A drop is counted when the packet reaches the slow link, not when it entered the
  // fast one (t = 0, when the chained link already knew it would not fit).
  Chain reference(false), early(true);
  reference.burst(0, 40);
  early.burst(0, 40);
  Time first_drop = Time::zero();
  while (reference.slow.counters().drops == 0) {
    first_drop = first_drop + Duration::microseconds(1);
    reference.sim.run_until(first_drop);
  }
  CHECK(first_drop > Time::at(Duration::milliseconds(3)));
  early.sim.run_until(first_drop - Duration::microseconds(1));
  CHECK(early.slow.counters().drops == 0);
  CHECK(early.counters.queue_drops == 0);
  early.sim.run_until(first_drop);
  CHECK(early.slow.counters().drops == 1);
  CHECK(early.counters.queue_drops == 1);
  CHECK(chained.pool.live() == 0);
  CHECK(events.sim.events_processed() > chained.sim.events_processed());  // the hop between them costs no event
}

namespace {
/// Runs both chains to `t` and compares the slow link's statistics.
void compare_at(Chain& events, Chain& chained, Time t) {
  events.sim.run_until(t);
  chained.sim.run_until(t);
  INFO("t = " << t.to_seconds());
  CHECK(chained.snapshot() == events.snapshot());
}

/// Sorted random instants in (0, end): statistics read at arbitrary times, not on a grid.
std::vector<Time> random_instants(uint32_t seed, int n, Duration end) {
  std::mt19937_64 gen(seed);
  std::uniform_int_distribution<int64_t> ps(1, end.ps() - 1);
  std::vector<Time> ts;
  for (int i = 0; i < n; ++i)
    ts.push_back(Time::at(Duration::picoseconds(ps(gen))));
  std::sort(ts.begin(), ts.end());
  return ts;
}
}  // namespace

TEST_CASE("chained and event-fed links agree on loss-rate changes, injected losses and random-instant statistics",
          "[link][chain]") {
  // The slow link's loss changes at time stamps that fall while packets of the bursts
  // are on the fast link (entered it, not yet at the slow one): a chained link decided
  // those packets when they entered, so it must apply each change by the packet's
  // arrival time at the slow link, as an event-fed link does. With the loss rate
  // changed when the change was reached in the run, a black hole set at 1 ms delivered
  // 10 packets chained and none event-fed.
  struct Change {
    int at_us;
    double rate;
    uint32_t inject;
  };
  const std::vector<std::vector<Change>> plans = {
      {{1000, 1.0, 0}},                                      // black hole before the first arrival
      {{3500, 1.0, 0}, {9000, 0.0, 0}},                      // a hole in the middle of the first burst
      {{2000, 0.3, 0}, {12'500, 0.0, 0}, {14'000, 0.5, 0}},  // random loss switched on and off
      {{5000, -1, 3}, {13'000, -1, 2}},                      // injected losses
  };
  uint32_t seed = 1;
  for (const auto& plan : plans) {
    Chain events(false), chained(true);
    REQUIRE(chained.slow.single_feeder() == &chained.fast);
    for (Chain* c : {&events, &chained}) {
      for (const Change& ch : plan) {
        const Time at = Time::at(Duration::microseconds(ch.at_us));
        if (ch.inject > 0)
          c->slow.inject_losses_at(at, ch.inject);
        else
          c->slow.set_loss_rate_at(at, ch.rate);
      }
      c->burst(0, 40);
      c->sim.call_at(Time::at(Duration::milliseconds(10)), [c] { c->burst(40, 30); });
    }
    INFO("plan " << seed);
    for (Time t : random_instants(seed++, 200, Duration::milliseconds(80)))
      compare_at(events, chained, t);
    compare_at(events, chained, Time::at(Duration::milliseconds(80)));
    CHECK(chained.sink.times == events.sink.times);
    CHECK(chained.sink.seqs == events.sink.seqs);
    CHECK(events.slow.counters().random_losses > 0);
    CHECK(chained.pool.live() == 0);
  }
  // The case, spelled out: the whole first burst is lost at the slow link.
  Chain events(false), chained(true);
  for (Chain* c : {&events, &chained}) {
    c->slow.set_loss_rate_at(Time::at(Duration::milliseconds(1)), 1.0);
    c->burst(0, 10);
    c->sim.run_until(Time::at(Duration::milliseconds(50)));
    CHECK(c->sink.times.empty());
    CHECK(c->slow.counters().random_losses == 10);
  }
}

TEST_CASE("chained and event-fed links agree at random instants with ECN marking and RED", "[link][chain][ecn][red]") {
  // The lazily computed statistics (queue, its maximum per period, bytes sent, busy time,
  // marks, early drops) read at random instants, with the slow link marking at a step
  // threshold or running RED (dropping early, or marking with its ecn option).
  LinkConfig step = Chain::slow_config();
  step.marking = MarkingParams{5};
  LinkConfig red = Chain::slow_config();
  red.red = RedParams{};
  red.red->min_th = 2;  // a quick average on a 20-packet buffer, so that it acts within the bursts
  red.red->max_th = 8;
  red.red->weight = 0.2;
  LinkConfig red_ecn = red;
  red_ecn.red->ecn = true;
  uint32_t seed = 11;
  for (const LinkConfig& cfg : {step, red, red_ecn}) {
    Chain events(false, cfg), chained(true, cfg);
    REQUIRE(chained.slow.single_feeder() == &chained.fast);
    for (Chain* c : {&events, &chained}) {
      c->ect = true;
      c->burst(0, 40);
      c->sim.call_at(Time::at(Duration::milliseconds(10)), [c] { c->burst(40, 30); });
    }
    INFO("slow link " << (cfg.marking ? "step marking" : cfg.red->ecn ? "RED ecn" : "RED"));
    for (Time t : random_instants(seed++, 200, Duration::milliseconds(80)))
      compare_at(events, chained, t);
    compare_at(events, chained, Time::at(Duration::milliseconds(80)));
    CHECK(chained.sink.times == events.sink.times);
    CHECK(chained.sink.seqs == events.sink.seqs);
    const auto c = events.slow.counters();
    CHECK(c.ce_marks + c.early_drops > 0);  // the queue discipline acted
    CHECK(c.bytes_sent == 1500 * (c.arrivals - c.drops));
    CHECK(chained.pool.live() == 0);
  }
}

TEST_CASE("chained and event-fed dummynet pipes agree at random instants, refused packets taking no credit",
          "[link][chain][dummynet]") {
  // The slow link is a pipe (1-ms ticks, 10 Mb/s: 10 000 bits of credit per tick) whose
  // 20-packet buffer the bursts overflow: a packet the buffer refuses must leave the
  // pipe's credit and release clock as they were (next_release() is only committed for
  // admitted packets), whether the pipe is chained or fed by delivery events.
  LinkConfig pipe = Chain::slow_config();
  pipe.tick = Duration::milliseconds(1);
  Chain events(false, pipe), chained(true, pipe);
  REQUIRE(chained.slow.single_feeder() == &chained.fast);
  for (Chain* c : {&events, &chained}) {
    c->burst(0, 40);
    c->sim.call_at(Time::at(Duration::milliseconds(30)), [c] { c->burst(40, 30); });
  }
  for (Time t : random_instants(21, 200, Duration::milliseconds(120)))
    compare_at(events, chained, t);
  compare_at(events, chained, Time::at(Duration::milliseconds(120)));
  CHECK(chained.sink.times == events.sink.times);
  CHECK(chained.sink.seqs == events.sink.seqs);
  const auto c = events.slow.counters();
  CHECK(c.drops > 0);
  // Backlogged, the pipe releases one 12 000-bit packet per 1.2 ticks: with the refused
  // packets' cost committed (or the credit reset while backlogged), the releases would
  // come later (or earlier) than these tick boundaries.
  REQUIRE(events.sink.times.size() >= 21);
  const Time first = events.sink.times.front();
  for (size_t k = 0; k < 21; ++k) {
    INFO("packet " << k);
    // The idle pipe gets one tick of credit at the first tick after the first arrival;
    // packet k leaves at the first tick n after that where (n + 1) ticks of credit cover
    // k + 1 packets: n = ceil(1.2 (k + 1)) - 1, the first packet at n = 1.
    const int64_t ticks = (12 * static_cast<int64_t>(k + 1) + 9) / 10 - 2;
    CHECK(events.sink.times[k] - first == Duration::milliseconds(ticks));
  }
}

TEST_CASE("a loss change a chained link can no longer apply at its time is an error", "[link][chain]") {
  // At 1 ms the ten packets are on the fast link; the chained slow link already took
  // them (arriving from 3.12 ms on). Setting its loss rate for "now" would have applied
  // to later packets only: it throws instead. The event-fed link applies it.
  Chain events(false), chained(true);
  for (Chain* c : {&events, &chained}) {
    c->burst(0, 10);
    c->sim.run_until(Time::at(Duration::milliseconds(1)));
  }
  events.slow.set_loss_rate(1.0);
  CHECK_THROWS_AS(chained.slow.set_loss_rate(1.0), std::logic_error);
  CHECK_THROWS_AS(chained.slow.inject_losses(1), std::logic_error);
  CHECK_THROWS_AS(events.slow.set_loss_rate_at(Time::zero(), 1.0), std::logic_error);  // in the past
  // After the last packet has reached it, the chained link takes a change for now.
  for (Chain* c : {&events, &chained})
    c->sim.run_until(Time::at(Duration::milliseconds(20)));
  CHECK(events.sink.times.empty());
  CHECK(chained.sink.times.size() == 10);
  CHECK_NOTHROW(chained.slow.set_loss_rate(1.0));
}

namespace {
// A plain 1 Gb/s, 1-ms link with a 100-packet buffer, for the wiring tests.
std::unique_ptr<Link> gigabit_link(Simulator& sim, PacketPool& pool, const char* id) {
  return std::make_unique<Link>(
      sim, pool, LinkConfig{id, Rate{1'000'000'000}, Duration::milliseconds(1), {100, 0}, 0.0, {}, {}, {}}, 1);
}
}  // namespace

TEST_CASE("single-fed links are found from the routes; a packet from elsewhere is a logic error", "[link][chain]") {
  Simulator sim;
  PacketPool pool;
  auto make = [&](const char* id) { return gigabit_link(sim, pool, id); };
  auto a1 = make("a1"), a2 = make("a2"), core = make("core"), out1 = make("out1"), out2 = make("out2");
  Sink sink;
  sink.pool = &pool;
  sink.sim = &sim;
  RouteCounters counters;
  Route r1{{a1.get(), core.get(), out1.get()}, &sink, &counters};
  Route r2{{a2.get(), core.get(), out2.get()}, &sink, &counters};
  Route direct{{out1.get()}, &sink, &counters};  // a host also puts packets on out1
  const Route* two[] = {&r1, &r2};
  wire_single_fed_links(two);
  CHECK(a1->single_feeder() == nullptr);    // fed by a host
  CHECK(core->single_feeder() == nullptr);  // fed by a1 and a2
  CHECK(out1->single_feeder() == core.get());
  CHECK(out2->single_feeder() == core.get());
  Packet* p = pool.acquire();
  p->route = &direct;
  p->size_bytes = 1500;
  CHECK_THROWS_AS(out1->enqueue(p), std::logic_error);
  pool.release(p);
  const Route* three[] = {&r1, &r2, &direct};
  wire_single_fed_links(three);
  CHECK(out1->single_feeder() == nullptr);
  CHECK(out2->single_feeder() == core.get());
}

TEST_CASE("a link whose routes all go on to one next hop hands packets there without their route", "[link][chain]") {
  Simulator sim;
  PacketPool pool;
  auto make = [&](const char* id) { return gigabit_link(sim, pool, id); };
  auto a1 = make("a1"), a2 = make("a2"), a3 = make("a3"), core = make("core");
  auto out1 = make("out1"), out2 = make("out2"), out3 = make("out3"), side = make("side");
  Sink sink1, sink2;
  for (Sink* s : {&sink1, &sink2}) {
    s->pool = &pool;
    s->sim = &sim;
  }
  RouteCounters counters;
  Route r1{{a1.get(), core.get(), out1.get()}, &sink1, &counters};
  Route r2{{a2.get(), core.get(), out2.get()}, &sink2, &counters};
  // A flow-arrival template: its sink is made during the run.
  Route r3{{a3.get(), core.get(), out3.get()}, nullptr, &counters};
  // out2 also carries packets that go on to another link.
  Route r4{{out2.get(), side.get()}, &sink1, &counters};
  const Route* routes[] = {&r1, &r2, &r3, &r4};
  wire_single_fed_links(routes);
  CHECK(a1->only_next_hop() == core.get());
  CHECK(a3->only_next_hop() == core.get());
  CHECK(core->only_next_hop() == nullptr);  // out1, out2 and out3
  CHECK(out1->only_next_hop() == &sink1);
  CHECK(out2->only_next_hop() == nullptr);  // sink2 or side
  CHECK(out3->only_next_hop() == nullptr);  // the sink is not known before the run
  CHECK(side->only_next_hop() == &sink1);
  auto send = [&](Link& first, const Route& route, uint64_t seq) {
    Packet* p = pool.acquire();
    p->route = &route;
    p->size_bytes = 1500;
    p->seq = seq;
    first.enqueue(p);
  };
  send(*a1, r1, 1);
  send(*a2, r2, 2);
  sim.run_until(Time::at(Duration::milliseconds(10)));
  CHECK(sink1.seqs == std::vector<uint64_t>{1});
  CHECK(sink2.seqs == std::vector<uint64_t>{2});
#ifndef NDEBUG
  // Debug builds check each cached hop against the packet's route: a route not wired before
  // the run that leaves a1 elsewhere is a logic error, never a packet sent down r1's path.
  Route stray{{a1.get(), side.get()}, &sink2, &counters};
  send(*a1, stray, 3);
  CHECK_THROWS_AS(sim.run_until(Time::at(Duration::milliseconds(20))), std::logic_error);
#endif
  // Every build checks a route against the wiring once, when its connection is made.
  for (const Route* r : routes)
    CHECK_NOTHROW(check_route_against_wiring(*r));
  Route arrived{{a3.get(), core.get(), out3.get()}, &sink2, &counters};  // r3's template with its sink
  CHECK_NOTHROW(check_route_against_wiring(arrived));
  Route leaves_elsewhere{{a1.get(), side.get()}, &sink2, &counters};
  CHECK_THROWS_WITH(check_route_against_wiring(leaves_elsewhere), Catch::Contains("link a1: a route leaves it"));
  Route other_sink{{a1.get(), core.get(), out1.get()}, &sink2, &counters};
  CHECK_THROWS_WITH(check_route_against_wiring(other_sink), Catch::Contains("link out1: a route leaves it"));
  Route from_host{{out1.get()}, &sink1, &counters};  // out1 is chained behind core
  CHECK_THROWS_WITH(check_route_against_wiring(from_host),
                    Catch::Contains("link out1: a route enters it from a host, not its single feeder core"));
}

TEST_CASE("a dropped packet frees its slot at once: memory follows the buffer, not the drain time", "[link][memory]") {
  // 10 Gb/s offered to a 10 Mb/s link with a 100-packet buffer: the queue takes 120 ms to
  // drain, in which 100 000 packets arrive and nearly all are dropped. Dropped packets
  // used to keep a slot until the queue ahead of them had drained.
  Bench b({"l", Rate{10'000'000}, Duration::milliseconds(1), {100, 0}, 0.0, {}, {}, {}});
  Injector inj;
  inj.b = &b;
  inj.every = serialization_time(1500, Rate{10'000'000'000});
  inj.limit = UINT64_MAX;
  b.sim.schedule_at(inj, Time::zero());
  b.sim.run_until(Time::at(Duration::milliseconds(300)));
  const auto& c = b.link.counters();
  CHECK(c.drops > 240'000);
  CHECK(c.arrivals == c.drops + c.departures + b.link.packets_on_link());
  // 100 waiting + 1 serializing + at most one on the 1-ms wire; the ring doubles from 4.
  CHECK(b.link.packets_on_link() <= 102);
  CHECK(b.link.slot_capacity() <= 256);
  CHECK(b.pool.capacity() == 4096);  // one chunk of the pool
}

TEST_CASE("chained drops wait outside the ring and are counted when they reach the link", "[link][chain][memory]") {
  // A 1 Gb/s host link chained into a 10 Mb/s link with a 20-packet buffer: the slow
  // link knows at once that 99 % of the packets will not fit.
  Simulator sim;
  PacketPool pool;
  Link fast{sim, pool, {"fast", Rate{1'000'000'000}, Duration::milliseconds(2), {10, 0}, 0.0, {}, {}, {}}, 7};
  Link slow{sim, pool, {"slow", Rate{10'000'000}, Duration::milliseconds(1), {20, 0}, 0.0, {}, {}, {}}, 7};
  Sink sink;
  sink.pool = &pool;
  sink.sim = &sim;
  RouteCounters counters;
  Route route;
  route.links = {&fast, &slow};
  route.sink = &sink;
  route.counters = &counters;
  const Route* routes[] = {&route};
  wire_single_fed_links(routes);
  struct Flood final : Event {
    Link* first;
    Route* route;
    PacketPool* pool;
    Simulator* sim;
    void fire() override {
      Packet* p = pool->acquire();
      p->route = route;
      p->size_bytes = 1500;
      first->enqueue(p);
      sim->schedule_in(*this, serialization_time(1500, Rate{1'000'000'000}));
    }
  } flood;
  flood.first = &fast;
  flood.route = &route;
  flood.pool = &pool;
  flood.sim = &sim;
  sim.schedule_at(flood, Time::zero());
  sim.run_until(Time::at(Duration::milliseconds(200)));
  const auto& c = slow.counters();
  CHECK(c.drops > 15'000);
  CHECK(counters.queue_drops == c.drops);
  CHECK(c.arrivals == c.drops + c.departures + slow.packets_on_link());
  // The fast wire holds ~167 packets (2 ms at 1 Gb/s): the slow link's dropped packets
  // waiting to reach it are at most those.
  CHECK(slow.slot_capacity() <= 512);
  CHECK(pool.live() == fast.packets_on_link() + slow.packets_on_link());
  CHECK(pool.capacity() == 4096);
}

TEST_CASE("utilization counts serialization pro rata: at most 1 in every period", "[link][utilization]") {
  // 1 Mb/s: a 1500-byte packet takes 12 ms. Ten packets at t = 0 keep the link busy for
  // 120 ms; sampled every 1 ms the busy fraction is 1 for 120 periods, then 0. Counting
  // the whole serialization when a packet starts used to give 12 in one period.
  Bench b({"l", Rate{1'000'000}, Duration::milliseconds(1), {100, 0}, 0.0, {}, {}, {}});
  for (uint64_t i = 0; i < 10; ++i)
    b.inject(i);
  Duration last = Duration::zero();
  double sum = 0, max = 0;
  const int periods = 200;
  for (int k = 1; k <= periods; ++k) {
    b.sim.run_until(Time::at(Duration::milliseconds(k)));
    const Duration busy = b.link.counters().busy;
    const double u = (busy - last).to_seconds() / 1e-3;
    last = busy;
    INFO("period " << k);
    CHECK(u <= 1.0 + 1e-12);
    CHECK(u == Approx(k <= 120 ? 1.0 : 0.0).margin(1e-9));
    sum += u;
    max = std::max(max, u);
  }
  CHECK(sum / periods == Approx(0.6).margin(1e-9));
  CHECK(max == Approx(1.0));
}

TEST_CASE("the run's largest queue is the largest of the period maxima, whenever either is read", "[link][chain]") {
  // The run's maximum is kept per period and folded when a period ends or counters()
  // reads it: a link whose periods are taken at random instants and one never asked for
  // a period must both report the largest of all period maxima so far.
  Chain periods(true), plain(true);
  const std::pair<int, uint64_t> bursts[] = {{0, 12}, {20, 5}, {40, 18}, {70, 8}, {85, 3}};
  for (Chain* c : {&periods, &plain}) {
    uint64_t seq = 0;
    for (const auto& [ms, n] : bursts) {
      c->sim.call_at(Time::at(Duration::milliseconds(ms)), [c, seq, n = n] { c->burst(seq, n); });
      seq += n;
    }
  }
  uint64_t largest = 0;
  std::vector<uint64_t> maxima;
  for (const Time t : random_instants(11, 80, Duration::milliseconds(100))) {
    periods.sim.run_until(t);
    plain.sim.run_until(t);
    INFO("t = " << t.to_seconds());
    const uint64_t queue = periods.slow.queue_packets();
    const uint64_t m = periods.slow.take_period_max_queue();
    CHECK(m >= queue);
    largest = std::max(largest, m);
    maxima.push_back(m);
    CHECK(periods.slow.counters().max_queue_pkts == largest);
    CHECK(plain.slow.counters().max_queue_pkts == largest);
    periods.slow.check_invariants();
    plain.slow.check_invariants();
  }
  CHECK(largest == 16);  // the 18-packet burst: 2 started while it arrived (1.2 ms each at 10 Mb/s)
  // Later periods saw smaller peaks than the run's: the fold is what keeps the largest.
  CHECK(std::count(maxima.begin(), maxima.end(), largest) < static_cast<long>(maxima.size()));
}
