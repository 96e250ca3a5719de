// Event engine across the levels of its timing wheel: randomized comparisons against a
// reference set ordered by (time, seq) with delays from zero (simultaneous events) through
// one fine bucket (2^20 ps), the current period (2^32 ps), the coarse wheel (~4.4 s) and
// the far heap beyond, exact bucket and period boundaries, re-keys of pending events and of
// the firing one, cancels, destruction, clear(), and runs that stop between periods; plus
// a tie between an event of the far heap and one of the wheel.
#include <catch2/catch.hpp>

#include <vector>

#include "../support/event_churn.hpp"
#include "fastsim/core/simulator.hpp"

using namespace fastsim;
using namespace fastsim::testing;

TEST_CASE("events on every level of the wheel fire in the model's order", "[engine][wheel]") {
  int clears = 0;
  for (uint64_t seed : {11, 12, 13, 14, 15, 16}) {
    for (int events : {1, 2, 5, 60, 700}) {
      EventChurn levels(seed, events, 30'000, DelayScale::kWheel);
      levels.run();
      INFO("seed " << seed << ", " << events << " events, " << levels.fired_.size() << " fired");
      CHECK(levels.fired_.size() > 2000);
      CHECK(levels.fired_ == levels.expected_);
      clears += levels.clears_;
    }
  }
  CHECK(clears > 0);  // clear() was exercised mid-run
}

TEST_CASE("a far event and wheel events at the same time fire in scheduling order", "[engine][wheel]") {
  const Time t = Time::from_ps(10 * kSpan + 12345);  // beyond the wheel's reach from 0
  for (const int64_t gap : {int64_t{1000}, kBucket / 2, 3 * kPeriod / 2}) {
    Simulator sim;
    std::vector<int> log;
    Recorder far(1, &log), marker(0, &log), near(2, &log), later(3, &log);
    sim.schedule_at(far, t);  // in the far heap
    sim.schedule_at(marker, t - Duration::picoseconds(gap));
    sim.run_until(t - Duration::picoseconds(gap));  // the wheel catches up with the marker
    sim.schedule_at(near, t);                       // filed in the wheel
    sim.schedule_at(later, t + Duration::picoseconds(1));
    sim.run_until(t + Duration::seconds_int(100));
    INFO("gap " << gap);
    CHECK(log == std::vector<int>{0, 1, 2, 3});
  }
}

TEST_CASE("a run that stops before the next occupied period keeps the order", "[engine][wheel]") {
  Simulator sim;
  std::vector<int> log;
  Recorder a(1, &log), b(2, &log), c(3, &log), d(4, &log);
  sim.schedule_at(a, Time::from_ps(5 * kPeriod + 7));  // a later period
  sim.run_until(Time::from_ps(2 * kPeriod + 3));       // stops before it
  CHECK(log.empty());
  sim.schedule_at(b, Time::from_ps(4 * kPeriod));      // between now and a
  sim.schedule_at(c, Time::from_ps(2 * kPeriod + 3));  // now
  sim.schedule_at(d, Time::from_ps(5 * kPeriod + 7));  // a's time, scheduled later
  sim.run_until(Time::from_ps(6 * kPeriod));
  CHECK(log == std::vector<int>{3, 2, 1, 4});
  CHECK(sim.pending() == 0);
}

TEST_CASE("an event filed with a reserved seq fires where one scheduled at the reservation would", "[engine][wheel]") {
  // Ties at time t among events scheduled before the reservation (0, 1), the reserved one
  // (2) and events scheduled after it (3, 4): in the fine wheel, the coarse wheel and the
  // far heap (the reserved event is filed last, after every other).
  for (const int64_t ahead : {int64_t{5000}, 3 * kPeriod, 10 * kSpan}) {
    Simulator sim;
    std::vector<int> log;
    Recorder before1(0, &log), before2(1, &log), reserved(2, &log), after1(3, &log), after2(4, &log);
    const Time t = Time::from_ps(ahead);
    sim.schedule_at(before1, t);
    sim.schedule_at(before2, t);
    const uint64_t seq = sim.reserve_seq();
    sim.schedule_at(after1, t);
    sim.schedule_at(after2, t);
    sim.schedule_reserved(reserved, t, seq);
    sim.run_until(t + Duration::seconds_int(1));
    INFO("ahead " << ahead << " ps");
    CHECK(log == std::vector<int>{0, 1, 2, 3, 4});
  }
}
