// Event engine across the levels of its timing wheel: randomized comparisons against a
// reference set ordered by (time, seq) with delays from zero (simultaneous events) through
// one fine bucket (2^20 ps), the current period (2^32 ps), the coarse wheel (~4.4 s) and
// the far heap beyond, exact bucket and period boundaries, re-keys of pending events and of
// the firing one, cancels, destruction, clear(), and runs that stop between periods; plus
// a tie between an event of the far heap and one of the wheel.
#include <catch2/catch.hpp>

#include <memory>
#include <optional>
#include <random>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "fastsim/core/simulator.hpp"

using namespace fastsim;

namespace {

constexpr int64_t kBucket = int64_t{1} << 20;  // the engine's fine bucket
constexpr int64_t kPeriod = int64_t{1} << 32;  // its fine wheel's period
constexpr int64_t kSpan = int64_t{1} << 42;    // its coarse wheel's reach

struct Recorder final : Event {
  int id;
  std::vector<int>* log;
  Recorder(int i, std::vector<int>* l) : id(i), log(l) {}
  void fire() override { log->push_back(id); }
};

// Events whose handlers act on the queue, mirrored in a reference model of the pending
// set: (time, seq, id), seq counting every schedule call (the engine's tie-break).
class Levels {
 public:
  Levels(uint64_t seed, int events, int budget) : rng_(seed), key_(events), budget_(budget) {
    for (int i = 0; i < events; ++i)
      evs_.push_back(std::make_unique<Actor>(this, i));
  }

  // A delay drawn on every scale of the wheel, boundaries included.
  int64_t delay() {
    const int64_t now = sim_.now().ps();
    const auto r = [this](int64_t n) { return static_cast<int64_t>(rng_() % static_cast<uint64_t>(n)); };
    switch (rng_() % 9) {
      case 0:
        return 0;
      case 1:
        return r(1000);  // the same fine bucket, mostly
      case 2:
        return r(8 * kBucket);
      case 3:
        return r(kPeriod);
      case 4:
        return r(16 * kPeriod);
      case 5:
        return r(2 * kSpan);  // the coarse wheel and just beyond
      case 6: {               // a bucket, period or span boundary, or one before it
        const int64_t unit = std::vector<int64_t>{kBucket, kPeriod, kSpan}[rng_() % 3];
        const int64_t boundary = (now / unit + 1 + r(3)) * unit;
        return boundary - now - r(2);
      }
      case 7:
        return kSpan + r(8 * kSpan);  // the far heap
      default:
        return r(20);
    }
  }

  void schedule(int id, int64_t t) {
    sim_.schedule_at(*evs_[id], Time::from_ps(t));
    forget(id);
    key_[id] = {t, seq_++};
    model_.emplace(t, key_[id]->second, id);
  }
  void cancel(int id) {
    sim_.cancel(*evs_[id]);
    forget(id);
  }
  void destroy(int id) {  // and replace: the destructor must cancel a pending event
    evs_[id] = std::make_unique<Actor>(this, id);
    forget(id);
  }
  void clear() {
    sim_.clear();
    model_.clear();
    for (auto& k : key_)
      k.reset();
  }
  void random_op(int self) {
    const int other = static_cast<int>(rng_() % evs_.size());
    const int64_t now = sim_.now().ps();
    switch (rng_() % 8) {
      case 0:
      case 1:
        schedule(other, now + delay());
        break;
      case 2:
      case 3:
        schedule(self >= 0 ? self : other, now + delay());  // re-key the firing event
        break;
      case 4:
        cancel(rng_() % 4 == 0 && self >= 0 ? self : other);
        break;
      case 5:
        if (other != self)
          destroy(other);
        break;
      default:
        if (key_[other])  // move a pending event earlier or later
          schedule(other, now + delay());
        break;
    }
  }
  void on_fire(int id) {
    fired_.emplace_back(id, sim_.now().ps());
    if (model_.empty()) {
      expected_.emplace_back(-1, -1);
    } else {
      const auto [t, s, first] = *model_.begin();
      expected_.emplace_back(first, t);
    }
    forget(id);
    if (budget_ <= 0)
      return;
    if (rng_() % 2 == 0)  // re-key itself before anything else
      schedule(id, sim_.now().ps() + delay());
    for (uint64_t n = rng_() % 3; n > 0; --n, --budget_)
      random_op(id);
    --budget_;
  }

  void run() {
    for (int i = 0; i < static_cast<int>(evs_.size()); ++i)
      schedule(i, delay());
    int64_t end = 0;
    while (budget_ > 0 || !model_.empty() || sim_.pending() > 0) {
      end += rng_() % 3 == 0 ? delay() : static_cast<int64_t>(rng_() % 30);
      if (budget_ <= 0 && !model_.empty())
        end = std::max(end, std::get<0>(*model_.begin()));  // drain: always make progress
      sim_.run_until(Time::from_ps(end));
      REQUIRE(sim_.now() == Time::from_ps(end));
      REQUIRE(sim_.pending() == model_.size());
      if (budget_ > 0 && rng_() % 500 == 0) {
        clear();
        REQUIRE(sim_.pending() == 0);
        ++clears_;
        for (int k = 0; k < 5; ++k)
          schedule(static_cast<int>(rng_() % evs_.size()), end + delay());
      }
      for (int k = 0; budget_ > 0 && k < 3; ++k, --budget_)
        random_op(-1);  // between runs, at now
    }
  }

  std::vector<std::pair<int, int64_t>> fired_, expected_;
  int clears_ = 0;

 private:
  struct Actor final : Event {
    Levels* owner;
    int id;
    Actor(Levels* o, int i) : owner(o), id(i) {}
    void fire() override { owner->on_fire(id); }
  };
  void forget(int id) {
    if (key_[id]) {
      model_.erase({key_[id]->first, key_[id]->second, id});
      key_[id].reset();
    }
  }

  Simulator sim_;  // destroyed after the events
  std::mt19937_64 rng_;
  std::vector<std::unique_ptr<Actor>> evs_;
  std::set<std::tuple<int64_t, uint64_t, int>> model_;
  std::vector<std::optional<std::pair<int64_t, uint64_t>>> key_;
  uint64_t seq_ = 0;
  int budget_;
};

}  // namespace

TEST_CASE("events on every level of the wheel fire in the model's order", "[engine][wheel]") {
  int clears = 0;
  for (uint64_t seed : {11, 12, 13, 14, 15, 16}) {
    for (int events : {1, 2, 5, 60, 700}) {
      Levels levels(seed, events, 30'000);
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
