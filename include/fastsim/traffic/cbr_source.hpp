// A constant-bit-rate UDP source and the sink that counts what it delivers: packets of
// a fixed size leave every size/rate seconds from start until stop, with no feedback
// (the minimal cross traffic of the Quick Vegas evaluation; ns-3's OnOff application
// with a permanent "on"). Packets share every queue with TCP and count in link
// metrics. Deterministic: the first packet leaves at `start`, the k-th at start + k gap.
#pragma once

#include <cstdint>

#include "fastsim/core/simulator.hpp"
#include "fastsim/core/units.hpp"
#include "fastsim/net/link.hpp"
#include "fastsim/net/packet_pool.hpp"
#include "fastsim/net/route.hpp"

namespace fastsim::traffic {

/// Counts and frees the packets that reach the end of a UDP route.
class CountingSink final : public net::PacketSink {
 public:
  explicit CountingSink(net::PacketPool& pool) : pool_(pool) {}
  void receive(net::Packet* p) override {
    ++packets_;
    bytes_ += p->size_bytes;
    pool_.release(p);
  }
  [[nodiscard]] uint64_t packets() const { return packets_; }
  [[nodiscard]] uint64_t bytes() const { return bytes_; }

 private:
  net::PacketPool& pool_;
  uint64_t packets_ = 0;
  uint64_t bytes_ = 0;
};

/// Puts a `bytes`-byte UDP packet numbered `seq`, stamped `now`, on the first link of
/// `route` (what every UDP source sends).
inline void send_udp_packet(net::PacketPool& pool, const net::Route* route, uint32_t bytes, uint64_t seq, Time now) {
  net::Packet* p = pool.acquire();
  p->route = route;
  p->size_bytes = bytes;
  p->seq = seq;
  p->echo = now;
  route->links[0]->enqueue(p);
}

class CbrSource final : public Event {
 public:
  /// Sends `packet_bytes`-byte packets at `rate` over `route` during [start, stop), once started.
  CbrSource(Simulator& sim, net::PacketPool& pool, const net::Route* route, Rate rate, uint32_t packet_bytes,
            Time start, Time stop)
      : sim_(sim), pool_(pool), route_(route), packet_bytes_(packet_bytes), start_(start), stop_(stop) {
    gap_ps_ = static_cast<double>(packet_bytes) * 8.0 / rate.to_double() * 1e12;
  }
  ~CbrSource() override {
    if (scheduled())
      sim_.cancel(*this);
  }
  /// Schedules the first packet (at `start`).
  void start() { sim_.schedule_at(*this, start_); }

  void fire() override {
    send_udp_packet(pool_, route_, packet_bytes_, sent_++, sim_.now());
    // Times from the start, not from the previous packet: no drift from rounding.
    const Time next = start_ + Duration::picoseconds(static_cast<int64_t>(gap_ps_ * static_cast<double>(sent_)));
    if (next < stop_)
      sim_.schedule_at(*this, next);
  }
  [[nodiscard]] uint64_t sent() const { return sent_; }

 private:
  Simulator& sim_;
  net::PacketPool& pool_;
  const net::Route* route_;
  uint32_t packet_bytes_;
  Time start_;
  Time stop_;
  double gap_ps_ = 0;
  uint64_t sent_ = 0;
};

}  // namespace fastsim::traffic
