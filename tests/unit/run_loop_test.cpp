// The run loop's stop request and progress calls (one test per event: Simulator::check_at_),
// with few pending events and with many (the mode that prefetches each next event), and the
// re-schedule of an event from its own firing (Simulator::schedule_unpending).
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "fastsim/core/simulator.hpp"

using namespace fastsim;

namespace {

class FnEvent final : public Event {
 public:
  explicit FnEvent(std::function<void()> fn) : fn_(std::move(fn)) {}
  void fire() override { fn_(); }

 private:
  std::function<void()> fn_;
};

Time ms(int64_t n) {
  return Time::at(Duration::milliseconds(n));
}

// Events 1..n at 1..n ms, each calling on_fire(its number); `evs` keeps them alive.
void schedule_numbered(Simulator& sim, std::vector<std::unique_ptr<FnEvent>>& evs, int n,
                       const std::function<void(int)>& on_fire) {
  for (int i = 1; i <= n; ++i) {
    evs.push_back(std::make_unique<FnEvent>([on_fire, i] { on_fire(i); }));
    sim.schedule_at(*evs.back(), ms(i));
  }
}

}  // namespace

TEST_CASE("stop() from inside an event returns after that event; the next run goes on", "[engine]") {
  Simulator sim;
  std::vector<int> log;
  std::vector<std::unique_ptr<FnEvent>> evs;
  schedule_numbered(sim, evs, 10, [&sim, &log](int i) {
    log.push_back(i);
    if (i == 3)
      sim.stop();
  });
  sim.run_until(ms(100));
  CHECK(log == std::vector<int>{1, 2, 3});
  CHECK(sim.events_processed() == 3);
  CHECK(sim.now() == ms(3));
  sim.run_until(ms(100));
  CHECK(log.size() == 10);
  CHECK(sim.events_processed() == 10);
  CHECK(sim.now() == ms(100));
}

TEST_CASE("progress is called every progress_every events; stop() from it returns after the next event", "[engine]") {
  Simulator sim;
  std::vector<int> log;
  std::vector<std::unique_ptr<FnEvent>> evs;
  schedule_numbered(sim, evs, 20, [&log](int i) { log.push_back(i); });
  std::vector<uint64_t> calls;
  sim.run_until(
      ms(10), [&] { calls.push_back(sim.events_processed()); }, 4);
  CHECK(calls == std::vector<uint64_t>{4, 8});
  CHECK(log.size() == 10);
  // A new run counts progress_every from where it starts.
  calls.clear();
  sim.run_until(
      ms(100),
      [&] {
        calls.push_back(sim.events_processed());
        sim.stop();
      },
      3);
  CHECK(calls == std::vector<uint64_t>{13});
  CHECK(sim.events_processed() == 14);
  CHECK(log.size() == 14);
  CHECK(sim.now() == ms(14));
}

TEST_CASE("an event re-scheduled from its own firing keeps (time, seq) order and the pending count", "[engine]") {
  Simulator sim;
  std::vector<char> log;
  int fired = 0;
  FnEvent b([&] { log.push_back('b'); });
  std::unique_ptr<FnEvent> a;
  a = std::make_unique<FnEvent>([&] {
    log.push_back('a');
    if (++fired < 3) {
      // b was scheduled at 2 ms first: a re-scheduled there fires after it (newer seq).
      sim.schedule_unpending(*a, ms(2));
      CHECK(a->scheduled());
      CHECK(sim.pending() == (fired == 1 ? 2u : 1u));
    }
  });
  sim.schedule_at(*a, ms(1));
  sim.schedule_at(b, ms(2));
  sim.run_until(ms(10));
  CHECK(log == std::vector<char>{'a', 'b', 'a', 'a'});
  CHECK(sim.pending() == 0);
  CHECK(!a->scheduled());
}

TEST_CASE("with many events pending (the loop prefetches each next one) they fire in (time, seq) order; progress and stop() as with few",
          "[engine]") {
  // 3000 pending events: the loop starts in the prefetching mode (1000 or more) and goes back
  // to the plain one as they fire; each choice falls at a progress call or every 2^16 events.
  Simulator sim;
  constexpr int kEvents = 3000;
  std::vector<std::pair<Time, int>> expected;  // (time, scheduling order)
  std::vector<int> log;
  std::vector<std::unique_ptr<FnEvent>> evs;
  uint64_t x = 12345;
  for (int i = 0; i < kEvents; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const Time t = Time::at(Duration::microseconds(static_cast<int64_t>(x >> 33) % 20000));  // 0-20 ms: shared buckets
    evs.push_back(std::make_unique<FnEvent>([&log, i] { log.push_back(i); }));
    sim.schedule_at(*evs.back(), t);
    expected.emplace_back(t, i);
  }
  std::sort(expected.begin(), expected.end());
  std::vector<uint64_t> calls;
  sim.run_until(
      ms(100),
      [&] {
        calls.push_back(sim.events_processed());
        if (sim.events_processed() == 2500)
          sim.stop();
      },
      500);
  CHECK(calls == std::vector<uint64_t>{500, 1000, 1500, 2000, 2500});
  CHECK(sim.events_processed() == 2501);  // stop() from the progress call: one more event
  sim.run_until(ms(100));
  std::vector<int> order;
  for (const auto& e : expected)
    order.push_back(e.second);
  CHECK(log == order);
  CHECK(sim.pending() == 0);
}

TEST_CASE("stop() from inside an event of the prefetching loop, and runs past a choice of the loop's mode", "[engine]") {
  // 70 000 events: the loop prefetches until fewer than 1000 are pending and chooses its
  // mode again every 2^16 events, the second run crossing one such choice.
  Simulator sim;
  constexpr int kEvents = 70000;
  std::vector<int> log;
  std::vector<std::unique_ptr<FnEvent>> evs;
  for (int i = 0; i < kEvents; ++i) {
    evs.push_back(std::make_unique<FnEvent>([&sim, &log, i] {
      log.push_back(i);
      if (i == 1499)
        sim.stop();
    }));
    sim.schedule_at(*evs.back(), Time::at(Duration::microseconds(100 * static_cast<int64_t>(i))));
  }
  sim.run_until(Time::at(Duration::seconds(10)));
  CHECK(sim.events_processed() == 1500);
  CHECK(sim.pending() == static_cast<size_t>(kEvents - 1500));
  std::vector<uint64_t> calls;
  sim.run_until(
      Time::at(Duration::seconds(10)), [&] { calls.push_back(sim.events_processed()); }, 20000);
  CHECK(calls == std::vector<uint64_t>{21500, 41500, 61500});
  REQUIRE(log.size() == static_cast<size_t>(kEvents));
  bool in_order = true;
  for (int i = 0; i < kEvents; ++i)
    in_order = in_order && log[static_cast<size_t>(i)] == i;
  CHECK(in_order);
  CHECK(sim.now() == Time::at(Duration::seconds(10)));
}
