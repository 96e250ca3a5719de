// The event-driven service path of a link whose queue is an AQM discipline (CoDel,
// FQ-CoDel, PIE: aqm_queue.hpp). Such a discipline decides at dequeue (sojourn time) or
// reorders flows, so a packet's departure is not known when it enters: unlike the
// precomputed drop-tail/RED/dummynet path of link.hpp, the link runs htsim's queue +
// pipe -- one event per transmission completion (the transmitter asks the discipline for
// the next packet) and one pending event for the wire's earliest arrival (a FIFO of
// packets in propagation).
// - The drop-tail path is untouched: a packet entering an AQM link is diverted here by
//   the flag Link already tested at every unchained entry (enters_elsewhere_). An AQM link is never chained, neither as
//   feeder nor as fed link (wire_single_fed_links), so every packet reaches it at its true arrival time.
// - Statistics go to the link's own counters and are kept eagerly (queue length integral,
//   maximum, busy time, drops: AQM drops count as early drops), so the link traces and
//   summary.json read an AQM link exactly like any other.
// - Random loss on the wire is drawn when a packet finishes serialization (it occupies
//   the wire and is counted lost when it would have arrived).
#pragma once

#include <functional>
#include <memory>

#include <boost/circular_buffer.hpp>

#include "fastsim/core/event.hpp"
#include "fastsim/core/simulator.hpp"
#include "fastsim/net/aqm_queue.hpp"

namespace fastsim::net {

class Link;

class AqmPath final : public AqmDropSink {
 public:
  AqmPath(Link& link, Simulator& sim, const AqmParams& prm, uint64_t seed);
  ~AqmPath();
  AqmPath(const AqmPath&) = delete;
  AqmPath& operator=(const AqmPath&) = delete;

  /// A packet arrives at the link now.
  void accept(Packet* p);
  /// Visits the waiting packets, and unless `queued_only` the one serializing and those on the wire.
  void visit(bool queued_only, const std::function<void(const Packet&)>& fn) const;
  [[nodiscard]] const AqmQueue& queue() const { return *queue_; }
  [[nodiscard]] AqmQueue& queue() { return *queue_; }

 private:
  void aqm_drop(Packet* p, bool early) override;
  /// The transmitter is free at `now`: serialize the next packet the discipline gives.
  void start_next(Time now);
  /// Copies the discipline's queue length into the link's statistics.
  void note_queue();
  void on_tx_done();
  void on_wire();

  struct OnWire {
    Time out;
    Packet* pkt;
    bool lost;
  };
  Link& link_;
  Simulator& sim_;
  std::unique_ptr<AqmQueue> queue_;
  Packet* serving_ = nullptr;
  boost::circular_buffer<OnWire> wire_;
  MemberEvent<AqmPath, &AqmPath::on_tx_done> tx_event_{this};
  MemberEvent<AqmPath, &AqmPath::on_wire> wire_event_{this};
};

}  // namespace fastsim::net
