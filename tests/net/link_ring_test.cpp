// A link's slot ring (link.hpp) grows when it is full of packets still on the link and
// gives the memory back once they have left: when it is full again with at most an
// eighth of it live, and at least a simulated second after it was last resized. Moving
// the live slots to the smaller ring changes nothing a packet or a statistic sees.
#include <catch2/catch.hpp>

#include <cstdint>

#include "../support/link_bench.hpp"
#include "fastsim/net/link.hpp"

using namespace fastsim;
using namespace fastsim::net;

namespace {

constexpr Rate kRate{100'000'000};  // 1500 bytes: 120 us
constexpr uint64_t kBurst = 200;    // the ring doubles 4 -> 256 for it

LinkConfig config(double loss_rate = 0.0) {
  return {"l", kRate, Duration::milliseconds(1), {1000, 0}, loss_rate, {}, {}, {}};
}

Time ms(int64_t n) {
  return Time::at(Duration::milliseconds(n));
}

/// A burst of kBurst packets at 0, then one packet every `every` from `from` on.
struct BurstThenDrip {
  Bench b;
  Injector drip;
  BurstThenDrip(LinkConfig cfg, Time from, Duration every) : b(std::move(cfg)) {
    for (uint64_t i = 0; i < kBurst; ++i)
      b.inject(i);
    drip.b = &b;
    drip.every = every;
    drip.next = kBurst;
    drip.limit = UINT64_MAX;
    b.sim.schedule_at(drip, from);
  }
};

}  // namespace

TEST_CASE("a drained ring shrinks when it is next full, and the packets see nothing of it", "[link][memory]") {
  // The burst leaves by 25 ms; drips every 10 ms from 1.5 s: one packet at most on the
  // link at a time. The ring (256) is full again after 56 drips (at 2.05 s): it shrinks to 4.
  BurstThenDrip t(config(), ms(1500), Duration::milliseconds(10));
  t.b.sim.run_until(ms(2000));
  CHECK(t.b.link.slot_capacity() == 256);  // not full since the burst: untouched
  t.b.sim.run_until(ms(3000));
  CHECK(t.b.link.slot_capacity() == 4);
  // Every packet in order, at its time: the burst back to back, each drip 1.12 ms after it entered.
  const Duration tx = serialization_time(1500, kRate);
  REQUIRE(t.b.sink.seqs.size() == kBurst + 150);
  for (uint64_t i = 0; i < t.b.sink.seqs.size(); ++i) {
    CHECK(t.b.sink.seqs[i] == i);
    const Time expect = i < kBurst ? Time::at(tx * static_cast<int64_t>(i + 1) + Duration::milliseconds(1))
                                   : ms(1500 + 10 * static_cast<int64_t>(i - kBurst)) + tx + Duration::milliseconds(1);
    CHECK(t.b.sink.times[i] == expect);
  }
  const LinkCounters& c = t.b.link.counters();
  CHECK(c.arrivals == kBurst + 151);  // the drip at 3 s has entered and started
  CHECK(c.departures == kBurst + 150);
  CHECK(c.bytes_sent == (kBurst + 151) * 1500);
  CHECK(c.max_queue_pkts == kBurst - 1);
  t.b.link.check_invariants();
}

TEST_CASE("a ring shrinks at most once a simulated second after it was resized", "[link][memory]") {
  // Drips every 1 ms from 30 ms, each on the link for 1.12 ms: one or two live slots when
  // the ring fills (every ~255 drips), with packets on the wire moved to the smaller ring.
  BurstThenDrip t(config(), ms(30), Duration::milliseconds(1));
  t.b.sim.run_until(ms(950));  // full at ~0.09, 0.34, 0.60, 0.85 s: under a second since it grew
  CHECK(t.b.link.slot_capacity() == 256);
  t.b.sim.run_until(ms(1200));  // full again at ~1.10 s
  CHECK(t.b.link.slot_capacity() == 4);
  t.b.link.check_invariants();
  t.b.sim.run_until(ms(3000));  // a ring of 4 holds what is live: no regrowth
  CHECK(t.b.link.slot_capacity() == 4);
  const Duration tx = serialization_time(1500, kRate);
  REQUIRE(t.b.sink.seqs.size() == kBurst + 2969);  // the drips up to 2998 ms
  for (uint64_t i = kBurst; i < t.b.sink.seqs.size(); ++i) {
    CHECK(t.b.sink.seqs[i] == i);
    CHECK(t.b.sink.times[i] == ms(30 + static_cast<int64_t>(i - kBurst)) + tx + Duration::milliseconds(1));
  }
  CHECK(t.b.link.counters().departures == kBurst + 2969);
}

TEST_CASE("lost packets on the wire keep their place when the ring shrinks", "[link][memory]") {
  // A 10-ms wire: about 11 drips on the link when the ring fills, so it shrinks to 32 with
  // them. The run is stepped by 1 ms (no reads: a read frees slots and moves the fills) to
  // find the shrink; a second run loses the drip entering 5 ms before it, still on the wire
  // then (and not yet past, so the fills are the same): the lost-slot list names slots by
  // index, which the move keeps.
  LinkConfig cfg = config();
  cfg.delay = Duration::milliseconds(10);
  int64_t shrunk_at = 0;
  {
    BurstThenDrip t(cfg, ms(30), Duration::milliseconds(1));
    for (int64_t n = 1; n <= 2000 && shrunk_at == 0; ++n) {
      t.b.sim.run_until(ms(n));
      if (t.b.link.slot_capacity() < 256)
        shrunk_at = n;
    }
  }
  REQUIRE(shrunk_at > 1000);
  BurstThenDrip t(cfg, ms(30), Duration::milliseconds(1));
  t.b.link.inject_losses_at(ms(shrunk_at - 5), 1);
  t.b.sim.run_until(ms(shrunk_at - 1));
  CHECK(t.b.link.slot_capacity() == 256);
  t.b.sim.run_until(ms(shrunk_at));
  CHECK(t.b.link.slot_capacity() == 32);
  t.b.link.check_invariants();
  CHECK(t.b.counters.random_losses == 0);  // still on the wire
  t.b.sim.run_until(ms(shrunk_at + 20));
  const LinkCounters& c = t.b.link.counters();
  t.b.link.check_invariants();
  CHECK(c.random_losses == 1);
  CHECK(t.b.counters.random_losses == 1);
  CHECK(c.arrivals == c.departures + 1 + t.b.link.packets_on_link());
  CHECK(t.b.sink.seqs.size() == c.departures);
  CHECK(t.b.pool.live() == t.b.link.packets_on_link());
  // The lost one is missing among the delivered, the others in order.
  const uint64_t lost = kBurst + static_cast<uint64_t>(shrunk_at - 5 - 30);
  uint64_t expect = 0;
  for (const uint64_t seq : t.b.sink.seqs) {
    if (expect == lost)
      ++expect;
    CHECK(seq == expect);
    ++expect;
  }
}
