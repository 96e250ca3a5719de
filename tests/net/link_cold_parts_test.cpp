// The parts of a link that most links never use are kept apart, on the heap, only when
// set (issue 18, memory): the configuration's RED, marking and AQM parameters
// (HeapOptional, deep copies), the dummynet pipe, and the counters a read returns. A link
// that has them behaves as before when it first needs them; the size of a link without
// them is bounded here, so that a member added by mistake to every link shows.
#include <catch2/catch.hpp>

#include <optional>
#include <utility>

#include "../support/link_bench.hpp"
#include "fastsim/net/aqm_queue.hpp"
#include "fastsim/net/heap_optional.hpp"
#include "fastsim/net/link.hpp"

using namespace fastsim;
using namespace fastsim::net;

namespace {

LinkConfig plain(const char* id) {
  return {id, Rate{100'000'000}, Duration::milliseconds(1), {100, 0}, 0.0, {}, {}, {}};
}

}  // namespace

TEST_CASE("a HeapOptional is an optional whose copies are deep", "[link][memory]") {
  HeapOptional<RedParams> a;
  CHECK_FALSE(a.has_value());
  CHECK_FALSE(static_cast<bool>(a));
  CHECK_THROWS_AS(a.value(), std::bad_optional_access);
  a = RedParams{};
  REQUIRE(a.has_value());
  a->min_th = 3;
  HeapOptional<RedParams> b = a;  // deep: b's parameters are its own
  b->min_th = 4;
  CHECK(a->min_th == 3);
  CHECK((*b).min_th == 4);
  a = b;
  CHECK(a->min_th == 4);
  b->min_th = 5;
  CHECK(a->min_th == 4);
  a = std::nullopt;
  CHECK_FALSE(a.has_value());
  a = std::optional<RedParams>{};
  CHECK_FALSE(a.has_value());
  a = std::optional<RedParams>{RedParams{}};
  CHECK(a.has_value());
  a.reset();
  CHECK_FALSE(a);
  a.emplace().max_th = 9;
  CHECK(a.value().max_th == 9);
  HeapOptional<RedParams> c = std::move(a);
  CHECK(c->max_th == 9);
}

TEST_CASE("a link without the optional queue models stays small", "[link][memory]") {
  // 1024 and 232 bytes before issue 18's fifth round, 736 before its sixth (the cold
  // part), 576 before its eleventh (the delivery event's two prefetch hints); 40 002 links
  // at 10 000 flows.
  CHECK(sizeof(LinkConfig) <= 104);
  CHECK(sizeof(Link) <= 592);
}

TEST_CASE("a link's configuration is its own copy, with its RED, marking and AQM parameters", "[link][memory]") {
  LinkConfig cfg = plain("red");
  cfg.red = RedParams{};
  cfg.red->min_th = 2;
  cfg.marking = MarkingParams{7};
  Bench b(cfg);
  cfg.red->min_th = 3;  // the caller's copy changes; the link's does not
  cfg.marking.reset();
  REQUIRE(b.link.config().red.has_value());
  CHECK(b.link.config().red->min_th == 2);
  REQUIRE(b.link.config().marking.has_value());
  CHECK(b.link.config().marking->threshold_pkts == 7);
  CHECK_FALSE(b.link.config().aqm.has_value());
  CHECK(b.link.config().marks_ecn());  // the step marker

  LinkConfig q = plain("codel");
  q.aqm = aqm_defaults(AqmKind::kCodel);
  Bench c(q);
  REQUIRE(c.link.aqm() != nullptr);  // the AQM path is made from the boxed parameters
  for (uint64_t i = 0; i < 3; ++i)
    c.inject(i);
  c.sim.run_until(Time::at(Duration::seconds_int(1)));
  CHECK(c.sink.seqs.size() == 3);
}

TEST_CASE("a dummynet pipe made only for a link with a tick serves at ticks", "[link][memory][dummynet]") {
  LinkConfig cfg = plain("pipe");
  cfg.tick = Duration::milliseconds(1);
  Bench b(cfg);
  b.inject(0);
  b.sim.run_until(Time::at(Duration::seconds_int(1)));
  REQUIRE(b.sink.times.size() == 1);
  // Released at the first tick at or after its arrival (0), then the delay (whole
  // ticks): no serialization time, unlike the FIFO below.
  CHECK(b.sink.times[0] == Time::at(Duration::milliseconds(1)));
  CHECK(b.link.wire_delay() == Duration::milliseconds(1));

  Bench fifo(plain("fifo"));
  fifo.inject(0);
  fifo.sim.run_until(Time::at(Duration::seconds_int(1)));
  REQUIRE(fifo.sink.times.size() == 1);
  CHECK(fifo.sink.times[0] == Time::at(Duration::microseconds(120) + Duration::milliseconds(1)));
}

TEST_CASE("the counters a link's first read makes are those of every later read", "[link][memory]") {
  Bench b(plain("read"));
  for (uint64_t i = 0; i < 4; ++i)
    b.inject(i);
  b.sim.run_until(Time::at(Duration::microseconds(500)));
  const LinkCounters& first = b.link.counters();  // the first read makes the report
  CHECK(first.arrivals == 4);
  CHECK(first.departures == 0);  // still on the 1-ms wire
  b.sim.run_until(Time::at(Duration::seconds_int(1)));
  const LinkCounters& second = b.link.counters();
  CHECK(&second == &first);  // one report, refreshed
  CHECK(second.departures == 4);
  CHECK(second.bytes_sent == 4 * 1500);
}
