// TCP sender: sequence space, ACK clocking, duplicate ACKs, NewReno or SACK loss
// recovery, the RFC 6298 retransmission timer and RTT estimation. The congestion
// control algorithm only decides the window (Linux tcp_congestion_ops split).
// Follows RFC 5681, RFC 6582 (NewReno), RFC 6675 (SACK recovery), RFC 6298 (RTO),
// and Linux's packet accounting:
// - pipe = packets_out - (sacked_out + lost_out) + retrans_out (Linux tcp_packets_in_flight);
//   a segment may be sent while pipe < cwnd.
// - Without SACK, each duplicate ACK counts as one "sacked" packet (Linux's Reno
//   emulation): equivalent to RFC 6582's window inflation, without touching cwnd.
//   Partial ACKs mark the next hole lost, so one hole is repaired per RTT; the RTO is
//   re-armed only on the first partial ACK (RFC 6582 "impatient" variant, default) or on
//   every one ("slow but steady", `newreno_impatient: false`).
// - With SACK, a segment is lost once dupack_threshold segments above it are SACKed
//   (RFC 6675 IsLost), tracked with a monotone pointer: O(1) amortized per ACK.
// - The first retransmission of a recovery leaves at once (RFC 6675, step 4.3).
// - No limited transmit (RFC 3042): while Open the window counts every unacknowledged
//   packet, so duplicate ACKs before fast retransmit do not clock out new data and the
//   retransmission finds room in a drop-tail queue that the flow itself keeps full
//   (without RACK, a lost retransmission costs an RTO).
// - Without `rack`, a lost retransmission is recovered by the RTO; after an RTO every
//   un-SACKed outstanding segment is marked lost and resent in slow start (Linux Loss state);
//   no fast retransmit until the ACK passes what was sent before the timeout (RFC 6582
//   "recover"); a repeated timeout of the same data keeps ssthresh (RFC 5681 section 3.1).
// - `rack` (with SACK only, as Linux): RACK (rack.hpp) replaces RFC 6675 IsLost and the
//   duplicate-ACK threshold as loss detection, so a lost retransmission is found by the
//   next later-sent delivery; recovery starts once RACK marks a segment lost, from an ACK
//   or the reordering timer. Tail Loss Probe (RFC 8985 section 7): while Open with no
//   SACKed segment, a probe timer PTO = 2 SRTT (+ 200 ms, RFC 8985's WCDelAckT, when one
//   segment is outstanding; 1 s before an RTT sample; never past the RTO) sends one new
//   segment if there is one, else resends the last one, regardless of cwnd; then the RTO
//   is re-armed. Resending the first unacknowledged segment restarts the RTO (Linux
//   tcp_xmit_retransmit_queue), so a retransmission that RACK finds lost again does not
//   run into the timer armed for its predecessor. Without PRR, a retransmission found lost
//   that was sent after the recovery's last reduction lowers the window again (RFC 5681
//   4.3) and the first segment to resend leaves at once; with PRR, as Linux, there is one
//   reduction per recovery. One probe per episode (until the ACK passes the
//   probe); a probe that was a retransmission and whose ACK echoes it (the original was lost: no DSACK is modelled)
//   cuts the window once (ssthresh and cwnd from the algorithm's loss response).
// - `prr`: fast recovery sends what RFC 6937 allows (prr.hpp); without it, what cwnd allows.
// - `slow_start_after_idle`: before sending new data with nothing outstanding after more
//   than one RTO since the last send, ssthresh = max(ssthresh, 3/4 cwnd) (unless in
//   recovery) and cwnd halves once per RTO of idle time, not below min(initial window,
//   cwnd) (Linux tcp_cwnd_restart); the algorithm is not told (no CA_EVENT_CWND_RESTART).
//   An algorithm that sets the window and pacing rate itself (cc::CongestionControl::
//   exempt_from_idle_restart: BBR) is left alone, as Linux's tcp_slow_start_after_idle_check
//   skips algorithms with a cong_control hook.
// - The RTO timer is re-armed lazily: the deadline moves on every ACK; the event
//   fires early at most once per RTO and reschedules itself. The probe timer likewise
//   (schedule_tlp moves the event only to an earlier deadline), and within one sending
//   batch its deadline is computed once the window holds two segments: the later new
//   segments of the batch, and the ACK that clocked them out, would compute the same one.
// - Services for the algorithm (cc::SenderControl): one algorithm timer; pacing, which
//   spaces every data packet (new or retransmitted) at least 1/rate after the previous
//   one, without credit for idle time (Linux fq-style); and a baseRTT override.
// - Per-flow memory: the timers and state of RACK-TLP, pacing, local congestion and the
//   algorithm's timer are allocated when the sender is built (local congestion: when its
//   queue is set) and only if that switch is on (the algorithm's wants_timer() and
//   wants_pacing(); one that did not declare its use gets the state at its first call).
// - `pacing` (off by default, Linux's fq qdisc with TCP's own rate): unless the algorithm
//   sets a rate itself (set_pacing_rate; FAST, BBR), every ACK sets the pacing rate to
//   ratio * max(cwnd, packets out) / srtt, ratio 2 while cwnd < ssthresh / 2 and 1.2
//   otherwise (Linux tcp_update_pacing_rate, tcp_pacing_ss_ratio = 200 and
//   tcp_pacing_ca_ratio = 120); no pacing before the first RTT sample.
// - Delivery-rate sampling (rate_sampler.hpp) runs only for an algorithm whose
//   wants_rate_samples() is true (asked once, here): then every ACK that delivers data
//   carries a RateSample, and ACKs that only SACK reach the algorithm's on_delivery; the
//   sender marks the flow app-limited when it has no data to send while the window has room.
// - Local congestion (`local_congestion`, Linux tcp_transmit_skb -> NET_XMIT_DROP ->
//   tcp_enter_cwr): when the first hop (the host's transmit queue) is full, the segment is
//   not sent and not lost; the sender enters CWR once per window (ssthresh from the
//   algorithm's loss response, cwnd cut to it at once: the value Linux's CWR reaches
//   after a round) and retries when the queue's next waiting packet starts serialization
//   (one event, no polling). Off (no queue set): one null check per send.
// - ECN (`ecn`, tcp/ecn.hpp): new data leave ECT(0); an ACK with ECE while Open reduces
//   the window once per window of data through the algorithm's on_ecn (ssthresh, and cwnd
//   cut to it at once, as local congestion; no retransmission) and the next new segment
//   carries CWR. The window may still grow during the reduced window (Linux holds it in
//   its CWR state).
// - Data packets leave through a PacketSink (the first link of the route in a run, a
//   recorder in the endpoint tests: tests/support/sender_harness.hpp); the sender keeps
//   its own copy of the TcpConfig, so neither depends on the caller's storage.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "fastsim/cc/congestion_control.hpp"
#include "fastsim/core/simulator.hpp"
#include "fastsim/net/packet_observer.hpp"
#include "fastsim/net/packet_pool.hpp"
#include "fastsim/net/route.hpp"
#include "fastsim/tcp/ecn.hpp"
#include "fastsim/tcp/prr.hpp"
#include "fastsim/tcp/rack.hpp"
#include "fastsim/tcp/rate_sampler.hpp"
#include "fastsim/tcp/rtt_estimator.hpp"
#include "fastsim/tcp/tcp_config.hpp"

