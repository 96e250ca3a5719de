// Event engine: (time, seq) order, cancel, reschedule, the guards (no scheduling in the
// past; destroying a pending event cancels it, in either destruction order), and
// randomized comparisons against a reference model ordered by (time, seq), including
// handlers that schedule, re-key (themselves too), cancel and destroy events from
// inside fire(). The wheel's levels: event_wheel_test.cpp.
#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

#include "../support/event_churn.hpp"
#include "fastsim/core/simulator.hpp"

using namespace fastsim;
using fastsim::testing::Recorder;

TEST_CASE("simultaneous events fire in scheduling order", "[engine]") {
  Simulator sim;
  std::vector<int> log;
  std::vector<std::unique_ptr<Recorder>> evs;
  for (int i = 0; i < 10; ++i)
    evs.push_back(std::make_unique<Recorder>(i, &log));
  const Time t = Time::at(Duration::milliseconds(5));
  for (int i : {3, 1, 4, 0, 5, 9, 2, 6, 8, 7})
    sim.schedule_at(*evs[i], t);
  sim.run_until(t);
  CHECK(log == std::vector<int>{3, 1, 4, 0, 5, 9, 2, 6, 8, 7});
  CHECK(sim.events_processed() == 10);
}

TEST_CASE("cancel and reschedule", "[engine]") {
  Simulator sim;
  std::vector<int> log;
  Recorder a(1, &log), b(2, &log), c(3, &log);
  sim.schedule_at(a, Time::at(Duration::milliseconds(1)));
  sim.schedule_at(b, Time::at(Duration::milliseconds(2)));
  sim.schedule_at(c, Time::at(Duration::milliseconds(3)));
  sim.cancel(b);
  CHECK_FALSE(b.scheduled());
  sim.cancel(b);                                              // no-op
  sim.schedule_at(c, Time::at(Duration::microseconds(500)));  // earlier
  sim.schedule_at(a, Time::at(Duration::milliseconds(4)));    // later
  sim.run_until(Time::at(Duration::seconds_int(1)));
  CHECK(log == std::vector<int>{3, 1});
  CHECK(sim.now() == Time::at(Duration::seconds_int(1)));
}

TEST_CASE("randomized schedule/cancel/reschedule matches a reference model", "[engine]") {
  std::mt19937_64 rng(42);
  Simulator sim;
  std::vector<int> log;
  constexpr int kEvents = 300;
  std::vector<std::unique_ptr<Recorder>> evs;
  for (int i = 0; i < kEvents; ++i)
    evs.push_back(std::make_unique<Recorder>(i, &log));
  std::multimap<std::pair<int64_t, uint64_t>, int> model;  // (time, seq) -> id
  std::vector<std::optional<std::pair<int64_t, uint64_t>>> key(kEvents);
  uint64_t seq = 0;
  for (int op = 0; op < 5000; ++op) {
    const int id = static_cast<int>(rng() % kEvents);
    if (key[id]) {
      auto range = model.equal_range(*key[id]);
      for (auto it = range.first; it != range.second; ++it) {
        if (it->second == id) {
          model.erase(it);
          break;
        }
      }
      key[id].reset();
    }
    if (rng() % 4 == 0) {
      sim.cancel(*evs[id]);
    } else {
      const int64_t t = static_cast<int64_t>(rng() % 50);  // many ties
      sim.schedule_at(*evs[id], Time::from_ps(t));
      key[id] = {t, seq++};
      model.emplace(*key[id], id);
    }
  }
  std::vector<int> expected;
  for (const auto& [k, id] : model)
    expected.push_back(id);
  sim.run_until(Time::from_ps(100));
  CHECK(log == expected);
  CHECK(sim.pending() == 0);
}

