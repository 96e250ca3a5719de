// A single link between a packet injector and a recording sink, for link-level tests.
#pragma once

#include <vector>

#include "fastsim/net/link.hpp"

namespace fastsim::net {

struct Sink final : PacketSink {
  PacketPool* pool;
  std::vector<Time> times;
  std::vector<uint64_t> seqs;
  Simulator* sim;
  void receive(Packet* p) override {
    times.push_back(sim->now());
    seqs.push_back(p->seq);
    pool->release(p);
  }
};

struct Bench {
  Simulator sim;
  PacketPool pool;
  Link link;
  Sink sink;
  RouteCounters counters;
  Route route;
  Bench(LinkConfig cfg) : link(sim, pool, std::move(cfg), 7) {
    sink.pool = &pool;
    sink.sim = &sim;
    route.links = {&link};
    route.sink = &sink;
    route.counters = &counters;
  }
  void inject(uint64_t seq, uint32_t bytes = 1500) {
    Packet* p = pool.acquire();
    p->route = &route;
    p->size_bytes = bytes;
    p->seq = seq;
    link.enqueue(p);
  }
};

/// Offers packets at a fixed interval.
struct Injector final : Event {
  Bench* b;
  Duration every;
  uint64_t next = 0;
  uint64_t limit = 0;
  void fire() override {
    b->inject(next++);
    if (next < limit)
      b->sim.schedule_in(*this, every);
  }
};

}  // namespace fastsim::net
