// Event engine: (time, seq) order, cancel, reschedule, and a randomized comparison
// against a reference model (a std::multimap ordered by (time, seq)).
#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <optional>
#include <random>
#include <vector>

#include "fastsim/core/simulator.hpp"

using namespace fastsim;

namespace {
struct Recorder final : Event {
  int id;
  std::vector<int>* log;
  Recorder(int i, std::vector<int>* l) : id(i), log(l) {}
  void fire() override { log->push_back(id); }
};
}  // namespace

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
