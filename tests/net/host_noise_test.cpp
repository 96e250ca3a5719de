// Host timing noise elements (net/host_noise.hpp) against their documented distributions,
// and the first-hop room query local congestion uses (Link::full_until).
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "../support/link_bench.hpp"
#include "fastsim/net/host_noise.hpp"

using namespace fastsim;
using namespace fastsim::net;

namespace {

/// Hands `count` packets to `into` every `every`, recording when each was handed over.
struct Feeder final : Event {
  Simulator* sim;
  PacketPool* pool;
  PacketSink* into;
  Duration every;
  uint64_t next = 0;
  uint64_t count = 0;
  std::vector<Time> sent;
  void fire() override {
    Packet* p = pool->acquire();
    p->seq = next++;
    sent.push_back(sim->now());
    into->receive(p);
    if (next < count)
      sim->schedule_in(*this, every);
  }
};

}  // namespace

TEST_CASE("sender jitter: exponential delays of the given mean, never reordering", "[net][host-noise]") {
  Simulator sim;
  PacketPool pool;
  Sink sink;
  sink.pool = &pool;
  sink.sim = &sim;
  SendJitter jitter(sim, pool, sink, Duration::milliseconds(1), 1, "send-jitter/a");
  SECTION("spaced packets: the delays are i.i.d. exponential with mean 1 ms") {
    Feeder f{};
    f.sim = &sim;
    f.pool = &pool;
    f.into = &jitter;
    f.every = Duration::milliseconds(20);  // P(delay > 20 ms) = e^-20: no packet waits for another
    f.count = 20000;
    sim.schedule_at(f, Time::zero());
    sim.run_until(Time::at(Duration::seconds_int(500)));
    REQUIRE(sink.times.size() == 20000);
    double sum = 0;
    size_t above_mean = 0;
    for (size_t i = 0; i < sink.times.size(); ++i) {
      CHECK(sink.seqs[i] == i);
      const double d = (sink.times[i] - f.sent[i]).to_seconds();
      sum += d;
      above_mean += d > 1e-3 ? 1 : 0;
    }
    CHECK(sum / 20000 == Approx(1e-3).epsilon(0.03));  // standard error 0.7 %
    CHECK(static_cast<double>(above_mean) / 20000 == Approx(std::exp(-1.0)).margin(0.015));
    CHECK(jitter.held() == 0);
  }
  SECTION("a burst leaves in order, each packet no earlier than the one before") {
    for (uint64_t i = 0; i < 100; ++i) {
      Packet* p = pool.acquire();
      p->seq = i;
      jitter.receive(p);
    }
    CHECK(jitter.held() == 100);
    sim.run_until(Time::at(Duration::seconds_int(1)));
    REQUIRE(sink.times.size() == 100);
    CHECK(sink.times[0] > Time::zero());
    for (size_t i = 1; i < 100; ++i) {
      CHECK(sink.seqs[i] == i);
      CHECK(sink.times[i] >= sink.times[i - 1]);
    }
  }
}

TEST_CASE("ACK coalescing: released in batches at the ticks of a free-running timer", "[net][host-noise]") {
  Simulator sim;
  PacketPool pool;
  Sink sink;
  sink.pool = &pool;
  sink.sim = &sim;
  const Duration period = Duration::microseconds(500);
  AckCoalescer co(sim, pool, sink, period, 1, "ack-coalescing/a");
  Feeder f{};
  f.sim = &sim;
  f.pool = &pool;
  f.into = &co;
  f.every = Duration::microseconds(130);
  f.count = 1000;
  sim.schedule_at(f, Time::at(Duration::microseconds(7)));
  sim.run_until(Time::at(Duration::seconds_int(1)));
  REQUIRE(sink.times.size() == 1000);
  const int64_t phase = co.next_tick(Time::zero()).ps();
  CHECK(phase > 0);
  CHECK(phase <= period.ps());
  size_t batches = 1;
  for (size_t i = 0; i < sink.times.size(); ++i) {
    CHECK(sink.seqs[i] == i);
    CHECK((sink.times[i].ps() - phase) % period.ps() == 0);  // on a tick
    const Duration wait = sink.times[i] - f.sent[i];
    CHECK(wait > Duration::zero());
    CHECK(wait <= period);
    if (i > 0 && sink.times[i] != sink.times[i - 1])
      ++batches;
  }
  // 1000 ACKs 130 us apart over 130 ms: one batch per tick, 260 ticks.
  CHECK(batches == Approx(1000 * 130 / 500).margin(2));
  // The phase is per stream: another name draws another phase; the same name the same one.
  AckCoalescer same(sim, pool, sink, period, 1, "ack-coalescing/a");
  AckCoalescer other(sim, pool, sink, period, 1, "ack-coalescing/b");
  CHECK(same.next_tick(Time::zero()) == co.next_tick(Time::zero()));
  CHECK(other.next_tick(Time::zero()) != co.next_tick(Time::zero()));
}

TEST_CASE("a full drop-tail first hop reports when its next waiting packet starts", "[net][local-congestion]") {
  Bench b({"l", Rate{100'000'000}, Duration::milliseconds(1), {5, 0}, 0.0, {}, {}, {}});
  CHECK_FALSE(b.link.full_until(1500).has_value());  // idle
  for (uint64_t i = 0; i < 5; ++i)
    b.inject(i);  // one serializing, four waiting
  CHECK_FALSE(b.link.full_until(1500).has_value());
  b.inject(5);  // five waiting: full
  const auto room = b.link.full_until(1500);
  REQUIRE(room.has_value());
  CHECK(*room == Time::at(Duration::microseconds(120)));  // the first waiting packet starts after one 1500-byte packet
  b.sim.run_until(*room);
  CHECK_FALSE(b.link.full_until(1500).has_value());
  b.inject(6);
  CHECK(b.link.counters().drops == 0);
  CHECK(b.link.full_until(1500) == Time::at(Duration::microseconds(240)));
}
