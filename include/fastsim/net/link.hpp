// A unidirectional link: drop-tail FIFO -> transmitter -> propagation delay line,
// with optional seeded Bernoulli loss on the wire, optional RED in front of the FIFO
// (red.hpp), and optionally served as a dummynet pipe (dummynet_pipe.hpp: released at
// scheduler ticks in per-tick batches instead of by a work-conserving transmitter).
// Follows htsim's "one pending event per FIFO", extended to whole chains of links:
// - Serialization is work-conserving and the delay fixed, so a packet's transmission
//   start and its arrival at the far end are known when it enters the link. Every
//   packet on the link (waiting, serializing, propagating) is one slot of a contiguous
//   ring (time stamps next to the packet pointer, so walking the queue never touches
//   cold packet memory); only the earliest delivery is in the global event queue.
// - Chaining: a link fed by exactly one other link (an access link behind a bottleneck,
//   the reverse access link behind the reverse bottleneck) receives every packet in
//   order, so its feeder hands a packet over at the moment the packet *enters* the
//   feeder, stamped with its future arrival time, and no event marks the hop between
//   them. Queue, drop and counter state is still evaluated at the true times: every
//   statistic is brought up to `now` lazily from the slots' time stamps (arrival,
//   transmission start, departure), so sampling sees exactly what an event-per-hop
//   link would. Which links are single-fed is set once from all routes before the run
//   (wire_single_fed_links); a packet reaching such a link from elsewhere is a logic
//   error and throws. The same wiring gives a link whose routes all go on to one next
//   link, or all end at one sink, that hop: a packet leaving it is handed on without a
//   read of its route (a cold cache line among many flows; debug builds check the hop).
// Choices:
// - The buffer limit counts packets (or bytes) waiting, not the one being serialized
//   (as ns-3's point-to-point device queue); "drop-tail" drops the arriving packet.
// - A dropped packet takes no slot: it is counted and returned to the pool at once (or,
//   chained, when it reaches the link: it waits in a short FIFO of its own, no longer
//   than the feeder's queue and wire). The memory of a link is thus bounded by its buffer
//   plus the packets on its wire, whatever the arrival rate.
// - The ring doubles when it is full of packets still on the link, and gives memory back
//   when it is full with at most an eighth of it still live (after the view's refresh):
//   it shrinks to the smallest power of two >= twice the live slots, but not within a
//   simulated second of its last resize, so a link whose queue comes and goes reallocates
//   at most once a second (plus the doublings back). Slots keep their indices, so the move
//   is exact: no event, no extra refresh. A link that is read or loses packets often frees
//   slots before its ring is full, and so rarely reaches that moment.
// - What a plain drop-tail link never uses (loss draws and loss changes, an observer, the
//   pipe/RED/AQM, marking, chained drops ahead, lost slots, the counters' report) is one
//   cold part made on first need: 592 bytes a link without it (40 000 at 10 000 flows).
// - Random loss is drawn when the packet enters the link, in FIFO order (the same draw
//   sequence as drawing at the far end); the packet still occupies the wire and is
//   counted lost when it would have arrived. A loss-rate change (set_loss_rate_at,
//   inject_losses_at) applies to packets whose arrival time at this link is at or after
//   the change's time stamp, whether the link is chained or event-fed. A chained link
//   decides a packet when it enters the feeder, so a change must be announced before
//   the packets it concerns enter the feeder; a change that comes later than that
//   (the link already took a packet arriving after the change's time) is a logic error
//   and throws, never a silently different run.
// - A link whose queue is an AQM discipline (CoDel, FQ-CoDel, PIE: cfg.aqm) is served by
//   events instead (aqm_link.hpp): a packet entering it (enqueue, or the hand-over from
//   the previous link) goes to that path, which keeps the same counters; such a link is
//   never chained (neither feeder nor fed). The entry tests the one flag that already
//   caught packets reaching a chained link from elsewhere, so drop-tail links pay nothing.
// - ECN marking (RFC 3168; RED's `ecn` option, red.hpp, or a step threshold, DCTCP's K)
//   is decided when the packet enters the queue, from the queue it finds then (like the
//   drop decision), so chained and event-fed links mark the same packets; the mark is
//   counted (ce_marks) at the packet's arrival time.
// - The queue length is integrated exactly over time (mean queue); a packet's
//   serialization counts towards utilization pro rata over the time it takes (busy_until()),
//   so the busy time of any period is at most the period.
// - Statistics are computed when they are read (counters(), queue_packets/bytes(),
//   take_period_max_queue(), for_each_queued(), packets_on_link()) and when the ring is
//   full (before it would grow): the real-time view walks the slots that arrived or started
//   since (one visit per arrival, starting the waiting packets before it), adding the queue
//   integral's terms in time order as a per-change update would, and keeps the period's
//   largest queue (the run's is the largest period's, folded when read). A chained link whose
//   view has nothing waiting in or ahead of it jumps its cursors instead (no term to add). A
//   link with no feeder (FIFO, RED or pipe) takes every packet at its arrival time, so its
//   real-time view is the admission view: the same terms are added, in the same order, as
//   packets are admitted and start, and a read only brings the admission view to now. Packets leave in
//   ring order: the slots freed are a prefix found without walking it; chained departures,
//   ECN marks and a FIFO's bytes sent and busy time are sums taken at admission less the
//   ring's suffix not yet past. Between reads the packet path only does what others observe
//   at its time: a chained drop reaching the link and a lost packet leaving the wire update
//   the route's counters and free the packet at the link's first entry (accept, delivery,
//   read) at or after that time. check_invariants() recounts it from the slots (tests, debug).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <boost/circular_buffer.hpp>

