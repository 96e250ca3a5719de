// Test support for the event engine: a Recorder event that logs its id, and EventChurn,
// a population of events whose handlers schedule, re-key, cancel and destroy events from
// inside fire(), mirrored step by step in a reference model of the pending set ordered by
// (time, seq): what fires must be the model's earliest entry every time.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "fastsim/core/simulator.hpp"

namespace fastsim::testing {

inline constexpr int64_t kBucket = int64_t{1} << 20;  // the engine's fine bucket
inline constexpr int64_t kPeriod = int64_t{1} << 32;  // its fine wheel's period
inline constexpr int64_t kSpan = int64_t{1} << 42;    // its coarse wheel's reach

enum class DelayScale { kSmall, kWheel };

struct Recorder final : Event {
  int id;
  std::vector<int>* log;
  Recorder(int i, std::vector<int>* l) : id(i), log(l) {}
  void fire() override { log->push_back(id); }
};

// Events whose handlers act on the queue from inside fire() (schedule, re-key the
// firing event, cancel, destroy, clear), mirrored in a reference model of the pending
// set: (time, seq, id), seq counting every schedule call (the engine's tie-break).
class EventChurn {
 public:
  EventChurn(uint64_t seed, int events, int budget, DelayScale scale)
      : rng_(seed), key_(events), budget_(budget), scale_(scale) {
    for (int i = 0; i < events; ++i)
      evs_.push_back(std::make_unique<Actor>(this, i));
  }

  // A delay: kSmall, up to 40 ps (crowds of simultaneous and near events); kWheel, on
  // every scale of the engine's timing wheel, boundaries included.
  int64_t delay() {
    const int64_t now = sim_.now().ps();
    const auto r = [this](int64_t n) { return static_cast<int64_t>(rng_() % static_cast<uint64_t>(n)); };
    if (scale_ == DelayScale::kSmall)
      return r(40);
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
    EventChurn* owner;
    int id;
    Actor(EventChurn* o, int i) : owner(o), id(i) {}
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
  DelayScale scale_;
};

}  // namespace fastsim::testing