TEST_CASE("scheduling before now is a logic error; call_at clamps to now", "[engine][guard]") {
  Simulator sim;
  std::vector<int> log;
  Recorder a(1, &log), b(2, &log);
  sim.run_until(Time::at(Duration::milliseconds(10)));
  CHECK_THROWS_AS(sim.schedule_at(a, Time::at(Duration::milliseconds(9))), std::logic_error);
  CHECK_THROWS_AS(sim.schedule_in(a, Duration::picoseconds(-1)), std::logic_error);
  CHECK_FALSE(a.scheduled());
  CHECK(sim.pending() == 0);
  // A pending event that is moved into the past keeps its old time.
  sim.schedule_at(b, Time::at(Duration::milliseconds(12)));
  CHECK_THROWS_AS(sim.schedule_at(b, Time::at(Duration::milliseconds(1))), std::logic_error);
  CHECK(b.scheduled());
  CHECK(b.time() == Time::at(Duration::milliseconds(12)));
  sim.schedule_at(a, sim.now());  // now itself is allowed
  Time called = Time::never();
  sim.call_at(Time::at(Duration::milliseconds(3)), [&] { called = sim.now(); });
  sim.run_until(Time::at(Duration::milliseconds(20)));
  CHECK(log == std::vector<int>{1, 2});
  CHECK(called == Time::at(Duration::milliseconds(10)));
}

TEST_CASE("a handler that schedules in the past throws out of run_until", "[engine][guard]") {
  Simulator sim;
  struct Backwards final : Event {
    Simulator* sim;
    explicit Backwards(Simulator* s) : sim(s) {}
    void fire() override { sim->schedule_at(*this, sim->now() - Duration::picoseconds(1)); }
  } ev(&sim);
  std::vector<int> log;
  Recorder after(1, &log);
  sim.schedule_at(ev, Time::from_ps(5));
  sim.schedule_at(after, Time::from_ps(7));
  CHECK_THROWS_AS(sim.run_until(Time::from_ps(10)), std::logic_error);
  CHECK(sim.now() == Time::from_ps(5));
  CHECK_FALSE(ev.scheduled());
  CHECK(sim.pending() == 1);
  sim.run_until(Time::from_ps(10));  // the run can go on: the thrower's event is gone
  CHECK(log == std::vector<int>{1});
  CHECK(sim.pending() == 0);
}

TEST_CASE("the event of a handler that threw may be destroyed before the simulator", "[engine][guard]") {
  Simulator sim;
  struct Thrower final : Event {
    void fire() override { throw std::runtime_error("handler failed"); }
  };
  auto ev = std::make_unique<Thrower>();
  sim.schedule_at(*ev, Time::from_ps(5));
  std::vector<int> log;
  Recorder later(1, &log);
  sim.schedule_at(later, Time::from_ps(8));
  CHECK_THROWS_AS(sim.run_until(Time::from_ps(10)), std::runtime_error);
  CHECK_FALSE(ev->scheduled());
  ev.reset();  // the queue must not touch it again (ASan)
  CHECK(sim.pending() == 1);
  sim.run_until(Time::from_ps(10));  // the queue is usable: the other event fires
  CHECK(log == std::vector<int>{1});
  CHECK(sim.pending() == 0);
}

TEST_CASE("destroying a pending event cancels it", "[engine][guard]") {
  Simulator sim;
  std::vector<int> log;
  std::vector<std::unique_ptr<Recorder>> evs;
  for (int i = 0; i < 6; ++i) {
    evs.push_back(std::make_unique<Recorder>(i, &log));
    sim.schedule_at(*evs[i], Time::from_ps(10 + i));
  }
  evs[0].reset();  // the root
  evs[3].reset();  // inside the heap
  evs[5].reset();  // the last entry
  CHECK(sim.pending() == 3);
  sim.run_until(Time::from_ps(100));
  CHECK(log == std::vector<int>{1, 2, 4});
  CHECK(sim.pending() == 0);
}