#include "fastsim/core/rng.hpp"
#include "fastsim/core/simulator.hpp"
#include "fastsim/core/units.hpp"
#include "fastsim/net/dummynet_pipe.hpp"
#include "fastsim/net/link_config.hpp"
#include "fastsim/net/packet_observer.hpp"
#include "fastsim/net/packet_pool.hpp"
#include "fastsim/net/red.hpp"
#include "fastsim/net/route.hpp"

namespace fastsim::net {

class AqmPath;
class AqmQueue;

/// Cumulative counters of a link since the start of the run.
struct LinkCounters {
  uint64_t arrivals = 0;       ///< packets offered to the queue
  uint64_t drops = 0;          ///< dropped at the queue (buffer full, RED or an AQM)
  uint64_t early_drops = 0;    ///< of which RED or the AQM discipline dropped early
  uint64_t ce_marks = 0;       ///< ECN-capable packets marked CE at the queue (RED ecn, marking)
  uint64_t random_losses = 0;  ///< lost on the wire (Bernoulli)
  uint64_t departures = 0;     ///< handed to the next hop
  uint64_t bytes_sent = 0;     ///< bytes whose serialization has started
  Duration busy;               ///< transmitter busy time up to now (at most the time elapsed)
  double queue_area = 0.0;     ///< integral of queued packets over time, packet*seconds
  uint64_t max_queue_pkts = 0;
};

// 16-byte aligned, as when it held the dummynet pipe (with its 128-bit credit) by value:
// the compiler then knows that admit_queue_pkts_/admit_queue_bytes_ (at a 16-byte offset) are one
// aligned pair, and accept() updates them with one vector add of the memory operand (with
// 8-byte alignment it takes one more load per packet, +0.09 % of B1's instructions).
class alignas(16) Link final : public PacketSink {
 public:
  Link(Simulator& sim, PacketPool& pool, LinkConfig cfg, uint64_t seed);
  ~Link() override;
  Link(const Link&) = delete;
  Link& operator=(const Link&) = delete;

  /// A host puts a packet on the link's input at the current time.
  void enqueue(Packet* p);
  /// As a host's first hop (PacketSink): enqueue().
  void receive(Packet* p) override { enqueue(p); }

