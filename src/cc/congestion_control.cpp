// Default timeout response shared by all algorithms (specs/algorithms.md: ssthresh = max(w/2, 2), w = 1).
#include "fastsim/cc/congestion_control.hpp"

#include <algorithm>

namespace fastsim::cc {

LossResponse CongestionControl::on_timeout(const FlowView& /*flow*/, const Window& w) {
  return {std::max(w.cwnd_pkts / 2.0, 2.0), 1.0};
}

}  // namespace fastsim::cc