TEST_CASE("a handler may destroy pending events, and its own event", "[engine][guard]") {
  Simulator sim;
  std::vector<int> log;
  std::vector<std::unique_ptr<Recorder>> evs;
  for (int i = 0; i < 4; ++i)
    evs.push_back(std::make_unique<Recorder>(i, &log));
  struct Killer final : Event {
    std::vector<std::unique_ptr<Recorder>>* evs;
    std::unique_ptr<Killer>* self;
    void fire() override {
      (*evs)[2].reset();  // pending at the same time, scheduled later
      (*evs)[3].reset();  // pending later
      self->reset();      // the firing event itself (its owner ends during the run)
    }
  };
  auto killer = std::make_unique<Killer>();
  killer->evs = &evs;
  killer->self = &killer;
  sim.schedule_at(*evs[0], Time::from_ps(1));
  sim.schedule_at(*killer, Time::from_ps(2));
  sim.schedule_at(*evs[1], Time::from_ps(2));
  sim.schedule_at(*evs[2], Time::from_ps(2));
  sim.schedule_at(*evs[3], Time::from_ps(3));
  sim.run_until(Time::from_ps(10));
  CHECK(killer == nullptr);
  CHECK(log == std::vector<int>{0, 1});
  CHECK(sim.pending() == 0);
}

TEST_CASE("events and the simulator may be destroyed in either order", "[engine][guard]") {
  std::vector<int> log;
  SECTION("simulator first") {
    Recorder a(1, &log), b(2, &log);
    {
      Simulator sim;
      sim.schedule_at(a, Time::from_ps(1));
      sim.schedule_at(b, Time::from_ps(2));
      sim.call_at(Time::from_ps(3), [] {});
    }  // the queue unschedules a and b: their destructors must not touch it (ASan)
    CHECK_FALSE(a.scheduled());
    CHECK_FALSE(b.scheduled());
  }
  SECTION("events first") {
    Simulator sim;
    {
      Recorder a(1, &log), b(2, &log);
      sim.schedule_at(a, Time::from_ps(1));
      sim.schedule_at(b, Time::from_ps(2));
    }
    CHECK(sim.pending() == 0);
    sim.run_until(Time::from_ps(10));
    CHECK(log.empty());
  }
  SECTION("simulator cleared, then events, then simulator") {
    auto sim = std::make_unique<Simulator>();
    auto a = std::make_unique<Recorder>(1, &log);
    sim->schedule_at(*a, Time::from_ps(1));
    sim->clear();
    CHECK_FALSE(a->scheduled());
    a.reset();
    sim.reset();
  }
}

TEST_CASE("handlers that schedule, re-key, cancel and destroy events fire in the model's order", "[engine]") {
  for (uint64_t seed : {1, 2, 3, 4, 5}) {
    for (int events : {1, 3, 40, 300}) {
      fastsim::testing::EventChurn churn(seed, events, 25'000, fastsim::testing::DelayScale::kSmall);
      churn.run();
      INFO("seed " << seed << ", " << events << " events, " << churn.fired_.size() << " fired");
      CHECK(churn.fired_.size() > 2000);
      CHECK(churn.fired_ == churn.expected_);
    }
  }
}

TEST_CASE("a one-shot callback is freed when it fires, before its function runs", "[engine][memory]") {
  Simulator sim;
  std::vector<std::pair<int, size_t>> log;  // (callback, callbacks held while it ran)
  sim.call_at(Time::from_ps(30), [&] { log.emplace_back(3, sim.callbacks_held()); });
  sim.call_at(Time::from_ps(10), [&] {
    log.emplace_back(1, sim.callbacks_held());
    sim.call_at(Time::from_ps(20), [&] { log.emplace_back(2, sim.callbacks_held()); });  // scheduled from one
  });
  sim.call_at(Time::from_ps(40), [&] { log.emplace_back(4, sim.callbacks_held()); });
  sim.call_at(Time::from_ps(50), [&] { log.emplace_back(5, sim.callbacks_held()); });
  CHECK(sim.callbacks_held() == 4);
  sim.run_until(Time::from_ps(45));
  // Each ran once, in time order, with itself already freed; the one at 50 ps is kept (and
  // freed with the simulator, never fired: ASan checks both).
  CHECK(log == std::vector<std::pair<int, size_t>>{{1, 3}, {2, 3}, {3, 2}, {4, 1}});
  CHECK(sim.callbacks_held() == 1);
  CHECK(sim.pending() == 1);
}