  [[nodiscard]] const LinkConfig& config() const { return cfg_; }
  /// As a host's first hop, for local congestion (tcp_sender.hpp): nullopt if a packet
  /// of `bytes` put on the link now would be admitted; otherwise the time the next waiting
  /// packet starts serialization (the buffer's next chance of room). A drop-tail FIFO
  /// only: with RED or as a dummynet pipe always nullopt.
  [[nodiscard]] std::optional<Time> full_until(uint32_t bytes);
  /// Changes the Bernoulli loss rate for packets arriving at the link at or after `at`
  /// (>= now); 1.0 is a black hole. Throws std::logic_error if the link already took a
  /// packet arriving after `at` (chained: announce the change earlier, see the file comment).
  void set_loss_rate_at(Time at, double p) { schedule_loss_change(at, p, 0); }
  /// set_loss_rate_at(now, p).
  void set_loss_rate(double p) { set_loss_rate_at(sim_.now(), p); }
  /// The first `n` packets admitted to the link that arrive at or after `at` are lost on
  /// the wire (counted as random losses): a deterministic loss event for experiments and
  /// tests. Throws as set_loss_rate_at.
  void inject_losses_at(Time at, uint32_t n) { schedule_loss_change(at, std::nullopt, n); }
  /// inject_losses_at(now, n).
  void inject_losses(uint32_t n) { inject_losses_at(sim_.now(), n); }
  /// Declares that every packet entering this link comes out of `feeder` (see the file
  /// comment). Set before the run, from all routes.
  void set_single_feeder(const Link* feeder) {
    feeder_ = feeder;
    enters_elsewhere_ = feeder_ != nullptr || aqm_mode_;
    update_eager_view();
  }
  [[nodiscard]] const Link* single_feeder() const { return feeder_; }
  /// Where every route through the link goes next, set by wire_single_fed_links: the next
  /// link or the sink all of them end at; null when they differ (or the sink is not known).
  [[nodiscard]] const PacketSink* only_next_hop() const { return only_hop_; }
  /// Per-packet event traces (packet_observer.hpp): every packet offered to the link is
  /// reported as `object` when it enters; null (the default) is off.
  void set_observer(PacketObserver* observer, uint32_t object);
  [[nodiscard]] const std::string& id() const { return cfg_.id; }
  /// The propagation delay packets see (a pipe's delay is rounded to whole ticks).
  [[nodiscard]] Duration wire_delay() const { return wire_delay_; }
  /// Counters brought up to the current time.
  [[nodiscard]] const LinkCounters& counters();
  [[nodiscard]] uint64_t queue_packets();
  [[nodiscard]] uint64_t queue_bytes();
  /// Largest queue (packets) since the previous call; restarts from the current queue.
  [[nodiscard]] uint64_t take_period_max_queue();
  /// Brings the link up to now and checks the consistency of its ring, cursors and lazy
  /// statistics against a recount from the slots; throws std::logic_error naming what is
  /// broken. For tests; debug builds (NDEBUG off) also check at every statistics read.
  void check_invariants();
  /// Packets on the link now (waiting, serializing or propagating).
  [[nodiscard]] uint64_t packets_on_link();
  /// Packet slots the link holds memory for (its ring's capacity) and chained drops it
  /// holds until they reach it: bounded by the buffer plus the packets on the wires.
  [[nodiscard]] size_t slot_capacity() const;
  /// The AQM discipline serving the link (its counters), or nullptr for drop-tail/RED/dummynet.
  [[nodiscard]] const AqmQueue* aqm() const;
  /// Visits every packet waiting in the buffer now (not yet serializing), oldest first
  /// (an AQM link: in the discipline's order of its queues).
  template <class Fn>
  void for_each_queued(Fn&& fn) {
    if (aqm_mode_) [[unlikely]] {
      aqm_visit(true, [&](const Packet& p) { fn(p); });
      return;
    }
    refresh();
    for (uint64_t i = started_; i < arrived_; ++i) {
      const Slot& s = slot(i);
      if (s.tx_start > s.in)
        fn(*s.pkt);
    }
  }
  /// Visits every packet on the link now (for conservation checks).
  template <class Fn>
  void for_each_packet(Fn&& fn) const {
    if (aqm_mode_) [[unlikely]] {
      aqm_visit(false, [&](const Packet& p) { fn(p); });
      return;
    }
    const Time now = sim_.now();
    for (uint64_t i = head_; i < tail_; ++i) {
      const Slot& s = slot(i);
      if (s.in <= now && now < out(s))
        fn(*s.pkt);
    }
  }

