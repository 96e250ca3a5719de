// Host timing noise (docs/model.md, "Host timing noise"): two small elements on the host
// side of a flow's path, outside the TCP state machines, so testbed-like jitter can
// desynchronise otherwise identical flows. Both are off unless a flow sets them.
// - SendJitter sits between a TCP sender and its first hop: every data packet is held for
//   an i.i.d. exponential delay of a given mean (sender processing, scheduling and
//   interrupt latency), but never overtakes the packet before it: it leaves at
//   max(arrival + delay, the previous packet's release), so a flow's packets stay in order.
// - AckCoalescer sits between a TCP receiver and its first hop: ACKs are held and released
//   together at the ticks of a free-running timer (interrupt moderation, GRO flushes) of a
//   given period, whose phase is drawn uniformly in [0, period) per flow.
// Both draw from their own seeded stream (core/rng.hpp), keep the held packets in a ring
// that grows by doubling only when more are held than ever before (no allocation per
// packet in steady state), use one pending event each, and return held packets to the
// pool when destroyed.
#pragma once

#include <string_view>

#include <boost/circular_buffer.hpp>

#include "fastsim/core/rng.hpp"
#include "fastsim/core/simulator.hpp"
#include "fastsim/net/packet_pool.hpp"
#include "fastsim/net/route.hpp"

namespace fastsim::net {

/// Packets held until a release time, in FIFO order.
class HeldPackets {
 public:
  struct Entry {
    Packet* pkt;
    Time release;
  };
  explicit HeldPackets(PacketPool& pool) : pool_(pool), fifo_(16) {}
  HeldPackets(const HeldPackets&) = delete;
  HeldPackets& operator=(const HeldPackets&) = delete;
  ~HeldPackets();
  void push(Packet* p, Time release);
  [[nodiscard]] bool empty() const { return fifo_.empty(); }
  [[nodiscard]] const Entry& front() const { return fifo_.front(); }
  [[nodiscard]] const Entry& back() const { return fifo_.back(); }
  Packet* pop() {
    Packet* p = fifo_.front().pkt;
    fifo_.pop_front();
    return p;
  }
  [[nodiscard]] size_t size() const { return fifo_.size(); }

 private:
  PacketPool& pool_;
  boost::circular_buffer<Entry> fifo_;
};

class SendJitter final : public PacketSink {
 public:
  /// Delays packets into `out` (which must outlive it) by exponential delays of mean `mean` (> 0),
  /// drawn from the stream (seed, stream_name).
  SendJitter(Simulator& sim, PacketPool& pool, PacketSink& out, Duration mean, uint64_t seed,
             std::string_view stream_name);
  void receive(Packet* p) override;
  [[nodiscard]] size_t held() const { return held_.size(); }

 private:
  void on_release();

  Simulator& sim_;
  PacketSink& out_;
  double mean_s_;
  RandomStream rng_;
  HeldPackets held_;
  MemberEvent<SendJitter, &SendJitter::on_release> event_{this};
};

class AckCoalescer final : public PacketSink {
 public:
  /// Releases packets into `out` (which must outlive it) at ticks phase + k period, with
  /// the phase uniform in [0, period) from the stream (seed, stream_name); period > 0.
  AckCoalescer(Simulator& sim, PacketPool& pool, PacketSink& out, Duration period, uint64_t seed,
               std::string_view stream_name);
  void receive(Packet* p) override;
  [[nodiscard]] size_t held() const { return held_.size(); }
  /// The first tick strictly after `t`.
  [[nodiscard]] Time next_tick(Time t) const;

 private:
  void on_tick();

  Simulator& sim_;
  PacketSink& out_;
  Duration period_;
  Duration phase_;
  HeldPackets held_;
  MemberEvent<AckCoalescer, &AckCoalescer::on_tick> event_{this};
};

}  // namespace fastsim::net
