// TCP receiver (see tcp_receiver.hpp).
#include "fastsim/tcp/tcp_receiver.hpp"

#include <array>
#include <span>

namespace fastsim::tcp {

namespace {
constexpr uint64_t kNone = net::Packet::kNoTrigger;
}

TcpReceiver::TcpReceiver(Simulator& sim, net::PacketPool& pool, const TcpConfig& cfg, const net::Route* ack_route,
                         net::PacketSink& out)
    : TcpReceiver(sim, pool, std::make_shared<const TcpConfig>(cfg), ack_route, out) {}

TcpReceiver::TcpReceiver(Simulator& sim, net::PacketPool& pool, std::shared_ptr<const TcpConfig> shared_cfg,
                         const net::Route* ack_route, net::PacketSink& out)
    : sim_(sim),
      pool_(pool),
      cfg_(std::move(shared_cfg)),
      ack_route_(ack_route),
      out_(out),
      ack_size_(cfg_->ack_size),
      ecn_(!cfg_->ecn             ? EcnEcho::Mode::kOff
           : cfg_->ecn_exact_echo ? EcnEcho::Mode::kExact
                                  : EcnEcho::Mode::kRfc3168),
      sack_(cfg_->sack),
      delayed_ack_(cfg_->delayed_ack) {}

void TcpReceiver::receive(net::Packet* p) {
  ++counters_.data_arrivals;
  if (ecn_.mode() != EcnEcho::Mode::kOff) {
    if (ecn_.changes_state(p->ecn) && unacked_segments_ > 0)
      send_ack();  // RFC 8257 3.2: the held-back ACK leaves with the old CE state
    ecn_.on_data(p->ecn);
  }
  echo_ = p->echo;
  echo_retransmission_ = p->retransmission;
  const uint64_t seq = p->seq;
  last_ooo_seq_ = kNone;
  // The segment's packet becomes its ACK, if one goes out now (what releasing it and
  // taking a packet from the pool's LIFO free list would give, without the list).
  if (seq < rcv_nxt_) {  // duplicate of delivered data: ACK at once
    send_ack(p);
    return;
  }
  if (seq == rcv_nxt_) {
    const bool had_holes = !ranges_.empty();
    ++rcv_nxt_;
    ++counters_.segments_delivered;
    if (had_holes && ranges_.front().start == rcv_nxt_) {
      const net::SackBlock filled = ranges_.front();
      counters_.segments_delivered += filled.end - filled.start;
      rcv_nxt_ = filled.end;
      ranges_.pop_front();
    }
    if (had_holes || !delayed_ack_ || ++unacked_segments_ >= 2) {
      send_ack(p);
    } else {
      pool_.release(p);
      // The first segment held back: its ACK is due after the timeout. A timer still
      // pending from an earlier held-back segment (acknowledged since) fires earlier and
      // moves on to this deadline (on_delack_timer): no cancel and re-file per ACK. The
      // seq it then takes is reserved now, so it fires among simultaneous events exactly
      // where a timer armed now would.
      delack_due_ = sim_.now() + cfg_->delayed_ack_timeout;
      if (!delack_timer_.scheduled()) {
        sim_.schedule_at(delack_timer_, delack_due_);
        delack_seq_gap_ = 0;
      } else {
        const uint64_t reserved = sim_.reserve_seq();
        const uint64_t gap = reserved - delack_timer_.seq();
        if (gap <= UINT32_MAX) {
          delack_seq_gap_ = static_cast<uint32_t>(gap);
        } else {  // a timeout longer than 2^32 events: move the timer now
          sim_.cancel(delack_timer_);
          sim_.schedule_reserved(delack_timer_, delack_due_, reserved);
          delack_seq_gap_ = 0;
        }
      }
    }
    return;
  }
  ranges_.add(seq);
  last_ooo_seq_ = seq;
  send_ack(p);
}

void TcpReceiver::on_delack_timer() {
  if (unacked_segments_ == 0) {  // its segment was acknowledged since: nothing held back
    delack_seq_gap_ = 0;
    return;
  }
  if (delack_seq_gap_ != 0) {
    // Armed for a segment acknowledged since: on to the held one's deadline (possibly now)
    // with the seq reserved when it was held back, so that it fires where a timer armed
    // then would among simultaneous events.
    const uint64_t seq = delack_timer_.seq() + delack_seq_gap_;
    delack_seq_gap_ = 0;
    sim_.schedule_reserved(delack_timer_, delack_due_, seq);
  } else {
    send_ack();
  }
}

void TcpReceiver::send_ack(net::Packet* reuse) {
  unacked_segments_ = 0;  // a pending timer finds nothing held back (on_delack_timer)
  net::Packet* a = reuse != nullptr ? pool_.renew(reuse) : pool_.acquire();
  a->route = ack_route_;
  a->size_bytes = ack_size_;
  a->is_ack = true;
  a->seq = rcv_nxt_;
  a->echo = echo_;
  a->retransmission = echo_retransmission_;
  a->ecn = ecn_.ack_ecn();
  // A fresh packet has no trigger and no SACK blocks: only an ACK with either sets them.
  if (last_ooo_seq_ != kNone || (sack_ && !ranges_.empty())) {
    std::array<net::SackBlock, net::Packet::kMaxSacks> blocks;
    const size_t n = sack_ ? ranges_.sack_blocks(last_ooo_seq_, blocks) : 0;
    a->set_ack_options(last_ooo_seq_, std::span(blocks).first(n));
  }
  ++counters_.acks_sent;
  out_.receive(a);
}

}  // namespace fastsim::tcp