 private:
  friend class AqmPath;
  friend void wire_single_fed_links(std::span<const Route* const> routes);
  void aqm_visit(bool queued_only, const std::function<void(const Packet&)>& fn) const;
  /// A packet entering now when enters_elsewhere_: to the AQM path, or unexpected_feeder().
  void enter_elsewhere(Packet* p);
  /// `p` leaves the far end now: to the next link of its route, or its sink.
  [[gnu::always_inline]] void hand_on(Packet* p) {
    ++p->hop;
#ifndef NDEBUG
    check_next_hop(*p);
#endif
    // Where every route through the link goes next (wire_single_fed_links): no read of the
    // packet's route, a cache line of its own that a link among thousands of flows misses,
    // and of the route's link table behind it.
    Link* next;
    if (only_hop_is_link_) {
      next = static_cast<Link*>(only_hop_);
    } else if (only_hop_ != nullptr) {
      only_hop_->receive(p);
      return;
    } else if (p->hop < p->route->links.size()) {
      next = p->route->links[p->hop];
    } else {
      p->route->sink->receive(p);
      return;
    }
    if (next->enters_elsewhere_) [[unlikely]]
      next->enter_elsewhere(p);
    else
      next->accept(p, sim_.now());
  }
  enum class SlotState : uint8_t {
    kPending,    // waits for its delivery event at `out`
    kDelivered,  // delivery event done
    kChained,    // already handed to the next (single-fed) link
    kLost,       // random loss: leaves the wire at `out` into the pool
  };
  /// One packet on the link, with its precomputed times: 32 bytes, two per cache line
  /// (the arrival at the far end is derived, see out()).
  struct alignas(32) Slot {
    Packet* pkt;
    Time in;        // arrival at the link's input
    Time tx_start;  // serialization start (== in if it did not wait)
    uint32_t size;
    SlotState state;
    bool marked;  // marked CE at this link's queue
  };
  static_assert(sizeof(Slot) == 32);
  /// When the slot's packet reaches the far end.
  [[nodiscard]] Time out(const Slot& s) const {
    if (pipe_mode_) [[unlikely]]
      return s.tx_start + wire_delay_;
    return s.tx_start + tx_time(s.size) + wire_delay_;
  }