namespace fastsim::tcp {

struct SenderCounters {
  uint64_t data_sent = 0;  ///< data packets sent, retransmissions included
  uint64_t retransmits = 0;
  uint64_t timeouts = 0;
  uint64_t fast_recoveries = 0;
  uint64_t acks_received = 0;
  uint64_t segments_acked = 0;    ///< cumulatively acknowledged segments
  uint64_t local_congestion = 0;  ///< CWR entries because the first hop was full (local_congestion)
  uint64_t loss_probes = 0;       ///< tail loss probes sent (rack)
  uint64_t idle_restarts = 0;     ///< window restarts after idle (slow_start_after_idle)
  uint64_t ecn_reductions = 0;    ///< window reductions on ECN-Echo (ecn)
};

/// Time integral of the window, for mean-window measurements.
struct WindowIntegral {
  double cwnd_pkt_seconds = 0;
  double seconds = 0;
};

class TcpSender final : public net::PacketSink, public cc::SenderControl {
 public:
  /// Sends data packets (stamped with `data_route`) into `out`, the first hop (which must
  /// outlive the sender); `cfg` is copied. `total_segments` = 0 for a bulk (infinite) flow.
  TcpSender(Simulator& sim, net::PacketPool& pool, const TcpConfig& cfg, std::unique_ptr<cc::CongestionControl> cc,
            const net::Route* data_route, net::PacketSink& out, uint64_t total_segments);
  /// The same with settings shared with other connections (never null).
  TcpSender(Simulator& sim, net::PacketPool& pool, std::shared_ptr<const TcpConfig> cfg,
            std::unique_ptr<cc::CongestionControl> cc, const net::Route* data_route, net::PacketSink& out,
            uint64_t total_segments);
  // Pending timers are cancelled with their events (flows that end during a run are destroyed).
  TcpSender(const TcpSender&) = delete;
  TcpSender& operator=(const TcpSender&) = delete;
  /// Called once, when the last segment of a finite flow is acknowledged.
  void on_complete(std::function<void()> fn) { on_complete_ = std::move(fn); }

