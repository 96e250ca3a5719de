// RED's average queue and drop decision (see red.hpp for the model and its sources).
#include "fastsim/net/red.hpp"

#include <cmath>

namespace fastsim::net {

double RedGate::base_probability(double avg) const {
  if (avg < p_.min_th)
    return 0.0;
  if (avg < p_.max_th)
    return p_.max_p * (avg - p_.min_th) / (p_.max_th - p_.min_th);
  if (p_.gentle && avg < 2 * p_.max_th)
    return p_.max_p + (1 - p_.max_p) * (avg - p_.max_th) / p_.max_th;
  return 1.0;
}

RedVerdict RedGate::decide(uint64_t queue, bool idle, Time idle_since, Time now, bool ecn_capable) {
  if (idle) {
    const double m = static_cast<double>((now - idle_since).ps()) / small_packet_ps_;
    avg_ *= std::pow(1 - p_.weight, m);
  } else {
    avg_ = (1 - p_.weight) * avg_ + p_.weight * static_cast<double>(queue);
  }
  const double pb = base_probability(avg_);
  if (pb <= 0) {
    count_ = -1;
    return RedVerdict::kAdmit;
  }
  if (pb >= 1) {  // forced drop, ECN-capable or not
    count_ = 0;
    return RedVerdict::kDrop;
  }
  ++count_;
  const double denom = 1 - static_cast<double>(count_) * pb;
  const double pa = denom <= 0 ? 1.0 : pb / denom;
  if (rng_.uniform() < pa) {
    count_ = 0;
    return p_.ecn && ecn_capable ? RedVerdict::kMark : RedVerdict::kDrop;
  }
  return RedVerdict::kAdmit;
}

}  // namespace fastsim::net
