// Hooks for per-packet event traces (trace/packet_trace.hpp): a link and a TCP sender
// hold a pointer to an observer, null by default, and call it only when it is set (one
// predictable branch, no virtual call and no allocation when tracing is off).
// - A link reports each packet once, when it enters the link: the link is work-conserving
//   with a fixed delay, so the packet's transmission start and its arrival at the far end
//   (or its loss on the wire) are known then (net/link.hpp). The times passed can lie in
//   the future of the simulator's clock; they are the packet's true event times.
// - A sender reports at the simulator's current time.
#pragma once

#include <cstdint>

#include "fastsim/core/time.hpp"
#include "fastsim/net/packet.hpp"

namespace fastsim::net {

class PacketObserver {
 public:
  virtual ~PacketObserver() = default;
  /// Link `object` admitted `p` arriving at `in`: it starts serialization at `tx_start` and
  /// reaches the far end at `out`, or is lost on the wire at `out` if `lost`.
  virtual void link_admitted(uint32_t object, const Packet& p, Time in, Time tx_start, Time out, bool lost) = 0;
  /// Link `object` dropped `p` arriving at `in` at its queue (RED if `early`).
  virtual void link_dropped(uint32_t object, const Packet& p, Time in, bool early) = 0;
  /// Sender `object` hands data packet `p` to its first hop now.
  virtual void sender_sent(uint32_t object, const Packet& p, Time now) = 0;
  /// Sender `object` processes ACK `p` now.
  virtual void sender_ack(uint32_t object, const Packet& p, Time now) = 0;
  /// Sender `object`'s window is now `cwnd_pkts` (ssthresh `ssthresh_pkts`).
  virtual void sender_window(uint32_t object, double cwnd_pkts, double ssthresh_pkts, Time now) = 0;
};

}  // namespace fastsim::net