  /// Begins sending (flow start).
  void start();
  /// Stops sending new data (flow stop); outstanding data is still recovered.
  void stop_new_data() { stopped_ = true; }
  /// The application pauses (on/off traffic): no new data until resume(); outstanding
  /// data is still recovered. With `slow_start_after_idle` the window restarts on resume
  /// when the pause left the sender idle longer than the RTO; without it, it resumes with
  /// its full window.
  void pause() { paused_ = true; }
  void resume() {
    paused_ = false;
    if (started_)
      try_send();
  }
  /// ACK arrival.
  void receive(net::Packet* p) override;

  [[nodiscard]] bool complete() const { return total_ != 0 && snd_una_ >= total_; }
  [[nodiscard]] Time completion_time() const { return completion_time_; }
  [[nodiscard]] const cc::Window& window() const { return w_; }
  [[nodiscard]] cc::CaState state() const { return state_; }
  [[nodiscard]] const RttEstimator& rtt() const { return rtt_; }
  [[nodiscard]] const SenderCounters& counters() const { return counters_; }
  [[nodiscard]] const cc::CongestionControl& algorithm() const { return *cc_; }
  [[nodiscard]] uint64_t snd_una() const { return snd_una_; }
  [[nodiscard]] uint64_t snd_nxt() const { return snd_nxt_; }
  /// RTT rounds completed so far.
  [[nodiscard]] uint64_t rounds() const { return round_; }
  [[nodiscard]] double pipe() const;
  /// Window integral up to now.
  [[nodiscard]] WindowIntegral window_integral() const;
  [[nodiscard]] double pacing_rate() const { return pacing_rate_; }
  [[nodiscard]] const TcpConfig& config() const { return *cfg_; }

  // cc::SenderControl
  void set_timer(Time at) override;
  void set_pacing_rate(double pkts_per_s) override;
  void set_base_rtt(Duration base) override { rtt_.set_min_rtt(base); }
  void mark_app_limited() override;
  /// Delivery-rate sampling state; null unless the algorithm wants rate samples.
  [[nodiscard]] const RateSampler* rate_sampler() const { return rate_.get(); }

  /// Local congestion: `nic`, the first hop (must outlive the sender), is asked before
  /// every send whether it has room (see the file comment); null: never asked.
  void set_local_congestion_queue(net::Link* nic);
  /// Per-packet event traces (net/packet_observer.hpp): data packets sent, ACKs processed
  /// and window changes are reported as `object`; null (the default) is off.
  void set_observer(net::PacketObserver* observer, uint32_t object) {
    observer_ = observer;
    observer_object_ = object;
  }

 private:
  static constexpr uint64_t kNone = UINT64_MAX;
  // kEverRetrans: resent at least once (RACK's RTT-sample ambiguity, RFC 8985 6.2 step 2).
  enum SegFlag : uint8_t { kSacked = 1, kLost = 2, kRetrans = 4, kEverRetrans = 8 };

