// TcpSender's optional Linux-like loss recovery (tcp_sender.hpp for the model): the
// per-transmission bookkeeping of the switches, RACK's loss marking and reordering timer
// (rack.hpp), Tail Loss Probe (RFC 8985 section 7) and the restart after idle (RFC 2861
// as Linux's tcp_cwnd_restart), and the timed segment of RFC 6298 / ns-2 RTT sampling
// (rtt_every_ack false, rtt_estimator.hpp). PRR's arithmetic is in prr.hpp.
#include <algorithm>

#include "fastsim/tcp/tcp_sender.hpp"

namespace fastsim::tcp {

namespace {
constexpr Duration kTlpDelayedAckAllowance = Duration::milliseconds(200);  // RFC 8985 WCDelAckT
}  // namespace

void TcpSender::on_transmit_extras(uint64_t seq, bool retransmission, bool arm_probe) {
  if (cfg_->prr && state_ == cc::CaState::kRecovery)
    prr_.out += 1;
  // Linux's CA_EVENT_TX_START (tcp_event_data_sent): new data leaves with nothing in flight,
  // told with the time since the last data packet left (not at the very first send).
  if (tx_start_events_ && !retransmission && snd_nxt_ - snd_una_ == 1 && last_send_ != Time::never())
    cc_->on_tx_start(view(), sim_.now() - last_send_);
  if (cfg_->slow_start_after_idle || tx_start_events_)
    last_send_ = sim_.now();
  if (!rtt_.every_ack()) {  // RFC 6298 / ns-2 timing: one new segment at a time, none across a retransmission
    if (retransmission)
      rtt_.stop_timing();
    else
      rtt_.start_timing(seq, sim_.now());
  }
  if (rack_) {
    if (retransmission)
      rack_->rack.on_retransmit(seq, sim_.now(), snd_nxt_);
    else
      rack_->rack.on_new_data(seq, sim_.now());
    if (!retransmission && !rack_->probing) {
      if (arm_probe)
        schedule_tlp();
    } else if (retransmission && seq == snd_una_)
      arm_rto();  // Linux tcp_xmit_retransmit_queue: resending the head restarts the RTO
  }
}

void TcpSender::rack_detect_loss() {
  // RFC 8985 6.2 step 4: no reordering window in recovery or once dupack_threshold
  // segments are SACKed, unless reordering has been seen.
  const bool reo_zero = state_ != cc::CaState::kOpen || sacked_out_ >= cfg_->dupack_threshold;
  auto fresh = [this](uint64_t s) { return (seg(s) & (kSacked | kLost | kEverRetrans)) == 0; };
  auto live = [this](uint64_t s) {
    if (s < snd_una_ || s >= snd_nxt_)
      return false;
    const uint8_t f = seg(s);
    return (f & kSacked) == 0 && ((f & kLost) == 0 || (f & kRetrans) != 0);
  };
  auto lose = [this](uint64_t s) { rack_mark_lost(s); };
  const std::optional<Duration> wait =
      rack_->rack.detect_loss(sim_.now(), reo_zero, rtt_.view().srtt, snd_una_, snd_nxt_, fresh, live, lose);
  if (resend_now_) {  // as at the start of a recovery (RFC 6675 4.3), the first one leaves at once
    resend_now_ = false;
    if (const uint64_t first = next_retransmission(); first != kNone)
      transmit(first, true);
  }
  if (wait) {
    const Time at = sim_.now() + *wait;
    if (!rack_->reo_event.scheduled() || rack_->reo_event.time() != at) {
      if (rack_->reo_event.scheduled())
        sim_.cancel(rack_->reo_event);
      sim_.schedule_at(rack_->reo_event, at);
    }
  }
}

void TcpSender::rack_mark_lost(uint64_t seq) {
  uint8_t& f = seg(seq);
  if ((f & kRetrans) != 0) {  // a lost retransmission (or loss probe): resend it again
    f = static_cast<uint8_t>(f & ~kRetrans);
    --retrans_out_;
    ++loss_marks_;
    // RFC 5681 4.3 / RFC 8985 9.3: the loss of a retransmission lowers the window again.
    // Without PRR nothing else bounds a recovery's sending, so each retransmission lost
    // after the last reduction brings a new one (at most one per round trip); with PRR,
    // as Linux, the recovery keeps its single reduction.
    if (!cfg_->prr && state_ == cc::CaState::kRecovery && rack_->rack.xmit_ts(seq) >= reduced_at_) {
      const cc::LossResponse r = cc_->on_loss(view(), w_);
      w_.ssthresh_pkts = r.ssthresh_pkts;
      w_.cwnd_pkts = std::max(r.cwnd_pkts, 1.0);
      reduced_at_ = sim_.now();
      resend_now_ = true;
    }
  }
  if ((f & kLost) != 0) {
    note_retransmittable(seq);
  } else {
    mark_lost(seq);
  }
}

void TcpSender::on_reo_timer() {
  account_window();
  rack_detect_loss();
  const bool was_open = state_ == cc::CaState::kOpen;
  maybe_enter_recovery();
  if (cfg_->prr && was_open && state_ == cc::CaState::kRecovery) {
    w_.cwnd_pkts = std::max(pipe(), 1.0);  // no ACK delivered data: only the first retransmission
  } else if (cfg_->prr && state_ == cc::CaState::kRecovery) {
    // Segments marked lost by the timer leave the pipe; PRR decides what replaces them as
    // on an ACK that delivered nothing (sndcnt = max(prr_delivered - prr_out, 0) or the
    // proportional share still owed), not the window left over from the last ACK: that
    // would resend every timer-detected loss at once, out of the ACK clock, into the queue
    // that dropped it (Linux's tcp_rack_reo_timeout keeps the old window; see docs/model.md).
    w_.cwnd_pkts = std::max(pipe() + prr_.on_ack(0, pipe(), w_.ssthresh_pkts, false), 1.0);
  }
  try_send();
}

void TcpSender::schedule_tlp() {
  // RFC 8985 7.2: armed while Open with data outstanding, nothing SACKed and no probe out.
  if (state_ != cc::CaState::kOpen || sacked_out_ > 0 || snd_nxt_ == snd_una_ || rack_->tlp_end != kNone) {
    rack_->tlp_deadline = Time::never();
    return;
  }
  const std::optional<Duration> srtt = rtt_.view().srtt;
  Duration pto = srtt ? *srtt * 2 : cfg_->initial_rto;
  if (srtt && snd_nxt_ - snd_una_ == 1)
    pto += kTlpDelayedAckAllowance;
  rack_->tlp_deadline = std::min(sim_.now() + pto, rto_deadline_);
  if (!rack_->tlp_event.scheduled() || rack_->tlp_event.time() > rack_->tlp_deadline)
    sim_.schedule_at(rack_->tlp_event, rack_->tlp_deadline);
}

void TcpSender::on_tlp_timer() {
  if (rack_->tlp_deadline == Time::never())
    return;
  if (sim_.now() < rack_->tlp_deadline) {
    sim_.schedule_at(rack_->tlp_event, rack_->tlp_deadline);
    return;
  }
  send_loss_probe();
}

bool TcpSender::send_loss_probe() {
  rack_->tlp_deadline = Time::never();
  if (state_ != cc::CaState::kOpen || sacked_out_ > 0 || snd_nxt_ == snd_una_ || rack_->tlp_end != kNone)
    return false;
  account_window();
  ++counters_.loss_probes;
  rack_->probing = true;
  const bool new_data = has_new_data();
  if (new_data) {
    transmit(snd_nxt_, false);
  } else {
    transmit(snd_nxt_ - 1, true);
  }
  rack_->probing = false;
  rack_->tlp_end = snd_nxt_;
  rack_->tlp_retrans = !new_data;
  arm_rto();  // RFC 8985 7.3: the RTO, not another probe, follows
  return true;
}

void TcpSender::tlp_on_ack(bool ack_echoes_retransmission) {
  if (rack_->tlp_end == kNone || snd_una_ < rack_->tlp_end)
    return;
  rack_->tlp_end = kNone;
  // RFC 8985 7.4: a retransmitted probe repaired a loss if it, not the original, was
  // delivered (no DSACK here: the ACK passing TLP.end_seq echoes the retransmission).
  if (rack_->tlp_retrans && ack_echoes_retransmission && state_ == cc::CaState::kOpen) {
    const cc::LossResponse r = cc_->on_loss(view(), w_);
    w_.ssthresh_pkts = r.ssthresh_pkts;
    w_.cwnd_pkts = std::max(std::min(w_.cwnd_pkts, r.ssthresh_pkts), 1.0);
  }
}

void TcpSender::restart_after_idle() {
  // Linux tcp_cwnd_restart (RFC 2861): called with nothing outstanding, idle > RTO.
  account_window();
  ++counters_.idle_restarts;
  if (state_ == cc::CaState::kOpen)  // tcp_current_ssthresh
    w_.ssthresh_pkts = std::max(w_.ssthresh_pkts, 0.75 * w_.cwnd_pkts);
  const double restart = std::min(cfg_->initial_window, w_.cwnd_pkts);
  const Duration rto = rtt_.rto();
  double cwnd = w_.cwnd_pkts;
  for (Duration idle = sim_.now() - last_send_; (idle -= rto) > Duration::zero() && cwnd > restart;)
    cwnd /= 2;
  w_.cwnd_pkts = std::max(cwnd, restart);
}

}  // namespace fastsim::tcp
