// A precomputed source route: the links a flow's packets cross, the endpoint that
// receives them, and the flow's loss counters (so a link can charge a drop to its flow).
#pragma once

#include <cstdint>
#include <vector>

#include "fastsim/net/packet.hpp"

namespace fastsim::net {

class Link;

/// Anything that can take delivery of a packet at the end of a route (TCP endpoints, sinks).
class PacketSink {
 public:
  virtual ~PacketSink() = default;
  /// Takes ownership of `p` (must release it to the pool or reuse it).
  virtual void receive(Packet* p) = 0;
};

/// Per-direction loss counters of one flow.
struct RouteCounters {
  uint64_t queue_drops = 0;
  uint64_t random_losses = 0;
};

struct Route {
  std::vector<Link*> links;
  PacketSink* sink = nullptr;
  RouteCounters* counters = nullptr;
};

}  // namespace fastsim::net