  uint8_t& seg(uint64_t seq) { return segs_[seq & seg_mask_]; }
  void ensure_ring_capacity(uint64_t outstanding) {
    if (outstanding >= segs_.size())
      grow_ring(outstanding);
  }
  void grow_ring(uint64_t outstanding);
  /// The switches' work on every transmission (only when one of them is on); `arm_probe`
  /// false: a new segment skips schedule_tlp (its deadline is already up to date).
  void on_transmit_extras(uint64_t seq, bool retransmission, bool arm_probe = true);
  [[nodiscard]] cc::FlowView view() const;
  void try_send() { (void)send_batch(); }
  /// try_send's body. Returns the RTO deadline that the batch's last schedule_tlp for a new
  /// segment saw with two or more segments outstanding, or Time::never(): while rto_deadline_
  /// still equals it (and no event has run), another schedule_tlp in the same instant would
  /// compute the same probe deadline and change nothing.
  Time send_batch();
  [[nodiscard]] bool has_new_data() const {
    if (!started_ || stopped_ || paused_)
      return false;
    if (total_ != 0 && snd_nxt_ >= total_)
      return false;
    return receive_window_ == 0 || snd_nxt_ - snd_una_ < receive_window_;
  }
  /// Next lost, unretransmitted, un-SACKed segment, or UINT64_MAX.
  uint64_t next_retransmission() {
    if (lost_out_ <= retrans_out_)
      return kNone;  // every lost segment is already resent: the usual case
    return find_retransmission();
  }
  uint64_t find_retransmission();
  /// Segment `seq` is now lost and not yet resent: make next_retransmission find it.
  void note_retransmittable(uint64_t seq);
  void transmit(uint64_t seq, bool retransmission);
  /// transmit's body, inlined into try_send (the per-packet path); tcp_sender.cpp only.
  [[gnu::always_inline]] inline void send_segment(uint64_t seq, bool retransmission, bool arm_probe = true);
  void on_cumulative_ack(uint64_t ack, net::Packet* p);
  void on_duplicate_ack();
  template <bool kRack>
  void process_sack_blocks(const net::Packet* p);
  template <bool kRack>
  void mark_sacked(uint64_t seq);
  void mark_lost(uint64_t seq);
  /// RFC 6675 IsLost over the segments above mark_ptr_ (SACK without RACK).
  void advance_loss_marks() {
    // Fewer SACKed segments above mark_ptr_ than the threshold: none can be lost yet.
    if (sacked_beyond_ >= dupack_threshold_)
      advance_loss_marks_scan();
  }
  void advance_loss_marks_scan();
  /// Enters fast recovery; `send_first`: the first retransmission leaves now (false: the
  /// caller's PRR step on the same ACK sends it).
  void enter_recovery(bool send_first);
  void send_first_retransmission();
  void on_rto_timer();
  void on_cc_timer();
  void on_pace_timer() { try_send(); }
  void maybe_enter_recovery(bool send_first = true);
  void rack_detect_loss();
  void rack_mark_lost(uint64_t seq);
  void on_reo_timer();
  void schedule_tlp();
  void on_tlp_timer();
  bool send_loss_probe();
  void tlp_on_ack(bool ack_echoes_retransmission);
  void restart_after_idle();
  void arm_rto();
  void account_window();
  /// Local congestion: true if the first hop is full now (then CWR once per window and a
  /// wake-up when it has room).
  bool nic_blocked();
  /// Traces: reports the window if it changed since it was last reported (called where
  /// the sender next considers sending, in the same instant as the change).
  void trace_window() {
    if (w_.cwnd_pkts != traced_window_.cwnd_pkts || w_.ssthresh_pkts != traced_window_.ssthresh_pkts) {
      traced_window_ = w_;
      observer_->sender_window(observer_object_, w_.cwnd_pkts, w_.ssthresh_pkts, sim_.now());
    }
  }
  /// ECN: an ACK with ECE arrived (tcp_sender_ecn.cpp).
  void on_ecn_echo();

  Simulator& sim_;
  net::PacketPool& pool_;
  // Shared by the connections with equal settings (traffic/tcp_connection.hpp): 16 bytes
  // per sender instead of a 120-byte copy.
  const std::shared_ptr<const TcpConfig> cfg_;
  std::unique_ptr<cc::CongestionControl> cc_;
  const net::Route* route_;
  net::PacketSink& out_;
  uint64_t total_;
  RttEstimator rtt_;
  MemberEvent<TcpSender, &TcpSender::on_rto_timer> rto_event_{this};
  Time rto_deadline_ = Time::never();
  // The state of the switches that are off is not kept: each part below is allocated when
  // the sender is built (local congestion: when its queue is set), only if its switch is on.
  using CcTimer = MemberEvent<TcpSender, &TcpSender::on_cc_timer>;
  std::unique_ptr<CcTimer> cc_timer_;  // the algorithm's timer: when it wants_timer()
  struct Pacer {                       // `pacing`, or an algorithm that wants_pacing()
    explicit Pacer(TcpSender* s) : event(s) {}
    MemberEvent<TcpSender, &TcpSender::on_pace_timer> event;
    Duration gap;
    Time next_send = Time::zero();
  };
  std::unique_ptr<Pacer> pacer_;
  double pacing_rate_ = 0;  // > 0 only with pacer_

  cc::Window w_;
  cc::CaState state_ = cc::CaState::kOpen;
  bool started_ = false;
  bool stopped_ = false;
  bool paused_ = false;
  bool cwnd_limited_ = true;
  // Settings read on every packet or ACK, copied out of the shared cfg_ into padding.
  const bool sack_;
  const bool prr_on_;
  const bool pacing_on_;
  uint64_t snd_una_ = 0;
  uint64_t snd_nxt_ = 0;
  uint64_t recovery_point_ = 0;
  uint32_t dupacks_ = 0;
  uint32_t partial_acks_ = 0;          // NewReno partial ACKs in the current recovery
  uint64_t loss_una_ = UINT64_MAX;     // snd_una at the last timeout
  uint64_t rto_recover_ = UINT64_MAX;  // snd_nxt at the last timeout (RFC 6582 "recover")
  uint64_t round_end_ = 0;
  uint64_t round_ = 0;

