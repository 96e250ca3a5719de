// A unidirectional link: drop-tail FIFO -> transmitter -> propagation delay line,
// with optional seeded Bernoulli loss on the wire.
// Follows htsim's "one pending event per FIFO": every packet on the link (waiting,
// being serialized, or propagating) sits in one intrusive FIFO; since serialization
// is work-conserving and the delay is fixed, each packet's transmission start and
// arrival time are known when it is enqueued, and only the head's arrival is in the
// global event queue. Choices:
// - The buffer limit counts packets (or bytes) waiting, not the one being serialized
//   (as ns-3's point-to-point device queue); "drop-tail" drops the arriving packet.
// - Random loss is applied after serialization (the packet used the link, then was
//   corrupted), like a receive-side error model.
// - The queue length is integrated exactly over time (mean queue); a packet's
//   serialization counts towards utilization in the sample period where it starts.
#pragma once

#include <cstdint>
#include <string>

#include "fastsim/core/rng.hpp"
#include "fastsim/core/simulator.hpp"
#include "fastsim/core/units.hpp"
#include "fastsim/net/packet_pool.hpp"
#include "fastsim/net/route.hpp"

namespace fastsim::net {

/// Buffer size: in packets or in bytes (exactly one is non-zero).
struct BufferLimit {
  uint64_t packets = 0;
  uint64_t bytes = 0;
};

struct LinkConfig {
  std::string id;
  Rate rate;
  Duration delay;
  BufferLimit buffer;
  double loss_rate = 0.0;
};

/// Cumulative counters of a link since the start of the run.
struct LinkCounters {
  uint64_t arrivals = 0;       ///< packets offered to the queue
  uint64_t drops = 0;          ///< dropped at the queue (buffer full)
  uint64_t random_losses = 0;  ///< lost on the wire (Bernoulli)
  uint64_t departures = 0;     ///< handed to the next hop
  uint64_t bytes_sent = 0;     ///< bytes whose serialization has started
  Duration busy;               ///< total serialization time started
  double queue_area = 0.0;     ///< integral of queued packets over time, packet*seconds
  uint64_t max_queue_pkts = 0;
};

class Link {
 public:
  Link(Simulator& sim, PacketPool& pool, LinkConfig cfg, uint64_t seed);
  Link(const Link&) = delete;
  Link& operator=(const Link&) = delete;

  /// A packet arrives at the link's input at the current time.
  void enqueue(Packet* p);

  [[nodiscard]] const LinkConfig& config() const { return cfg_; }
  /// Changes the Bernoulli loss rate from now on (outages, tests); 1.0 is a black hole.
  void set_loss_rate(double p) { cfg_.loss_rate = p; }
  /// The next `n` packets to finish crossing the link are lost on the wire (counted as
  /// random losses): a deterministic single-loss event for experiments and tests.
  void inject_losses(uint32_t n) { injected_losses_ += n; }
  [[nodiscard]] const std::string& id() const { return cfg_.id; }
  /// Counters brought up to the current time.
  [[nodiscard]] const LinkCounters& counters();
  [[nodiscard]] uint64_t queue_packets();
  [[nodiscard]] uint64_t queue_bytes();
  /// Largest queue (packets) since the previous call; restarts from the current queue.
  [[nodiscard]] uint64_t take_period_max_queue();
  /// Packets on the link (waiting, serializing or propagating).
  [[nodiscard]] uint64_t packets_on_link() const { return on_link_; }
  /// Visits every packet waiting in the buffer (not yet serializing), oldest first.
  template <class Fn>
  void for_each_queued(Fn&& fn) {
    advance();
    for (const Packet* p = waiting_; p != nullptr; p = p->next)
      fn(*p);
  }
  /// Visits every packet on the link (for conservation checks).
  template <class Fn>
  void for_each_packet(Fn&& fn) const {
    for (const Packet* p = head_; p != nullptr; p = p->next)
      fn(*p);
  }

 private:
  void on_head_arrival();
  void advance();  // starts serializing every waiting packet whose turn has come
  void start_serializing(const Packet* p);
  void integrate_queue(Time t);

  Simulator& sim_;
  PacketPool& pool_;
  LinkConfig cfg_;
  RandomStream rng_;
  uint32_t injected_losses_ = 0;
  MemberEvent<Link, &Link::on_head_arrival> head_event_{this};

  Packet* head_ = nullptr;  // oldest packet on the link
  Packet* tail_ = nullptr;
  Packet* waiting_ = nullptr;  // first packet whose serialization has not started
  Time busy_until_ = Time::zero();
  uint64_t queued_pkts_ = 0;
  uint64_t queued_bytes_ = 0;
  uint64_t on_link_ = 0;
  uint64_t period_max_queue_ = 0;
  Time area_since_ = Time::zero();
  LinkCounters counters_;
};

/// Moves `p` to its next hop or delivers it to its route's sink.
inline void forward(Packet* p);

}  // namespace fastsim::net

namespace fastsim::net {
inline void forward(Packet* p) {
  ++p->hop;
  if (p->hop < p->route->links.size()) {
    p->route->links[p->hop]->enqueue(p);
  } else {
    p->route->sink->receive(p);
  }
}
}  // namespace fastsim::net
