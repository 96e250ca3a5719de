// RFC 6298 round-trip estimator and retransmission timeout, plus the min/max/latest
// samples and the per-round statistics (min, mean, max of the last round) that
// delay-based algorithms use (baseRTT, Vegas's per-RTT minimum, Illinois's average).
// - RTO = srtt + max(G, 4 rttvar) with the granularity term G set to min_rto, as Linux
//   does (srtt + max(4 mdev, rto_min)): with exact samples rttvar collapses on a steady
//   path, and max(min_rto, srtt + 4 rttvar) would fire spuriously whenever a
//   retransmission waits behind a full queue. Capped at max_rto; doubled per timeout
//   (backoff), reset by the next valid sample (Karn's rule keeps samples of
//   retransmitted segments out before they get here).
#pragma once

#include <algorithm>

#include "fastsim/cc/congestion_control.hpp"
#include "fastsim/core/time.hpp"

namespace fastsim::tcp {

class RttEstimator {
 public:
  RttEstimator(Duration initial_rto, Duration min_rto, Duration max_rto)
      : min_rto_(min_rto), max_rto_(max_rto), rto_(initial_rto) {}

  void add_sample(Duration r) {
    if (!view_.srtt) {
      srtt_ = r;
      rttvar_ = r / 2;
    } else {
      const Duration err = *view_.srtt > r ? *view_.srtt - r : r - *view_.srtt;
      rttvar_ = Duration::picoseconds((3 * rttvar_.ps() + err.ps()) / 4);
      srtt_ = Duration::picoseconds((7 * srtt_.ps() + r.ps()) / 8);
    }
    view_.srtt = srtt_;
    view_.latest = r;
    view_.min_rtt = view_.min_rtt ? std::min(*view_.min_rtt, r) : r;
    view_.max_rtt = view_.max_rtt ? std::max(*view_.max_rtt, r) : r;
    if (round_.samples == 0) {
      round_.min = round_.max = r;
    } else {
      round_.min = std::min(round_.min, r);
      round_.max = std::max(round_.max, r);
    }
    ++round_.samples;
    round_sum_ps_ += r.ps();
    rto_ = std::min(srtt_ + std::max(min_rto_, rttvar_ * 4), max_rto_);
    ++samples_;
    sum_s_ += r.to_seconds();
  }
  /// Closes the current round: its statistics become view().last_round.
  void end_round() {
    if (round_.samples > 0)
      round_.mean = Duration::picoseconds(round_sum_ps_ / round_.samples);
    view_.last_round = round_;
    round_ = {};
    round_sum_ps_ = 0;
  }
  /// Replaces the minimum (an algorithm's corrected baseRTT); later samples still lower it.
  void set_min_rtt(Duration d) { view_.min_rtt = d; }
  void backoff() { rto_ = std::min(rto_ * 2, max_rto_); }

  [[nodiscard]] Duration rto() const { return rto_; }
  [[nodiscard]] const cc::RttView& view() const { return view_; }
  [[nodiscard]] uint64_t samples() const { return samples_; }
  [[nodiscard]] double mean_seconds() const { return samples_ ? sum_s_ / static_cast<double>(samples_) : 0.0; }

 private:
  Duration min_rto_, max_rto_, rto_;
  Duration srtt_, rttvar_;
  cc::RttView view_;
  cc::RoundRtt round_;
  int64_t round_sum_ps_ = 0;
  uint64_t samples_ = 0;
  double sum_s_ = 0;
};

}  // namespace fastsim::tcp
