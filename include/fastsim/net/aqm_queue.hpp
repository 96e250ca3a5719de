// The interface of an active queue management discipline a link serves by events
// (aqm_link.hpp): CoDel (codel.hpp), FQ-CoDel (fq_codel.hpp) and PIE (pie.hpp). The
// discipline owns the waiting packets (not the one being transmitted) with their enqueue
// times, decides drops at enqueue or at dequeue, and hands dropped packets to its
// AqmDropSink (the link counts them and returns them to the pool).
// ECN hook: every AQM drop decision goes through AqmQueue::drop(p, early = true); a
// CE-marking variant would mark an ECN-capable packet there and keep it instead.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>

#include <boost/circular_buffer.hpp>

#include "fastsim/core/time.hpp"
#include "fastsim/net/link_config.hpp"
#include "fastsim/net/packet.hpp"

namespace fastsim::net {

/// Counters of a discipline since the start of the run.
struct AqmStats {
  uint64_t aqm_drops = 0;       ///< dropped by the algorithm (CoDel's control law, PIE's probability)
  uint64_t overflow_drops = 0;  ///< dropped because the buffer (limit) was full
  uint64_t dequeued = 0;        ///< packets handed to the transmitter
  double sojourn_sum_s = 0;     ///< their total time in the queue
  Duration max_sojourn;         ///< the longest of those times
  double drop_prob = 0;         ///< PIE: the current drop probability
  /// Mean queueing delay of the dequeued packets, seconds (0 if none).
  [[nodiscard]] double mean_sojourn_s() const {
    return dequeued == 0 ? 0.0 : sojourn_sum_s / static_cast<double>(dequeued);
  }
};

/// Takes the packets a discipline drops (it owns them from then on).
class AqmDropSink {
 public:
  virtual void aqm_drop(Packet* p, bool early) = 0;

 protected:
  ~AqmDropSink() = default;
};

/// A FIFO of packets with their enqueue times; grows by doubling, so the steady state
/// does not allocate.
class TimedFifo {
 public:
  struct Entry {
    Packet* pkt = nullptr;
    Time in;
  };
  [[nodiscard]] bool empty() const { return q_.empty(); }
  [[nodiscard]] uint64_t packets() const { return q_.size(); }
  [[nodiscard]] uint64_t bytes() const { return bytes_; }
  [[nodiscard]] const Entry& front() const { return q_.front(); }
  void push(Packet* p, Time in) {
    if (q_.full())
      q_.set_capacity(std::max<size_t>(8, 2 * q_.capacity()));
    q_.push_back({p, in});
    bytes_ += p->size_bytes;
  }
  /// Removes the oldest packet (an empty Entry if none).
  Entry pop() {
    if (q_.empty())
      return {};
    const Entry e = q_.front();
    q_.pop_front();
    bytes_ -= e.pkt->size_bytes;
    return e;
  }
  template <class Fn>
  void for_each(Fn&& fn) const {
    for (const Entry& e : q_)
      fn(*e.pkt);
  }

 private:
  boost::circular_buffer<Entry> q_;
  uint64_t bytes_ = 0;
};

class AqmQueue {
 public:
  AqmQueue(AqmDropSink& sink, BufferLimit limit) : limit_(limit), sink_(sink) {}
  virtual ~AqmQueue() = default;
  AqmQueue(const AqmQueue&) = delete;
  AqmQueue& operator=(const AqmQueue&) = delete;

  /// Offers `p` arriving now: the discipline queues it or drops it (possibly another one).
  virtual void enqueue(Packet* p, Time now) = 0;
  /// The next packet to transmit now, or nullptr if none is left (drops happen here too).
  virtual Packet* dequeue(Time now) = 0;
  [[nodiscard]] virtual uint64_t packets() const = 0;
  [[nodiscard]] virtual uint64_t bytes() const = 0;
  /// Visits every waiting packet.
  virtual void for_each(const std::function<void(const Packet&)>& fn) const = 0;
  [[nodiscard]] const AqmStats& stats() const { return stats_; }

 protected:
  /// One more packet of `bytes` would exceed the buffer (`pkts`/`total` waiting now).
  [[nodiscard]] bool over_limit(uint64_t pkts, uint64_t total, uint32_t bytes) const {
    return limit_.packets != 0 ? pkts + 1 > limit_.packets : total + bytes > limit_.bytes;
  }
  /// Drops `p` (early: the algorithm's decision; otherwise the buffer was full).
  void drop(Packet* p, bool early) {
    ++(early ? stats_.aqm_drops : stats_.overflow_drops);
    sink_.aqm_drop(p, early);
  }
  /// Records the queueing delay of a packet handed to the transmitter.
  void note_dequeue(Time in, Time now) {
    ++stats_.dequeued;
    const Duration d = now - in;
    stats_.sojourn_sum_s += d.to_seconds();
    stats_.max_sojourn = std::max(stats_.max_sojourn, d);
  }

  AqmStats stats_;
  BufferLimit limit_;

 private:
  AqmDropSink& sink_;
};

}  // namespace fastsim::net
