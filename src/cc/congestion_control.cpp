// Timeout responses shared by the algorithms (RFC 5681 section 3.1: ssthresh =
// max(FlightSize / 2, 2 SMSS), then a loss window of one segment; fastsim uses cwnd for
// FlightSize).
#include "fastsim/cc/congestion_control.hpp"

namespace fastsim::cc {

LossResponse CongestionControl::on_timeout(const FlowView& /*flow*/, const Window& w) {
  return {at_least_min_window(w.cwnd_pkts / 2.0), 1.0};
}

LossResponse CongestionControl::timeout_from_loss(const FlowView& flow, const Window& w) {
  return {on_loss(flow, w).ssthresh_pkts, 1.0};
}

}  // namespace fastsim::cc
