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

Duration Rack::reo_wnd(bool zero_unless_reordering, std::optional<Duration> srtt) const {
  if (!reordering_seen_ && zero_unless_reordering)
    return Duration::zero();
  if (!min_rtt_)
    return Duration::zero();
  const Duration w = *min_rtt_ / 4;
  return srtt ? std::min(w, *srtt) : w;
}

}  // namespace fastsim::tcp
