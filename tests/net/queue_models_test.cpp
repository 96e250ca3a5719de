// Dummynet pipes and RED against their definitions: departures in per-tick batches of
// rate x tick at tick boundaries, goodput equal to the rate, the delay line quantised to
// ticks; RED's average queue settles where its drop function gives the drop fraction
// the overload needs, in the linear and in the gentle region.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>

#include "../support/link_bench.hpp"
#include "fastsim/net/link.hpp"

using namespace fastsim;
using namespace fastsim::net;

namespace {
LinkConfig pipe_config(Rate rate, Duration delay, Duration tick) {
  LinkConfig c{"pipe", rate, delay, {100'000, 0}, 0.0, tick, {}, {}};
  return c;
}
}  // namespace

TEST_CASE("a dummynet pipe releases per-tick batches of rate x tick at tick boundaries", "[link][dummynet]") {
  const auto [tick, rate] = GENERATE(std::pair{Duration::milliseconds(1), Rate{100'000'000}},
                                     std::pair{Duration::microseconds(100), Rate{1'000'000'000}},
                                     std::pair{Duration::microseconds(100), Rate{100'000'000}});
  const Duration delay = Duration::milliseconds(5);
  Bench b(pipe_config(rate, delay, tick));
  // Offer 1500-byte packets at 1.5x the pipe's rate for 2 s: the pipe stays backlogged.
  Injector in;
  in.b = &b;
  in.every = serialization_time(1500, Rate{rate.bps * 3 / 2});
  in.limit = static_cast<uint64_t>(2.0 / in.every.to_seconds());
  b.sim.schedule_at(in, Time::zero());
  b.sim.run_until(Time::at(Duration::seconds_int(10)));
  REQUIRE(b.sink.times.size() == in.limit);

  const double per_tick = rate.to_double() * tick.to_seconds() / (8.0 * 1500);  // packets
  std::map<int64_t, uint64_t> batches;                                          // tick index -> packets
  for (Time t : b.sink.times) {
    const int64_t since = (t - delay).ps();
    REQUIRE(since % tick.ps() == 0);  // every departure is on a tick (plus the delay line)
    ++batches[since / tick.ps()];
  }
  // While backlogged (from the tick after the first arrival to the last but one), each
  // tick releases rate x tick within one packet (an empty tick only if that is < 1 packet).
  const int64_t first = batches.begin()->first, last = batches.rbegin()->first;
  REQUIRE(last - first > 100);
  for (int64_t k = first + 1; k < last; ++k) {
    const double n = batches.count(k) ? static_cast<double>(batches[k]) : 0.0;
    INFO("tick " << k << ": " << n << " packets, rate x tick = " << per_tick);
    REQUIRE(std::fabs(n - per_tick) <= 1.0);
  }
  // Goodput over the backlogged period equals the rate within 1 %.
  const double span = (b.sink.times.back() - b.sink.times.front()).to_seconds();
  const double goodput = static_cast<double>(b.sink.times.size() - 1) * 1500 * 8 / span;
  CHECK(goodput == Approx(rate.to_double()).epsilon(0.01));
  CHECK(b.link.counters().drops == 0);
}

TEST_CASE("a dummynet pipe quantises the delay line and waits for the next tick", "[link][dummynet]") {
  Bench b(pipe_config(Rate{100'000'000}, Duration::microseconds(2500), Duration::milliseconds(1)));
  CHECK(b.link.wire_delay() == Duration::milliseconds(2));  // rounded down to whole ticks, as dummynet
  struct At final : Event {
    Bench* b;
    void fire() override { b->inject(0); }
  } at;
  at.b = &b;
  b.sim.schedule_at(at, Time::at(Duration::microseconds(300)));  // between ticks 0 and 1
  b.sim.run_until(Time::at(Duration::seconds_int(1)));
  REQUIRE(b.sink.times.size() == 1);
  CHECK(b.sink.times[0] == Time::at(Duration::milliseconds(3)));  // tick 1 + 2 ms
  // Utilization counts the packet's transmission time at the rate, not the wait.
  CHECK(b.link.counters().busy == serialization_time(1500, Rate{100'000'000}));
}

TEST_CASE("RED's average queue settles where its drop function gives the needed drop fraction", "[link][red]") {
  // A CBR overload of the link by a fraction f must be dropped by RED alone (the buffer
  // is far larger); with drops spread by the count, the drop fraction is 2 p_b / (1 + p_b),
  // so the average queue settles at the inverse of p_b = f / (2 - f).
  const double f = GENERATE(0.03, 0.10, 0.25);  // the last one is in the gentle region
  RedParams red;
  red.min_th = 20;
  red.max_th = 60;
  red.max_p = 0.1;
  red.weight = 0.002;
  red.gentle = true;
  const Rate rate{10'000'000};
  LinkConfig cfg{"red", rate, Duration::milliseconds(1), {5000, 0}, 0.0, {}, red, {}};
  Bench b(cfg);
  Injector in;
  in.b = &b;
  in.every = Duration::seconds(serialization_time(1500, rate).to_seconds() * (1 - f));
  const double seconds = 400;
  in.limit = static_cast<uint64_t>(seconds / in.every.to_seconds());
  b.sim.schedule_at(in, Time::zero());
  // Measure after 50 s of warm-up.
  b.sim.run_until(Time::at(Duration::seconds_int(50)));
  const LinkCounters warm = b.link.counters();
  b.sim.run_until(Time::at(Duration::seconds_int(400)));
  const LinkCounters& c = b.link.counters();
  const double arrivals = static_cast<double>(c.arrivals - warm.arrivals);
  const double drops = static_cast<double>(c.drops - warm.drops);
  const double mean_queue = (c.queue_area - warm.queue_area) / 350.0;
  CHECK(c.early_drops == c.drops);                     // every drop is RED's
  CHECK(drops / arrivals == Approx(f).epsilon(0.05));  // conservation: the link serves its rate

  const double pb = f / (2 - f);
  const double expected_avg = pb < red.max_p ? red.min_th + pb / red.max_p * (red.max_th - red.min_th)
                                             : red.max_th + (pb - red.max_p) / (1 - red.max_p) * red.max_th;
  INFO("f = " << f << ": mean queue " << mean_queue << ", RED predicts " << expected_avg);
  CHECK(mean_queue == Approx(expected_avg).epsilon(0.10));
}
