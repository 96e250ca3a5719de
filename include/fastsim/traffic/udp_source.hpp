// What every UDP source shares (cbr_source.hpp, pareto_on_off_source.hpp): a count of
// packets sent, an explicit start, the send step into the first hop of a route, and the
// sink that counts and frees what reaches the route's end. Sources get no feedback.
// A pending source event is cancelled when the source is destroyed (core/event.hpp).
#pragma once

#include <cstdint>

#include "fastsim/core/simulator.hpp"
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

/// A UDP source: an event that sends its next packet when it fires, from `start` (once
/// start() is called) until before `stop`. Subclasses decide when the next packet leaves.
/// Packets go to `out`, the route's first hop (its first link in a run).
class UdpSource : public Event {
 public:
  UdpSource(Simulator& sim, net::PacketPool& pool, const net::Route* route, net::PacketSink& out, Time start, Time stop)
      : sim_(sim), pool_(pool), route_(route), out_(out), start_(start), stop_(stop) {}
  UdpSource(const UdpSource&) = delete;
  UdpSource& operator=(const UdpSource&) = delete;
  /// Schedules the first packet (at `start`).
  void start() { sim_.schedule_at(*this, start_); }
  [[nodiscard]] uint64_t sent() const { return sent_; }

 protected:
  /// Sends the next `bytes`-byte packet (numbered by `sent_`, stamped now).
  void send(uint32_t bytes) {
    net::Packet* p = pool_.acquire();
    p->route = route_;
    p->size_bytes = bytes;
    p->seq = sent_++;
    p->echo = sim_.now();
    out_.receive(p);
  }

  Simulator& sim_;
  net::PacketPool& pool_;
  const net::Route* route_;
  net::PacketSink& out_;
  Time start_;
  Time stop_;
  uint64_t sent_ = 0;  ///< packets sent so far
};

}  // namespace fastsim::traffic
