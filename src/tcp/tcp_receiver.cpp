// TCP receiver (see tcp_receiver.hpp).
#include "fastsim/tcp/tcp_receiver.hpp"

#include <algorithm>

#include "fastsim/net/link.hpp"

namespace fastsim::tcp {

namespace {
constexpr uint64_t kNone = UINT64_MAX;
}

TcpReceiver::TcpReceiver(Simulator& sim, net::PacketPool& pool, const TcpConfig& cfg, const net::Route* ack_route)
    : sim_(sim), pool_(pool), cfg_(cfg), ack_route_(ack_route) {
  ranges_.reserve(16);
}

void TcpReceiver::receive(net::Packet* p) {
  ++counters_.data_arrivals;
  echo_ = p->echo;
  echo_retransmission_ = p->retransmission;
  const uint64_t seq = p->seq;
  pool_.release(p);
  last_ooo_seq_ = kNone;

  if (seq < rcv_nxt_) {  // duplicate of delivered data: ACK at once
    send_ack();
    return;
  }
  if (seq == rcv_nxt_) {
    const bool had_holes = !ranges_.empty();
    ++rcv_nxt_;
    ++counters_.segments_delivered;
    if (had_holes && ranges_.front().start == rcv_nxt_) {
      counters_.segments_delivered += ranges_.front().end - ranges_.front().start;
      rcv_nxt_ = ranges_.front().end;
      ranges_.erase(ranges_.begin());
    }
    if (had_holes || !cfg_.delayed_ack || ++unacked_segments_ >= 2) {
      send_ack();
    } else if (!delack_timer_.scheduled()) {
      sim_.schedule_in(delack_timer_, cfg_.delayed_ack_timeout);
    }
    return;
  }
  buffer_out_of_order(seq);
  last_ooo_seq_ = seq;
  send_ack();
}

bool TcpReceiver::buffer_out_of_order(uint64_t seq) {
  if (ranges_.empty() || seq > ranges_.back().end) {
    ranges_.push_back({seq, seq + 1});
    return true;
  }
  if (seq == ranges_.back().end) {
    ++ranges_.back().end;
    return true;
  }
  auto next = std::upper_bound(ranges_.begin(), ranges_.end(), seq,
                               [](uint64_t s, const net::SackBlock& r) { return s < r.start; });
  const bool has_prev = next != ranges_.begin();
  if (has_prev && seq < std::prev(next)->end)
    return false;  // already held
  const bool join_prev = has_prev && std::prev(next)->end == seq;
  const bool join_next = next != ranges_.end() && next->start == seq + 1;
  if (join_prev && join_next) {
    std::prev(next)->end = next->end;
    ranges_.erase(next);
  } else if (join_prev) {
    ++std::prev(next)->end;
  } else if (join_next) {
    --next->start;
  } else {
    ranges_.insert(next, {seq, seq + 1});
  }
  return true;
}

void TcpReceiver::on_delack_timer() {
  if (unacked_segments_ > 0)
    send_ack();
}

void TcpReceiver::send_ack() {
  if (delack_timer_.scheduled())
    sim_.cancel(delack_timer_);
  unacked_segments_ = 0;
  net::Packet* a = pool_.acquire();
  a->route = ack_route_;
  a->size_bytes = cfg_.ack_size;
  a->is_ack = true;
  a->seq = rcv_nxt_;
  a->echo = echo_;
  a->retransmission = echo_retransmission_;
  a->trigger_seq = last_ooo_seq_;
  if (cfg_.sack && !ranges_.empty()) {
    size_t first = ranges_.size();
    if (last_ooo_seq_ != kNone) {
      auto it = std::upper_bound(ranges_.begin(), ranges_.end(), last_ooo_seq_,
                                 [](uint64_t s, const net::SackBlock& r) { return s < r.start; });
      if (it != ranges_.begin())
        first = static_cast<size_t>(std::prev(it) - ranges_.begin());
    }
    uint8_t n = 0;
    if (first < ranges_.size())
      a->sacks[n++] = ranges_[first];
    for (size_t i = ranges_.size(); i-- > 0 && n < a->sacks.size();) {
      if (i != first)
        a->sacks[n++] = ranges_[i];
    }
    a->num_sacks = n;
  }
  ++counters_.acks_sent;
  ack_route_->links[0]->enqueue(a);
}

}  // namespace fastsim::tcp
