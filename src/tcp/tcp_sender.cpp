// TCP sender (see tcp_sender.hpp for the model and its choices; the optional RACK-TLP,
// PRR and idle-restart parts are in tcp_sender_switches.cpp).
#include "fastsim/tcp/tcp_sender.hpp"

#include <algorithm>
#include <utility>

#include "fastsim/net/link.hpp"

namespace fastsim::tcp {

namespace {
constexpr size_t kInitialRing = 64;  // grows by doubling with the window (1 byte per segment)
}  // namespace

TcpSender::TcpSender(Simulator& sim, net::PacketPool& pool, const TcpConfig& cfg,
                     std::unique_ptr<cc::CongestionControl> cc, const net::Route* data_route, net::PacketSink& out,
                     uint64_t total_segments)
    : TcpSender(sim, pool, std::make_shared<const TcpConfig>(cfg), std::move(cc), data_route, out, total_segments) {}

TcpSender::TcpSender(Simulator& sim, net::PacketPool& pool, std::shared_ptr<const TcpConfig> shared_cfg,
                     std::unique_ptr<cc::CongestionControl> cc, const net::Route* data_route, net::PacketSink& out,
                     uint64_t total_segments)
    : sim_(sim),
      pool_(pool),
      cfg_(std::move(shared_cfg)),
      cc_(std::move(cc)),
      route_(data_route),
      out_(out),
      total_(total_segments),
      rtt_(*cfg_),
      sack_(cfg_->sack),
      prr_on_(cfg_->prr),
      pacing_on_(cfg_->pacing),
      extras_((cfg_->rack && cfg_->sack) || cfg_->prr || cfg_->slow_start_after_idle || !cfg_->rtt_every_ack ||
              cc_->wants_tx_start()),
      idle_restart_(cfg_->slow_start_after_idle && !cc_->exempt_from_idle_restart()),
      tx_start_events_(cc_->wants_tx_start()),
      send_events_(cc_->wants_send_events()),
      dupack_threshold_(static_cast<uint16_t>(std::min<uint32_t>(cfg_->dupack_threshold, UINT16_MAX))),
      packet_size_(cfg_->packet_size),
      ecn_(cfg_->ecn),
      receive_window_(cfg_->receive_window) {
  const TcpConfig& cfg = *cfg_;
  w_.cwnd_pkts = cfg.initial_window;
  w_.ssthresh_pkts = cfg.initial_ssthresh;
  segs_.assign(kInitialRing, 0);
  seg_mask_ = kInitialRing - 1;
  if (cfg.rack && cfg.sack)
    rack_ = std::make_unique<RackTlp>(this, kInitialRing);
  if (cc_->wants_timer())
    cc_timer_ = std::make_unique<CcTimer>(this);
  if (cfg.pacing || cc_->wants_pacing())
    pacer_ = std::make_unique<Pacer>(this);
  if (cc_->wants_rate_samples())
    rate_ = std::make_unique<RateSampler>(kInitialRing);
  cc_->attach(this);
}

void TcpSender::set_timer(Time at) {
  if (!cc_timer_) {
    if (at == Time::never())
      return;
    cc_timer_ = std::make_unique<CcTimer>(this);  // an algorithm that did not say wants_timer()
  }
  if (cc_timer_->scheduled())
    sim_.cancel(*cc_timer_);
  if (at != Time::never())
    sim_.schedule_at(*cc_timer_, std::max(at, sim_.now()));
}

void TcpSender::set_local_congestion_queue(net::Link* nic) {
  if (nic == nullptr)
    local_.reset();
  else
    local_ = std::make_unique<LocalCongestion>(this, nic);
}

void TcpSender::on_cc_timer() {
  account_window();
  cc_->on_timer(view(), w_);
  w_.cwnd_pkts = std::max(w_.cwnd_pkts, 1.0);
  try_send();
}

void TcpSender::set_pacing_rate(double pkts_per_s) {
  cc_paces_ = true;
  apply_pacing_rate(pkts_per_s);
}

void TcpSender::grow_ring(uint64_t outstanding) {
  size_t n = segs_.size();
  while (n <= outstanding)
    n *= 2;
  std::vector<uint8_t> grown(n, 0);
  for (uint64_t s = snd_una_; s < snd_nxt_; ++s)
    grown[s & (n - 1)] = segs_[s & seg_mask_];
  segs_.swap(grown);
  seg_mask_ = n - 1;
  if (rack_)
    rack_->rack.resize_ring(n, snd_una_, snd_nxt_);
  if (rate_)
    rate_->resize_ring(n, snd_una_, snd_nxt_);
}

double TcpSender::pipe() const {
  // Summed in integers, converted once: every term is below 2^53, so this is exactly the
  // double sum (outstanding - (sacked + lost)) + retransmitted.
  return static_cast<double>(static_cast<int64_t>(snd_nxt_ - snd_una_) - static_cast<int64_t>(sacked_out_ + lost_out_) +
                             static_cast<int64_t>(retrans_out_));
}

cc::FlowView TcpSender::view() const {
  cc::FlowView v;
  v.now = sim_.now();
  v.in_flight_pkts = pipe();
  v.rtt = &rtt_.view();
  v.state = state_;
  v.cwnd_limited = cwnd_limited_;
  v.round = round_;
  v.mss = cfg_->mss;
  v.paced = pacing_on_;
  return v;
}

WindowIntegral TcpSender::window_integral() const {
  WindowIntegral wi = window_integral_;
  if (started_) {
    const double dt = (sim_.now() - window_since_).to_seconds();
    wi.cwnd_pkt_seconds += w_.cwnd_pkts * dt;
    wi.seconds += dt;
  }
  return wi;
}

void TcpSender::account_window() {
  const double dt = (sim_.now() - window_since_).to_seconds();
  window_integral_.cwnd_pkt_seconds += w_.cwnd_pkts * dt;
  window_integral_.seconds += dt;
  window_since_ = sim_.now();
}

void TcpSender::start() {
  started_ = true;
  window_since_ = sim_.now();
  try_send();
}

uint64_t TcpSender::find_retransmission() {
  auto retransmittable = [](uint8_t f) { return (f & kLost) != 0 && (f & (kRetrans | kSacked)) == 0; };
  while (!retx_below_.empty()) {  // the lowest segment that became lost behind the scan
    const uint64_t s = retx_below_.front();
    if (s >= snd_una_ && retransmittable(seg(s)))
      return s;
    std::pop_heap(retx_below_.begin(), retx_below_.end(), std::greater<>());
    retx_below_.pop_back();
  }
  retx_ptr_ = std::max(retx_ptr_, snd_una_);
  const uint64_t limit = rack_ ? snd_nxt_ : mark_ptr_;  // RACK marks anywhere below snd_nxt
  while (retx_ptr_ < limit) {
    if (retransmittable(seg(retx_ptr_)))
      return retx_ptr_;
    ++retx_ptr_;
  }
  return kNone;
}

void TcpSender::send_segment(uint64_t seq, bool retransmission, bool arm_probe) {
  if (retransmission) {
    seg(seq) |= kRetrans | kEverRetrans;
    ++retrans_out_;
    ++counters_.retransmits;
  } else {
    ensure_ring_capacity(snd_nxt_ - snd_una_ + 1);
    seg(seq) = 0;
    ++snd_nxt_;
  }
  ++counters_.data_sent;
  if (rate_)
    rate_->on_transmit(seq, sim_.now(), !retransmission && snd_nxt_ - snd_una_ == 1, retransmission);
  if (extras_)
    on_transmit_extras(seq, retransmission, arm_probe);
  net::Packet* p = pool_.acquire();
  p->route = route_;
  p->size_bytes = packet_size_;
  p->seq = seq;
  p->echo = sim_.now();
  p->retransmission = retransmission;
  p->ecn = ecn_.data_ecn(retransmission);
  if (rto_deadline_ == Time::never())
    arm_rto();
  if (send_events_)
    cc_->on_send(view(), seq, retransmission);
  if (observer_ != nullptr) [[unlikely]]
    observer_->sender_sent(observer_object_, *p, sim_.now());
  out_.receive(p);
}

void TcpSender::transmit(uint64_t seq, bool retransmission) {
  send_segment(seq, retransmission);
}

Time TcpSender::send_batch() {
  if (idle_restart_ && snd_nxt_ == snd_una_ && last_send_ != Time::never() &&
      sim_.now() - last_send_ > rtt_.rto() && has_new_data()) {
    restart_after_idle();
  }
  if (observer_ != nullptr) [[unlikely]]
    trace_window();
  // Nothing in the loop changes schedule_tlp's inputs but snd_nxt_ and (resending the
  // first unacknowledged segment) rto_deadline_; with two or more segments outstanding the
  // deadline no longer depends on snd_nxt_ (docs/performance.md, issue 18 third round).
  // Time::zero(): no deadline computed yet (rto_deadline_ is never zero: the RTO is > 0).
  Time probe_rto = Time::zero();
  for (;;) {
    const uint64_t retx = next_retransmission();
    if (retx == kNone && !has_new_data()) {
      cwnd_limited_ = false;
      if (rate_)
        rate_note_no_data();
      return probe_rto;
    }
    // No limited transmit (RFC 3042): while Open, SACKed or duplicate-ACKed packets do
    // not open the window, so the first retransmission finds room in a full drop-tail queue.
    const double in_flight =
        state_ == cc::CaState::kOpen ? static_cast<double>(static_cast<int64_t>(snd_nxt_ - snd_una_)) : pipe();
    if (in_flight > 0 && in_flight + 1 > w_.cwnd_pkts + 1e-9) {
      cwnd_limited_ = true;
      return probe_rto;
    }
    if (local_ && nic_blocked())
      return probe_rto;
    if (pacing_rate_ > 0) {
      if (sim_.now() < pacer_->next_send) {
        if (!pacer_->event.scheduled())
          sim_.schedule_at(pacer_->event, pacer_->next_send);
        return probe_rto;
      }
      pacer_->next_send = sim_.now() + pacer_->gap;
    }
    if (retx == kNone && rack_) {
      // schedule_tlp runs (in on_transmit_extras) before send_segment may arm the RTO, so
      // it sees rto_before; a later arm_rto makes rto_deadline_ differ from it.
      const Time rto_before = rto_deadline_;
      send_segment(snd_nxt_, false, probe_rto != rto_before);
      if (snd_nxt_ - snd_una_ >= 2)
        probe_rto = rto_before;
    } else {
      send_segment(retx == kNone ? snd_nxt_ : retx, retx != kNone);
    }
  }
}

bool TcpSender::nic_blocked() {
  const std::optional<Time> room = local_->nic->full_until(packet_size_);
  if (!room)
    return false;
  if (state_ == cc::CaState::kOpen && snd_una_ >= local_->cwr_high) {  // Linux tcp_enter_cwr, once per window
    ++counters_.local_congestion;
    account_window();
    const cc::LossResponse r = cc_->on_loss(view(), w_);
    w_.ssthresh_pkts = r.ssthresh_pkts;
    w_.cwnd_pkts = std::max(std::min(w_.cwnd_pkts, r.ssthresh_pkts), 1.0);
    local_->cwr_high = snd_nxt_;
    if (observer_ != nullptr) [[unlikely]]
      trace_window();
  }
  if (!local_->event.scheduled() || local_->event.time() > *room)
    sim_.schedule_at(local_->event, *room);
  return true;
}

void TcpSender::arm_rto() {
  rto_deadline_ = sim_.now() + rtt_.rto();
  if (!rto_event_.scheduled() || rto_event_.time() > rto_deadline_) {
    sim_.schedule_at(rto_event_, rto_deadline_);
  }
}

void TcpSender::receive(net::Packet* p) {
  ++counters_.acks_received;
  if (!started_) {
    pool_.release(p);
    return;
  }
  if (observer_ != nullptr) [[unlikely]]
    observer_->sender_ack(observer_object_, *p, sim_.now());
  account_window();
  const uint64_t prior_una = snd_una_;
  const uint64_t prior_sacked = sacked_out_;
  const uint64_t prior_loss_marks = loss_marks_;
  if (rack_) {
    rack_->ack_echo = p->echo;
    rack_->rack.begin_ack();
  }
  if (rack_)  // the RACK hook is compiled out of the path without it
    process_sack_blocks<true>(p);
  else if (sack_ && (p->num_sacks != 0 || p->trigger_seq() != net::Packet::kNoTrigger))
    process_sack_blocks<false>(p);
  if (p->seq > snd_una_) {
    on_cumulative_ack(p->seq, p);
  } else if (p->seq == snd_una_ && snd_nxt_ > snd_una_) {
    on_duplicate_ack();
  }
  const bool echo_retx = p->retransmission;
  const bool ece = (p->ecn & net::ecn::kEce) != 0;
  pool_.release(p);
  if (rack_) {
    if (rack_->rack.advanced())
      rack_detect_loss();
    tlp_on_ack(echo_retx);
  } else if (sack_) {
    advance_loss_marks();
  }
  // With PRR the ACK that starts a recovery also decides its first sends, the fast
  // retransmission among them (Linux's tcp_cwnd_reduction on that ACK, prr_out = 0).
  if (state_ == cc::CaState::kOpen && (lost_out_ > 0 || dupacks_ >= dupack_threshold_))
    maybe_enter_recovery(/*send_first=*/!prr_on_);
  if (ece)
    on_ecn_echo();
  if (prr_on_ && state_ == cc::CaState::kRecovery) {
    // RFC 6937 DeliveredData: the change in snd.una plus the change in SACKed segments.
    const auto delivered = static_cast<int64_t>(snd_una_ - prior_una) + static_cast<int64_t>(sacked_out_) -
                           static_cast<int64_t>(prior_sacked);
    if (delivered > 0) {
      const bool safe_ack = snd_una_ > prior_una && loss_marks_ == prior_loss_marks;  // RFC 9937
      double sndcnt = prr_.on_ack(static_cast<uint64_t>(delivered), pipe(), w_.ssthresh_pkts, safe_ack);
      if (prr_.out == 0)
        sndcnt = std::max(sndcnt, 1.0);  // the fast retransmission leaves whatever PRR says (RFC 6675 4.3)
      w_.cwnd_pkts = std::max(pipe() + sndcnt, 1.0);
    } else if (prr_.out == 0) {
      // A recovery started by an ACK that delivered nothing (duplicate ACKs without SACK
      // information): the retransmission alone, as from RACK's timer (no burst up to the
      // loss response's window).
      w_.cwnd_pkts = std::max(pipe(), 1.0);
      send_first_retransmission();
    }
  }
  if (rate_ && rate_->pending())
    rate_on_sack_only_ack();
  if (pacing_on_)
    update_pacing();
  const Time probe_rto = send_batch();
  // The batch's last schedule_tlp already saw this instant's inputs (send_batch).
  if (rack_ && snd_una_ > prior_una && probe_rto != rto_deadline_)
    schedule_tlp();
}

void TcpSender::maybe_enter_recovery(bool send_first) {
  // RFC 6582 "recover": after a timeout, duplicate ACKs (duplicates of data resent by
  // go-back-N) start no fast retransmit until the ACK passes what was sent before it.
  // Losses marked from SACK information (RFC 6675 IsLost, RACK) are not such duplicates:
  // they start one as soon as the ACK reaches that point (RFC 6675 5.1, HighACK >=
  // RecoveryPoint; Linux leaves the Loss state when snd_una reaches high_seq and enters
  // Recovery on lost_out), or a first segment sent after the timeout and lost would wait
  // for a second timeout, the window being counted as snd_nxt - snd_una while Open.
  const bool past_timeout =
      rto_recover_ == kNone || snd_una_ > rto_recover_ || (sack_ && lost_out_ > 0 && snd_una_ == rto_recover_);
  if (state_ != cc::CaState::kOpen || snd_nxt_ == snd_una_ || !past_timeout)
    return;
  // With RACK only its loss marks start a recovery (Linux disables the dupack heuristic).
  if (lost_out_ > 0 || (!rack_ && dupacks_ >= dupack_threshold_))
    enter_recovery(send_first);
}

template <bool kRack>
void TcpSender::process_sack_blocks(const net::Packet* p) {
  auto sack_if_new = [this](uint64_t s) {
    if (s >= snd_una_ && s < snd_nxt_ && (seg(s) & kSacked) == 0) {
      mark_sacked<kRack>(s);
      return true;
    }
    return false;
  };
  if (const uint64_t trigger = p->trigger_seq(); trigger != net::Packet::kNoTrigger)
    sack_if_new(trigger);
  // Walk each block only over its not-yet-SACKed edges: equivalent to a full walk
  // unless ACKs were lost, and O(1) amortized per ACK.
  for (uint8_t i = 0; i < p->num_sacks; ++i) {
    const net::SackBlock b = p->sack(i);
    const uint64_t lo = std::max(b.start, snd_una_);
    const uint64_t hi = std::min(b.end, snd_nxt_);
    for (uint64_t s = hi; s > lo && sack_if_new(s - 1);)
      --s;
    for (uint64_t s = lo; s < hi && sack_if_new(s);)
      ++s;
  }
}

template <bool kRack>
void TcpSender::mark_sacked(uint64_t seq) {
  uint8_t& f = seg(seq);
  if constexpr (kRack)
    rack_->rack.on_delivered(seq, (f & kEverRetrans) != 0, rack_->ack_echo, sim_.now());
  if (rate_)
    rate_->on_delivered(seq);
  if ((f & kLost) != 0)
    --lost_out_;
  if ((f & kRetrans) != 0)
    --retrans_out_;
  f = kSacked;
  ++sacked_out_;
  if (seq >= mark_ptr_)
    ++sacked_beyond_;
}

void TcpSender::mark_lost(uint64_t seq) {
  uint8_t& f = seg(seq);
  if ((f & (kLost | kSacked)) != 0)
    return;
  f |= kLost;
  ++lost_out_;
  ++loss_marks_;
  note_retransmittable(seq);
}

void TcpSender::note_retransmittable(uint64_t seq) {
  if (seq < retx_ptr_) {
    retx_below_.push_back(seq);
    std::push_heap(retx_below_.begin(), retx_below_.end(), std::greater<>());
  }
}

void TcpSender::advance_loss_marks_scan() {
  // RFC 6675 IsLost: dupack_threshold SACKed segments above it. (mark_ptr_ >= snd_una_
  // already: every advance of snd_una_ raises it.)
  mark_ptr_ = std::max(mark_ptr_, snd_una_);
  while (mark_ptr_ < snd_nxt_) {
    const bool sacked = (seg(mark_ptr_) & kSacked) != 0;
    if (sacked_beyond_ - (sacked ? 1 : 0) < dupack_threshold_)
      break;
    if (sacked) {
      --sacked_beyond_;
    } else {
      mark_lost(mark_ptr_);
    }
    ++mark_ptr_;
  }
}

void TcpSender::on_cumulative_ack(uint64_t ack, net::Packet* p) {
  const uint64_t newly = ack - snd_una_;
  if (rack_) {
    for (uint64_t s = snd_una_; s < ack; ++s) {
      if (const uint8_t f = seg(s); (f & kSacked) == 0)
        rack_->rack.on_delivered(s, (f & kEverRetrans) != 0, p->echo, sim_.now());
    }
  }
  if (rate_)
    rate_on_cumulative_ack(ack);
  // Per-segment flags count in sacked_out_, lost_out_ and retrans_out_: with all three at
  // zero (the usual case) no acknowledged segment carries one.
  const bool flagged = (sacked_out_ | lost_out_ | retrans_out_) != 0;
  for (uint64_t s = snd_una_; flagged && s < ack; ++s) {
    const uint8_t f = seg(s);
    if ((f & kSacked) != 0) {
      --sacked_out_;
      if (s >= mark_ptr_)
        --sacked_beyond_;
    }
    if ((f & kLost) != 0)
      --lost_out_;
    if ((f & kRetrans) != 0)
      --retrans_out_;
  }
  if (!sack_ && sacked_out_ > 0) {  // Linux tcp_remove_reno_sacks: one ACK filled the hole
    sacked_out_ -= std::min<uint64_t>(newly - 1, sacked_out_);
  }
  snd_una_ = ack;
  counters_.segments_acked += newly;
  dupacks_ = 0;
  mark_ptr_ = std::max(mark_ptr_, snd_una_);
  retx_ptr_ = std::max(retx_ptr_, snd_una_);

  cc::AckEvent ev;
  ev.newly_acked = static_cast<uint32_t>(newly);
  ev.ece = (p->ecn & net::ecn::kEce) != 0;
  rtt_.on_cumulative_ack(snd_una_, sim_.now());  // the timed segment's sample (rtt_every_ack false)
  if (!p->retransmission) {
    ev.rtt_sample = sim_.now() - p->echo;
    rtt_.add_sample(*ev.rtt_sample);
  }
  if (snd_una_ > round_end_) {
    ++round_;
    rtt_.end_round();
    ev.round_start = true;
    round_end_ = snd_nxt_;
  }
  if (rate_)
    ev.rate = &rate_->generate(sim_.now(), rtt_.view().min_rtt);
  ev.in_recovery = state_ == cc::CaState::kRecovery;
  if (state_ == cc::CaState::kRecovery) {
    if (snd_una_ >= recovery_point_) {
      state_ = cc::CaState::kOpen;
      w_.cwnd_pkts = w_.ssthresh_pkts;
      if (!sack_)
        sacked_out_ = 0;
      cc_->on_recovery_exit(view(), w_);
    } else if (!sack_) {  // NewReno partial ACK: the next hole is lost too
      mark_lost(snd_una_);
      mark_ptr_ = std::max(mark_ptr_, snd_una_ + 1);
      ++partial_acks_;
    }
  } else if (state_ == cc::CaState::kLoss && snd_una_ >= recovery_point_) {
    state_ = cc::CaState::kOpen;
  }
  cc_->on_ack(view(), w_, ev);
  w_.cwnd_pkts = std::max(w_.cwnd_pkts, 1.0);

  // RFC 6582 section 4: the "impatient" variant re-arms the timer only on the first
  // partial ACK of a recovery, so many holes end in an RTO and slow start instead of one
  // repair per RTT; "slow but steady" re-arms it on every partial ACK.
  const bool keep_timer = state_ == cc::CaState::kRecovery && partial_acks_ > 1 && cfg_->newreno_impatient;
  if (snd_una_ == snd_nxt_) {
    rto_deadline_ = Time::never();
  } else if (!keep_timer) {
    arm_rto();
  }
  if (complete() && completion_time_ == Time::never()) {
    completion_time_ = sim_.now();
    if (on_complete_)
      on_complete_();
  }
}

void TcpSender::on_duplicate_ack() {
  ++dupacks_;
  cc_->on_dupack(view(), w_, dupacks_);
  if (!sack_ && state_ == cc::CaState::kRecovery && sacked_out_ + 1 < snd_nxt_ - snd_una_) {
    ++sacked_out_;  // Linux tcp_add_reno_sack: a duplicate ACK means a packet left the network
  }
}

void TcpSender::enter_recovery(bool send_first) {
  ++counters_.fast_recoveries;
  rtt_.stop_timing();  // ns-2's reset_rtx_timer at the fast retransmit
  const cc::LossResponse r = cc_->on_loss(view(), w_);
  w_.ssthresh_pkts = r.ssthresh_pkts;
  w_.cwnd_pkts = std::max(r.cwnd_pkts, 1.0);
  state_ = cc::CaState::kRecovery;
  recovery_point_ = snd_nxt_;
  partial_acks_ = 0;
  reduced_at_ = sim_.now();
  if (!sack_) {  // the duplicate ACKs so far stand for packets that left the network
    sacked_out_ = std::min<uint64_t>(dupacks_, snd_nxt_ - snd_una_ - 1);
  }
  if (prr_on_)
    prr_.start(snd_nxt_ - snd_una_);
  if (!rack_) {  // with RACK the lost segments are the ones it marked
    mark_lost(snd_una_);
    mark_ptr_ = std::max(mark_ptr_, snd_una_ + 1);
  }
  if (send_first)
    send_first_retransmission();
}

void TcpSender::send_first_retransmission() {
  const uint64_t first = next_retransmission();  // RFC 6675 4.3: leaves regardless of cwnd
  if (first != kNone && !(local_ && nic_blocked()))
    transmit(first, true);
}

void TcpSender::on_rto_timer() {
  if (rto_deadline_ == Time::never())
    return;
  if (sim_.now() < rto_deadline_) {
    sim_.schedule_at(rto_event_, rto_deadline_);
    return;
  }
  if (snd_una_ == snd_nxt_) {
    rto_deadline_ = Time::never();
    return;
  }
  // A probe cut to the RTO (RFC 8985 7.2: PTO = min(PTO, RTO)) goes first.
  if (rack_ && rack_->tlp_deadline <= sim_.now() && send_loss_probe())
    return;
  ++counters_.timeouts;
  account_window();
  rtt_.backoff();
  rtt_.stop_timing();  // ns-2's reset_rtx_timer, even if the retransmission leaves later
  // RFC 5681 section 3.1: when a segment already retransmitted by the timer times out
  // again, ssthresh is held (Linux likewise recomputes it only on the first timeout).
  const bool repeated = state_ == cc::CaState::kLoss && snd_una_ == loss_una_;
  // Linux tcp_enter_loss: "Reduce ssthresh if it has not yet been made inside this window":
  // a timeout during a fast recovery keeps the recovery's ssthresh (the algorithm is still
  // told, as Linux's set_state(TCP_CA_Loss) resets CUBIC's and Illinois' state).
  const bool keep_reduction = state_ == cc::CaState::kRecovery && cfg_->rto_keeps_recovery_ssthresh;
  if (repeated) {
    w_.cwnd_pkts = 1;
  } else {
    const cc::LossResponse r = cc_->on_timeout(view(), w_);
    if (!keep_reduction)
      w_.ssthresh_pkts = r.ssthresh_pkts;
    w_.cwnd_pkts = std::max(r.cwnd_pkts, 1.0);
  }
  loss_una_ = snd_una_;
  state_ = cc::CaState::kLoss;
  recovery_point_ = snd_nxt_;
  rto_recover_ = snd_nxt_;
  dupacks_ = 0;
  if (!sack_)
    sacked_out_ = 0;
  lost_out_ = 0;
  retrans_out_ = 0;
  for (uint64_t s = snd_una_; s < snd_nxt_; ++s) {  // once per timeout: O(window)
    uint8_t& f = seg(s);
    f = static_cast<uint8_t>(f & ~kRetrans);
    if ((f & kSacked) == 0) {
      f |= kLost;
      ++lost_out_;
    }
  }
  mark_ptr_ = snd_nxt_;
  sacked_beyond_ = 0;
  retx_ptr_ = snd_una_;
  retx_below_.clear();
  if (rack_) {
    rack_->rack.on_timeout(snd_nxt_);
    rack_->tlp_end = kNone;
    rack_->tlp_deadline = Time::never();
  }
  rto_deadline_ = sim_.now() + rtt_.rto();
  sim_.schedule_at(rto_event_, rto_deadline_);
  try_send();
}

}  // namespace fastsim::tcp
