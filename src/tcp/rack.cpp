// RACK loss detection (see rack.hpp for the model and its choices).
#include "fastsim/tcp/rack.hpp"

#include <algorithm>

namespace fastsim::tcp {

void Rack::resize_ring(size_t n, uint64_t una, uint64_t nxt) {
  std::vector<Time> grown(n);
  for (uint64_t s = una; s < nxt; ++s)
    grown[s & (n - 1)] = xmit_[s & mask_];
  xmit_.swap(grown);
  mask_ = n - 1;
}

void Rack::on_transmit(uint64_t seq, Time now) {
  xmit_[seq & mask_] = now;
  if (queue_.full())
    queue_.set_capacity(2 * queue_.capacity());
  queue_.push_back({seq, now});
}

void Rack::on_delivered(uint64_t seq, bool retransmitted, Time echo, Time now) {
  const Time sent = xmit_ts(seq);
  const Duration rtt = now - sent;
  if (!retransmitted) {
    min_rtt_ = min_rtt_ ? std::min(*min_rtt_, rtt) : rtt;
    if (seq + 1 < fack_before_ack_)
      reordering_seen_ = true;  // RFC 8985 6.2 step 3: delivered below RACK.fack, never resent
  } else if (echo < sent || (min_rtt_ && rtt < *min_rtt_)) {
    return;  // RFC 8985 6.2 step 2: the ACK is (likely) for an earlier copy
  }
  fack_ = std::max(fack_, seq + 1);
  advanced_ = true;
  rack_rtt_ = rtt;
  if (!have_xmit_ || sent_after(sent, seq, rack_xmit_, rack_end_)) {
    rack_xmit_ = sent;
    rack_end_ = seq;
    have_xmit_ = true;
  }
}

Duration Rack::reo_wnd(bool zero_unless_reordering, std::optional<Duration> srtt) const {
  if (!reordering_seen_ && zero_unless_reordering)
    return Duration::zero();
  if (!min_rtt_)
    return Duration::zero();
  const Duration w = *min_rtt_ / 4;
  return srtt ? std::min(w, *srtt) : w;
}

}  // namespace fastsim::tcp