  std::vector<uint8_t> segs_;
  uint64_t seg_mask_ = 0;
  uint64_t sacked_out_ = 0;
  uint64_t lost_out_ = 0;
  uint64_t retrans_out_ = 0;
  uint64_t mark_ptr_ = 0;       // segments below it have been examined for loss
  uint64_t sacked_beyond_ = 0;  // SACKed segments at or above mark_ptr_
  uint64_t retx_ptr_ = 0;       // retransmission scan position: segments below it were passed
  // Segments below retx_ptr_ that became retransmittable after the scan passed them (a
  // lost retransmission, a partial ACK's hole): a min-heap, so the lowest is resent first
  // without rescanning the window (stale entries are dropped when they reach the top).
  std::vector<uint64_t> retx_below_;
  uint64_t loss_marks_ = 0;  // segments marked lost so far (PRR's "no further loss" test)

  struct RackTlp {  // RACK-TLP: the loss detector, its reordering timer, the loss probe
    RackTlp(TcpSender* s, size_t ring) : rack(ring), reo_event(s), tlp_event(s) {}
    Rack rack;
    MemberEvent<TcpSender, &TcpSender::on_reo_timer> reo_event;
    MemberEvent<TcpSender, &TcpSender::on_tlp_timer> tlp_event;
    Time tlp_deadline = Time::never();
    uint64_t tlp_end = UINT64_MAX;  // snd_nxt after the outstanding probe (TLP.end_seq)
    bool tlp_retrans = false;       // the outstanding probe was a retransmission
    bool probing = false;
    Time ack_echo = Time::never();  // the echo of the ACK being processed
  };
  std::unique_ptr<RackTlp> rack_;  // only with cfg.rack and cfg.sack
  Prr prr_;
  Time last_send_ = Time::never();   // slow_start_after_idle or tx_start_events_ only
  Time reduced_at_ = Time::zero();   // the current recovery's last window reduction
  bool resend_now_ = false;          // a reduction for a lost retransmission: resend at once
  const bool extras_;                // rack, prr, slow_start_after_idle is on or rtt_every_ack off
  const bool idle_restart_;          // slow_start_after_idle, and the algorithm is not exempt
  const bool tx_start_events_;       // the algorithm wants on_tx_start (asked once)
  const bool send_events_;           // the algorithm wants on_send (asked once)
  const uint16_t dupack_threshold_;  // cfg.dupack_threshold (1..1000 in scenarios; hot, as sack_)

  Time completion_time_ = Time::never();
  std::function<void()> on_complete_;
  Time window_since_ = Time::zero();
  WindowIntegral window_integral_;
  SenderCounters counters_;
  struct LocalCongestion {  // local congestion: the first hop asked before each send
    LocalCongestion(TcpSender* s, net::Link* first_hop) : nic(first_hop), event(s) {}
    net::Link* nic;
    uint64_t cwr_high = 0;  // no new CWR until snd_una passes it (Linux high_seq)
    MemberEvent<TcpSender, &TcpSender::try_send> event;
  };
  std::unique_ptr<LocalCongestion> local_;  // null: off

  // Delivery-rate sampling and pacing for every algorithm (tcp_sender_rate.cpp).
  std::unique_ptr<RateSampler> rate_;  // only when the algorithm wants rate samples
  bool cc_paces_ = false;              // the algorithm set a pacing rate: `pacing` leaves it alone
  void apply_pacing_rate(double pkts_per_s);
  /// `pacing`: the rate from cwnd and srtt (Linux tcp_update_pacing_rate).
  void update_pacing();
  /// Rate sampling: the segments [snd_una, ack) not SACKed before are delivered.
  void rate_on_cumulative_ack(uint64_t ack);
  /// Rate sampling: an ACK that delivered data without advancing snd_una.
  void rate_on_sack_only_ack();
  /// Rate sampling: try_send found no data to send.
  void rate_note_no_data();
  net::PacketObserver* observer_ = nullptr;  // per-packet traces: null is off
  uint32_t observer_object_ = 0;
  const uint32_t packet_size_;        // cfg.packet_size (hot, as sack_)
  cc::Window traced_window_{-1, -1};  // the window last reported to observer_
  EcnSender ecn_;
  const uint64_t receive_window_;  // cfg.receive_window, 0 = unlimited (hot, as sack_)
};

}  // namespace fastsim::tcp
