// A drop-tail link with none of the rarely set features takes accept()'s plain path
// (Link::plain_); a feature switched on later (an observer, injected losses, a loss
// rate, a loss change announced ahead) takes it off that path from then on.
#include <catch2/catch.hpp>

#include <vector>

#include "../support/link_bench.hpp"
#include "fastsim/net/link.hpp"

using namespace fastsim;
using namespace fastsim::net;

namespace {

struct CountingObserver final : PacketObserver {
  int admitted = 0;
  int dropped = 0;
  void link_admitted(uint32_t, const Packet&, Time, Time, Time, bool) override { ++admitted; }
  void link_dropped(uint32_t, const Packet&, Time, bool) override { ++dropped; }
  void sender_sent(uint32_t, const Packet&, Time) override {}
  void sender_ack(uint32_t, const Packet&, Time) override {}
  void sender_window(uint32_t, double, double, Time) override {}
};

LinkConfig plain_config() {
  return {"l", Rate{100'000'000}, Duration::milliseconds(1), {4, 0}, 0.0, {}, {}, {}};
}

}  // namespace

TEST_CASE("a plain link takes an observer set after packets went through it", "[link]") {
  Bench b(plain_config());
  b.inject(0);
  CountingObserver obs;
  b.link.set_observer(&obs, 1);
  for (uint64_t i = 1; i <= 8; ++i)
    b.inject(i);
  CHECK(obs.admitted == 4);  // four wait behind packet 0 (serializing): the buffer
  CHECK(obs.dropped == 4);
  b.link.set_observer(nullptr, 0);
  b.sim.run_until(Time::at(Duration::seconds_int(1)));
  b.inject(9);
  CHECK(obs.admitted == 4);
}

TEST_CASE("a plain link loses the packets of losses injected or a loss rate set later", "[link]") {
  Bench b(plain_config());
  b.inject(0);
  b.sim.run_until(Time::at(Duration::milliseconds(10)));
  b.link.inject_losses(2);
  for (uint64_t i = 1; i <= 3; ++i)
    b.inject(i);
  b.sim.run_until(Time::at(Duration::milliseconds(20)));
  CHECK(b.sink.seqs == std::vector<uint64_t>{0, 3});
  CHECK(b.link.counters().random_losses == 2);
  b.link.set_loss_rate(1.0);
  b.inject(4);
  b.sim.run_until(Time::at(Duration::milliseconds(30)));
  CHECK(b.link.counters().random_losses == 3);
  b.link.set_loss_rate(0.0);
  b.inject(5);
  b.sim.run_until(Time::at(Duration::milliseconds(40)));
  CHECK(b.sink.seqs == std::vector<uint64_t>{0, 3, 5});
}

TEST_CASE("a plain link applies a loss change announced ahead when packets reach its time", "[link]") {
  Bench b(plain_config());
  b.link.set_loss_rate_at(Time::at(Duration::milliseconds(5)), 1.0);
  b.inject(0);
  b.sim.run_until(Time::at(Duration::milliseconds(5)));
  b.inject(1);
  b.sim.run_until(Time::at(Duration::milliseconds(20)));
  CHECK(b.sink.seqs == std::vector<uint64_t>{0});
  CHECK(b.link.counters().random_losses == 1);
}
