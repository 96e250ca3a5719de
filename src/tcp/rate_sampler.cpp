// Delivery-rate sampling (see rate_sampler.hpp).
#include "fastsim/tcp/rate_sampler.hpp"

#include <algorithm>

namespace fastsim::tcp {

RateSampler::RateSampler(size_t ring) : ring_(ring), mask_(ring - 1) {}

void RateSampler::resize_ring(size_t n, uint64_t una, uint64_t nxt) {
  std::vector<PacketState> grown(n);
  for (uint64_t s = una; s < nxt; ++s)
    grown[s & (n - 1)] = ring_[s & mask_];
  ring_.swap(grown);
  mask_ = n - 1;
}

void RateSampler::on_transmit(uint64_t seq, Time now, bool nothing_in_flight, bool retransmission) {
  if (nothing_in_flight) {  // Linux tcp_rate_skb_sent: restart the intervals after idle
    first_sent_time_ = now;
    delivered_time_ = now;
  }
  PacketState& p = ring_[seq & mask_];
  p.sent = now;
  p.first_sent = first_sent_time_;
  p.delivered_time = delivered_time_;
  p.delivered = delivered_;
  p.app_limited = app_limited_ != 0;
  p.retransmitted = retransmission;
}

void RateSampler::on_delivered(uint64_t seq) {
  ++delivered_;
  ++acked_;
  const PacketState& p = ring_[seq & mask_];
  if (!have_ref_ || p.delivered > ref_.delivered || (p.delivered == ref_.delivered && p.sent > ref_.sent)) {
    ref_ = p;
    have_ref_ = true;
    first_sent_time_ = p.sent;  // the send phase of the next sample starts here
  }
}

const cc::RateSample& RateSampler::generate(Time now, std::optional<Duration> min_rtt) {
  if (app_limited_ != 0 && delivered_ > app_limited_)
    app_limited_ = 0;  // the app-limited bubble has been delivered
  if (acked_ > 0)
    delivered_time_ = now;
  cc::RateSample& rs = sample_;
  rs = cc::RateSample{};
  rs.acked_sacked = acked_;
  rs.flow_delivered = delivered_;
  if (have_ref_) {
    rs.prior_delivered = ref_.delivered;
    rs.delivered = delivered_ - ref_.delivered;
    rs.is_app_limited = ref_.app_limited;
    if (!ref_.retransmitted)
      rs.rtt = now - ref_.sent;
    const Duration interval = std::max(ref_.sent - ref_.first_sent, now - ref_.delivered_time);
    if (interval > Duration::zero() && (!min_rtt || interval >= *min_rtt)) {
      rs.interval = interval;
      rs.delivery_rate = static_cast<double>(rs.delivered) / interval.to_seconds();
      rs.valid = true;
    }
  }
  acked_ = 0;
  have_ref_ = false;
  return rs;
}

}  // namespace fastsim::tcp