  /// Takes `p` at its arrival time `in` (>= now, non-decreasing over calls).
  void accept(Packet* p, Time in);
  /// accept() with kPlain: the plain_ case, its feature tests compiled out; with kPlainPipe
  /// the plain_pipe_ case (the pipe's admission inline, the other features' tests compiled out).
  template <bool kPlain, bool kPlainPipe>
  void accept_as(Packet* p, Time in);
  /// plain_ and plain_pipe_ from the features they sum up.
  void update_plain();
  /// eager_view_ from the link's feeder and queue model.
  void update_eager_view() { eager_view_ = feeder_ == nullptr && !aqm_mode_; }
  /// Adds the queue integral's term up to `t` for `queued` waiting packets.
  [[gnu::always_inline]] void add_area(uint64_t queued, Time t) {
    counters_.queue_area += queue_area_term(queued, area_since_, t);
    area_since_ = t;
  }
  /// Moves the admission view to time `in` (>= every earlier input time); not for a pipe
  /// with the eager view (advance_eager_view<true>).
  void advance_admission(Time in);
  /// With eager_view_: moves the admission view, which is the real-time one, to `in`,
  /// adding the queue integral's terms (and with kPipe a pipe's service) as packets start.
  template <bool kPipe>
  void advance_eager_view(Time in);
  /// advance_eager_view<true>(now), out of line (sync_due()'s rare pipe case).
  void advance_pipe_view(Time now);
  void on_delivery();
  /// Does what is due outside the link's own statistics (a chained drop reaching the
  /// link, a lost packet leaving the wire: route counters and the pool see them then).
  void sync() {
    const Time now = sim_.now();
    if (now >= next_due_)
      sync_due(now);
  }
  /// Brings the real-time view (queue statistics, counters) to now and frees the slots
  /// whose packets have left: for a read, or when the ring is full.
  void refresh() {
    sync_due(sim_.now());
#ifndef NDEBUG
    check_state();
#endif
  }
  /// check_invariants() without the refresh.
  void check_state() const;
  void sync_due(Time now);
  /// The ring is full: frees what has left by now, then doubles the ring if nothing left,
  /// or shrinks it if at most an eighth of it is still live.
  void make_room();
  /// Moves the live slots into a ring of `slots` (a power of two > tail_ - head_).
  void resize_ring(uint64_t slots);
  /// Walks the slots that arrived or started since the last call up to `now` (queue
  /// integral, period maximum, cursors).
  void advance_view(Time now);
  void retire(Time now);
  /// A packet arriving at `in` is dropped at the queue (RED if `early`).
  void drop(Packet* p, Time in, bool early);
  void count_drop(Packet* p, bool early);
  /// The slot's packet starts serialization (its busy time runs from then).
  void serve(const Slot& s);
  /// One term of the queue integral: `queued` packets from `since` to `t`, packet*seconds
  /// (converted as a signed number: a queue length is below 2^63, so the same double).
  [[gnu::always_inline]] static double queue_area_term(uint64_t queued, Time since, Time t) {
    return static_cast<double>(static_cast<int64_t>(queued)) * (t - since).to_seconds();
  }
  [[gnu::always_inline]] void integrate_queue(Time t) {
    add_area(queued_pkts_, t);
  }
  /// Serialization time of `bytes` at the link's rate, memoized for the last two sizes
  /// (a link carries mostly data packets, ACKs, or both).
  [[nodiscard]] Duration tx_time(uint32_t bytes) const {
    if (bytes == memo_.bytes[0]) [[likely]]
      return memo_.tx[0];
    if (bytes == memo_.bytes[1])
      return memo_.tx[1];
    return tx_time_slow(bytes);
  }
  Duration tx_time_slow(uint32_t bytes) const;
  /// Transmitter time the slot uses (counts towards utilization).
  [[nodiscard]] Duration busy_time(const Slot& s) const {
    if (pipe_mode_) [[unlikely]]  // no call here: the view walk stays free of calls
      return Duration::picoseconds(static_cast<int64_t>(s.size * pipe_ps_per_byte_ + 0.5));
    return tx_time(s.size);
  }
  /// With RED or a dummynet pipe: when a packet arriving at `in` leaves the queue, or
  /// nullopt if it is dropped at the queue (the plain FIFO is inline in accept()).
  /// RED may mark an `ecn_capable` packet instead (red_marked_).
  std::optional<Time> admit_modelled(Time in, uint32_t bytes, bool ecn_capable);
  /// A pipe's admission (RED, if any, has admitted the packet): its release tick, or nullopt
  /// if the buffer refuses it (the pipe's credit then unchanged; not an early drop).
  std::optional<Time> admit_to_pipe(Time in, uint32_t bytes);
  /// The buffer cannot take one more waiting packet of `bytes` (at the admission time).
  [[nodiscard]] bool full(uint32_t bytes) const {
    return cfg_.buffer.packets != 0 ? admit_queue_pkts_ + 1 > cfg_.buffer.packets
                                    : admit_queue_bytes_ + bytes > cfg_.buffer.bytes;
  }
  RandomStream& loss_rng();
  /// The cold part, made on first use.
  struct Cold;
  Cold& cold();
  Slot& slot(uint64_t i) {
    return ring_[i & mask_];
  }
  [[nodiscard]] const Slot& slot(uint64_t i) const {
    return ring_[i & mask_];
  }
  [[noreturn]] void unexpected_feeder() const;
  /// Debug builds: `p` (its hop already advanced) goes where its route says, not only to the
  /// cached next hop of the routes wired before the run (throws std::logic_error otherwise).
  void check_next_hop(const Packet& p) const;
  void schedule_loss_change(Time at, std::optional<double> rate, uint32_t inject);
  /// The latest arrival time of a packet the link has taken (at most now, unless chained).
  [[nodiscard]] Time latest_input() const;
  /// Applies the loss changes due at or before `in`.
  void apply_loss_changes(Time in);

