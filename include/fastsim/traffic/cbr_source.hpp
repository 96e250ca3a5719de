// A constant-bit-rate UDP source: packets of a fixed size leave every size/rate seconds from start until stop, with no
// feedback (the minimal cross traffic of the Quick Vegas evaluation; ns-3's OnOff application with a permanent "on").
// Packets share every queue with TCP and count in link metrics. Deterministic: the first packet leaves at `start`, the
// k-th at start + k gap.
#pragma once

#include <cstdint>

#include "fastsim/core/simulator.hpp"
#include "fastsim/core/units.hpp"
#include "fastsim/net/packet_pool.hpp"
#include "fastsim/net/route.hpp"
#include "fastsim/traffic/udp_source.hpp"

namespace fastsim::traffic {

class CbrSource final : public UdpSource {
 public:
  /// Sends `packet_bytes`-byte packets at `rate` over `route` during [start, stop), once started.
  CbrSource(Simulator& sim, net::PacketPool& pool, const net::Route* route, net::PacketSink& out, Rate rate,
            uint32_t packet_bytes, Time start, Time stop)
      : UdpSource(sim, pool, route, out, start, stop),
        packet_bytes_(packet_bytes),
        gap_ps_(static_cast<double>(packet_bytes) * 8.0 / rate.to_double() * 1e12) {}

  void fire() override {
    send(packet_bytes_);
    // Times from the start, not from the previous packet: no drift from rounding.
    const Time next = start_ + Duration::picoseconds(static_cast<int64_t>(gap_ps_ * static_cast<double>(sent_)));
    if (next < stop_)
      sim_.schedule_at(*this, next);
  }

 private:
  uint32_t packet_bytes_;
  double gap_ps_;
};

}  // namespace fastsim::traffic
