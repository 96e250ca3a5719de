// What every UDP source shares (cbr_source.hpp, pareto_on_off_source.hpp): a count of
// packets sent, an explicit start, the send step onto the first hop of a route, and the
// sink that counts and frees what reaches the route's end. Sources get no feedback.
#pragma once

#include <cstdint>

#include "fastsim/core/simulator.hpp"
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

/// A UDP source: an event that sends its next packet when it fires, from `start` (once
/// start() is called) until before `stop`. Subclasses decide when the next packet leaves.
class UdpSource : public Event {
 public:
  UdpSource(Simulator& sim, net::PacketPool& pool, const net::Route* route, Time start, Time stop)
      : sim_(sim), pool_(pool), route_(route), start_(start), stop_(stop) {}
  ~UdpSource() override {
    if (scheduled())
      sim_.cancel(*this);
  }
  UdpSource(const UdpSource&) = delete;
  UdpSource& operator=(const UdpSource&) = delete;
  /// Schedules the first packet (at `start`).
  void start() { sim_.schedule_at(*this, start_); }
  [[nodiscard]] uint64_t sent() const { return sent_; }

 protected:
  /// Sends the next `bytes`-byte packet now.
  void send(uint32_t bytes) { send_udp_packet(pool_, route_, bytes, sent_++, sim_.now()); }

  Simulator& sim_;
  net::PacketPool& pool_;
  const net::Route* route_;
  Time start_;
  Time stop_;
  uint64_t sent_ = 0;  ///< packets sent so far
};

}  // namespace fastsim::traffic