  // What a plain drop-tail link never uses, made only for a link that needs it (issue 18,
  // sixth round: 40 000 access links at 10 000 flows): a link whose configuration has a
  // pipe, RED, an AQM, marking or a loss rate gets it when it is made; the others when an
  // observer or a loss change is set, a chained drop is ahead of it, or the counters are
  // first read. The plain path reaches it only for a chained drop, and the view's
  // bookkeeping (advance_view, retire, sync_due) tests the one pointer.
  struct Cold {
    std::unique_ptr<RandomStream> rng;   // made on first use: 2.5 KB that lossless links do without
    PacketObserver* observer = nullptr;  // per-packet traces: null is off
    uint32_t observer_object = 0;
    uint32_t injected_losses = 0;
    uint64_t mark_threshold = UINT64_MAX;  // step marker: mark at this many waiting packets (max: off)
    std::unique_ptr<DummynetPipe> pipe;    // cfg.tick > 0 only
    std::unique_ptr<RedGate> red;
    std::unique_ptr<AqmPath> aqm;  // cfg.aqm: packets take the event-driven path (aqm_link.hpp)
    // Loss changes not yet due, by time (ties in call order).
    struct LossChange {
      Time at;
      std::optional<double> rate;
      uint32_t inject;
    };
    std::vector<LossChange> loss_changes;
    // Chained packets dropped at admission, not yet at the link (arrival times non-decreasing).
    struct DropAhead {
      Time in;
      Packet* pkt;
      bool early;
    };
    boost::circular_buffer<DropAhead> drops_ahead;
    // Lost slots not yet retired, oldest first (their packets return to the pool at out()).
    boost::circular_buffer<uint64_t> lost;
    LinkCounters report;  // what counters() returns
  };

  Simulator& sim_;
  PacketPool& pool_;
  LinkConfig cfg_;
  uint64_t seed_;
  const Link* feeder_ = nullptr;
  // A packet put on the link now does not go to accept(): an AQM link's (aqm_link.hpp), or a
  // logic error on a chained one (feeder_ set). One flag, so the usual entry tests one byte.
  bool enters_elsewhere_ = false;
  bool aqm_mode_ = false;     // served by an AQM discipline (cold_->aqm set)
  bool pipe_mode_ = false;    // served at ticks (cold_->pipe set); kept next to the hot fields
  bool modelled_ = false;     // a pipe or RED: admission through admit_modelled()
  bool may_mark_ = false;     // a step marker, RED or a pipe: admission decides ECN marks
  bool may_lose_ = false;     // a loss rate or injected losses: admission draws losses
  bool feeds_chain_ = false;  // some link is chained behind this one (wire_single_fed_links)
  // None of the rarely set features (a pipe or RED, marking, losses, a loss change to come,
  // an observer): accept() takes its path without their tests.
  bool plain_ = false;
  // A dummynet pipe with none of the other rarely set features (no RED, marking, losses,
  // loss change, observer): accept() takes the pipe's path without their tests.
  bool plain_pipe_ = false;
  // Every input comes at the current time (no feeder hands packets over ahead of time): the
  // real-time view is the admission view, so the queue integral and period maximum (and a
  // pipe's service) are kept as packets are admitted and start, and a refresh only advances
  // the admission view to now (no second walk over the slots). A drop-tail FIFO, RED or a
  // dummynet pipe alike: each serves in ring order, so the admission cursor is the start one.
  bool eager_view_ = false;
  bool last_early_drop_ = false;  // admit()'s reason for its last refusal
  bool red_marked_ = false;       // admit_modelled(): RED marked the packet it admitted
  bool only_hop_is_link_ = false;  // only_hop_ is the next Link (else the routes' sink)
  Duration wire_delay_;
  double pipe_ps_per_byte_ = 0;  // a pipe's transmission time per byte (utilization)
  std::unique_ptr<Cold> cold_;
  MemberEvent<Link, &Link::on_delivery, HintedEvent> delivery_event_{this};
  // The first loss change not yet due (cold_->loss_changes).
  Time next_loss_change_ = Time::never();

