// Link physics: exact serialization and propagation, throughput equal to the rate,
// drop-tail drops exactly at capacity (packets and bytes), Bernoulli loss rate,
// FIFO order, exact queue integral, and conservation.
#include <catch2/catch.hpp>

#include <vector>

#include "fastsim/net/link.hpp"

using namespace fastsim;
using namespace fastsim::net;

namespace {
struct Sink final : PacketSink {
  PacketPool* pool;
  std::vector<Time> times;
  std::vector<uint64_t> seqs;
  Simulator* sim;
  void receive(Packet* p) override {
    times.push_back(sim->now());
    seqs.push_back(p->seq);
    pool->release(p);
  }
};

struct Bench {
  Simulator sim;
  PacketPool pool;
  Link link;
  Sink sink;
  RouteCounters counters;
  Route route;
  Bench(LinkConfig cfg) : link(sim, pool, std::move(cfg), 7) {
    sink.pool = &pool;
    sink.sim = &sim;
    route.links = {&link};
    route.sink = &sink;
    route.counters = &counters;
  }
  void inject(uint64_t seq, uint32_t bytes = 1500) {
    Packet* p = pool.acquire();
    p->route = &route;
    p->size_bytes = bytes;
    p->seq = seq;
    link.enqueue(p);
  }
};

/// Offers packets at a fixed interval.
struct Injector final : Event {
  Bench* b;
  Duration every;
  uint64_t next = 0;
  uint64_t limit = 0;
  void fire() override {
    b->inject(next++);
    if (next < limit)
      b->sim.schedule_in(*this, every);
  }
};
}  // namespace

TEST_CASE("a burst departs back to back after exact serialization and delay", "[link]") {
  Bench b({"l", Rate{100'000'000}, Duration::milliseconds(10), {100, 0}, 0.0});
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
    Bench b({"l", Rate{100'000'000}, Duration::milliseconds(1), {50, 0}, 0.0});
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
    Bench b({"l", Rate{100'000'000}, Duration::milliseconds(1), {0, 15'000}, 0.0});
    for (uint64_t i = 0; i < 40; ++i)
      b.inject(i);
    b.sim.run_until(Time::at(Duration::seconds_int(1)));
    CHECK(b.sink.times.size() == 11);  // 1 serializing + 10 x 1500 B
    CHECK(b.link.counters().drops == 29);
  }
}

TEST_CASE("an overloaded link delivers exactly its rate", "[link]") {
  for (uint64_t rate : {10'000'000ULL, 800'000'000ULL}) {
    Bench b({"l", Rate{rate}, Duration::milliseconds(5), {100, 0}, 0.0});
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
  Bench b({"l", Rate{10'000'000'000}, Duration::milliseconds(1), {1'000'000, 0}, 0.01});
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
  Bench b({"l", Rate{12'000'000}, Duration::zero(), {100, 0}, 0.0});
  for (uint64_t i = 0; i < 11; ++i)
    b.inject(i);
  b.sim.run_until(Time::at(Duration::milliseconds(20)));
  CHECK(b.link.counters().queue_area == Approx(0.055));  // (10+9+...+1) packet-ms
}
