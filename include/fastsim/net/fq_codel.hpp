// FQ-CoDel, "The Flow Queue CoDel Packet Scheduler and Active Queue Management
// Algorithm" (RFC 8290), with Linux sch_fq_codel's defaults:
// - Packets are hashed into `flows` (1024) flow queues, each with its own CoDel state
//   (codel.hpp; the "more than one MTU left" test uses the whole scheduler's backlog, as
//   Linux does).
// - Deficit round robin with a `quantum` of 1514 bytes over two lists: a queue that
//   becomes active joins the tail of new_flows with one quantum of credit; the scheduler
//   serves new_flows before old_flows. A queue out of credit gets one more quantum and
//   moves to the tail of old_flows; a new queue found empty moves to old_flows (if that
//   is non-empty, so a flow cannot stay "new" by sending sparsely), an old one leaves.
// - When the buffer (the link's, the "limit": Linux's default is 10240 packets) is
//   exceeded, the packet at the head of the queue with the most bytes is dropped (the
//   RFC's rule; Linux drops up to half of that queue's bytes in one batch, for CPU cost).
// Choices: the flow of a packet is its route (a TCP flow's data and ACKs are separate
// flows, each on its own links); routes are numbered in the order the scheduler first
// sees them and the number hashed with the scenario seed (the RFC's perturbed hash), so
// two flows share a queue with probability 1/flows, deterministically per seed.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "fastsim/net/codel.hpp"

namespace fastsim::net {

struct Route;

class FqCodelQueue final : public AqmQueue {
 public:
  FqCodelQueue(AqmDropSink& sink, BufferLimit limit, const AqmParams& prm, uint64_t seed);
  void enqueue(Packet* p, Time now) override;
  Packet* dequeue(Time now) override;
  [[nodiscard]] uint64_t packets() const override { return pkts_; }
  [[nodiscard]] uint64_t bytes() const override { return bytes_; }
  void for_each(const std::function<void(const Packet&)>& fn) const override;
  /// The flow queue `p` is served from.
  [[nodiscard]] uint32_t flow_of(const Packet& p);

 private:
  enum class List : uint8_t { kNone, kNew, kOld };
  struct Flow {
    TimedFifo q;
    CodelControl codel;
    int64_t deficit = 0;
    List list = List::kNone;
  };
  /// Drops the head of the queue with the most bytes (the buffer is full).
  void drop_from_fattest();

  AqmParams prm_;
  uint64_t seed_;
  std::vector<Flow> flows_;
  // Flows join at the tails and leave at the heads only: rings of flow indices.
  boost::circular_buffer<uint32_t> new_flows_;
  boost::circular_buffer<uint32_t> old_flows_;
  std::unordered_map<const Route*, uint64_t> route_numbers_;
  uint64_t pkts_ = 0;
  uint64_t bytes_ = 0;
};

}  // namespace fastsim::net