  // Slots [head_, tail_) are live; indices grow monotonically and wrap by mask_.
  std::vector<Slot> ring_;
  uint64_t mask_ = 0;
  Time resized_at_ = Time::zero();
  uint64_t head_ = 0;
  uint64_t tail_ = 0;
  uint64_t deliver_ = 0;  // first kPending slot (tail_ if none)
  // Admission view, at the latest input time: slots [admit_, tail_) not dropped wait at that time.
  uint64_t admit_ = 0;
  uint64_t admit_queue_pkts_ = 0;
  uint64_t admit_queue_bytes_ = 0;
  Time busy_until_ = Time::zero();
  // Busy time of every packet started, and when the transmitter finishes them (a pipe's
  // batch released at one tick is spread as if served back to back).
  Duration busy_started_;
  Time busy_end_ = Time::zero();
  // A FIFO's service (not a pipe's): summed over every admitted slot when it is admitted.
  Duration busy_admitted_;
  uint64_t bytes_admitted_ = 0;
  // Real-time view, at now: slots before arrived_ have arrived; queued ones before started_ have started.
  uint64_t arrived_ = 0;
  uint64_t started_ = 0;
  uint64_t queued_pkts_ = 0;
  uint64_t queued_bytes_ = 0;
  uint64_t period_max_queue_ = 0;
  uint64_t waiting_end_ = 0;       // one past the last slot admitted to wait (advance_view)
  uint64_t chained_ = 0;           // slots handed on chained: departed at their out() (counters())
  uint64_t marks_admitted_ = 0;    // slots admitted marked CE: counted at their arrival (counters())
  Time next_due_ = Time::never();  // sync() has nothing to do before this time
  Time area_since_ = Time::zero();
  // Counted as they happen: drops, losses, delivered departures, the queue integral and
  // period maximum, a pipe's or an AQM's service, arrivals, marks; counters() adds the rest.
  LinkCounters counters_;
  // Serialization times of the last two packet sizes seen ([0] the most recent; sizes and
  // times in two arrays, 24 bytes without padding).
  struct TxMemo {
    std::array<uint32_t, 2> bytes{};
    std::array<Duration, 2> tx{};
  };
  mutable TxMemo memo_;
  // Set when every route through the link continues to the same next link (only_hop_is_link_),
  // or ends at the same sink known before the run (wire_single_fed_links); otherwise null and
  // hand_on() reads the packet's route. Routes made during the run (flow arrivals) share their
  // links with a template route, whose sink is unknown: such a last hop caches no sink.
  PacketSink* only_hop_ = nullptr;
};

/// Marks every link that only one other link feeds, over all `routes` of the run
/// (packets a host puts on a link count as another feeder), and gives a link whose routes
/// all continue to one next link, or all end at one sink, that next hop.
void wire_single_fed_links(std::span<const Route* const> routes);

/// Throws std::logic_error if `route` leaves one of its links other than by the hop that
/// link cached (wire_single_fed_links), or enters a chained link from another feeder. Called
/// once per route when a connection is made (also during the run): the per-packet check of
/// the cached hop is debug-only, so a route made after the wiring with a new link sequence
/// is refused in every build instead of being sent down another route's path.
void check_route_against_wiring(const Route& route);

}  // namespace fastsim::net
