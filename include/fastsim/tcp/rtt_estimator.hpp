// RFC 6298 round-trip estimator and retransmission timeout, plus the min/max/latest
// samples and the per-round statistics (min, mean, max of the last round) that
// delay-based algorithms use (baseRTT, Vegas's per-RTT minimum, Illinois's average).
// - RTO = srtt + max(G, 4 rttvar) with the granularity term G set to min_rto, as Linux
//   does (srtt + max(4 mdev, rto_min)): with exact samples rttvar collapses on a steady
//   path, and max(min_rto, srtt + 4 rttvar) would fire spuriously whenever a
//   retransmission waits behind a full queue. Capped at max_rto; doubled per timeout
//   (backoff), reset by the next valid sample (Karn's rule keeps samples of
//   retransmitted segments out before they get here).
// - min_rto_floor (RFC 6298 section 2.4, ns-2): RTO = max(min_rto, srtt + 4 rttvar) instead.
// - rto_granularity > 0 (ns-2's tcpTick_): the RTO estimator counts in clock ticks with
//   ns-2's fixed-point arithmetic (TcpAgent::rtt_update / rtt_timeout / rtt_backoff in
//   ns-2.35 tcp/tcp.cc): a sample is rounded to whole ticks (at least one; ns-2's
//   timestamp formula int(rtt / tick + 0.5)), srtt is kept as 8 x ticks and rttvar as
//   4 x ticks in integers, RTO = floor(srtt + 4 rttvar) ticks, never below two ticks, and
//   after the fourth consecutive backoff srtt is dropped so the next sample starts the
//   estimate afresh. Only the timer uses ticks: view() (what the algorithms see) keeps the
//   exact samples.
// - every_ack false (rtt_every_ack: RFC 6298 without timestamps, ns-2's Agent/TCP): srtt,
//   rttvar, the RTO and the end of backoff take only the timed segment's samples. One new
//   segment is timed at a time (start_timing); the first cumulative ACK past it gives the
//   sample (on_cumulative_ack); a retransmission stops the timing (Karn's rule; ns-2's
//   reset_rtx_timer). The per-sample statistics (latest, min, max, rounds, mean) still
//   take every ACK's sample.
#pragma once

#include <algorithm>
#include <optional>

#include "fastsim/cc/congestion_control.hpp"
#include "fastsim/core/time.hpp"
#include "fastsim/tcp/tcp_config.hpp"

namespace fastsim::tcp {

class RttEstimator {
 public:
  RttEstimator(Duration initial_rto, Duration min_rto, Duration max_rto, Duration granularity = Duration::zero(),
               bool min_rto_floor = false, bool every_ack = true)
      : min_rto_(min_rto),
        max_rto_(max_rto),
        rto_(initial_rto),
        tick_(granularity),
        floor_(min_rto_floor),
        every_ack_(every_ack) {}
  /// The estimator a sender with these settings uses.
  explicit RttEstimator(const TcpConfig& c)
      : RttEstimator(c.initial_rto, c.min_rto, c.max_rto, c.rto_granularity, c.min_rto_floor, c.rtt_every_ack) {}

  /// An ACK's sample (its echoed send time).
  void add_sample(Duration r) {
    if (samples_ == 0 || r > *view_.max_rtt)
      view_.max_rtt = r;
    if (samples_ == 0 || r < smallest_)
      smallest_ = r;
    if (every_ack_) [[likely]]
      update_timer(r);
    view_.latest = r;
    // set_min_rtt may have set the minimum before the first sample
    if (!view_.min_rtt || r < *view_.min_rtt)
      view_.min_rtt = r;
    if (round_.samples == 0) {
      round_.min = round_.max = r;
    } else {
      round_.min = std::min(round_.min, r);
      round_.max = std::max(round_.max, r);
    }
    ++round_.samples;
    round_sum_ps_ += r.ps();
    ++samples_;
    sum_s_ += r.to_seconds();
  }
  /// every_ack false: times new segment `seq`, sent at `now`, unless one is being timed.
  void start_timing(uint64_t seq, Time now) {
    if (!every_ack_ && timed_seq_ == kNotTiming) {
      timed_seq_ = seq;
      timed_at_ = now;
    }
  }
  /// A retransmission: the timed segment's sample could be ambiguous (Karn).
  void stop_timing() { timed_seq_ = kNotTiming; }
  /// The cumulative ACK point moved to `snd_una` at `now`: past the timed segment, the
  /// timer estimator takes its sample.
  void on_cumulative_ack(uint64_t snd_una, Time now) {
    if (snd_una > timed_seq_) [[unlikely]] {
      timed_seq_ = kNotTiming;
      update_timer(now - timed_at_);
    }
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
  void backoff() {
    rto_ = std::min(rto_ * 2, max_rto_);
    if (++backoffs_ > 3 && tick_ > Duration::zero())  // ns-2: t_backoff_ > 8 clobbers srtt
      t_srtt8_ = 0;
  }

  [[nodiscard]] Duration rto() const { return rto_; }
  [[nodiscard]] bool every_ack() const { return every_ack_; }
  [[nodiscard]] const cc::RttView& view() const { return view_; }
  [[nodiscard]] uint64_t samples() const { return samples_; }
  /// The smallest sample measured (view().min_rtt may be an algorithm's corrected estimate).
  [[nodiscard]] std::optional<Duration> smallest_sample() const {
    return samples_ ? std::optional<Duration>(smallest_) : std::nullopt;
  }
  [[nodiscard]] double mean_seconds() const { return samples_ ? sum_s_ / static_cast<double>(samples_) : 0.0; }

 private:
  Duration smallest_ = Duration::zero();
  static constexpr uint64_t kNotTiming = UINT64_MAX;

  /// RFC 6298's srtt and rttvar (view().srtt), the RTO, and the end of backoff, on sample `r`.
  [[gnu::always_inline]] void update_timer(Duration r) {
    if (!view_.srtt) {
      srtt_ = r;
      rttvar_ = r / 2;
    } else {
      const Duration err = srtt_ > r ? srtt_ - r : r - srtt_;
      rttvar_ = Duration::picoseconds((3 * rttvar_.ps() + err.ps()) / 4);
      srtt_ = Duration::picoseconds((7 * srtt_.ps() + r.ps()) / 8);
    }
    view_.srtt = srtt_;
    if (tick_ > Duration::zero()) [[unlikely]] {
      rto_ = tick_rto(r);
    } else if (floor_) {
      rto_ = std::min(std::max(min_rto_, srtt_ + rttvar_ * 4), max_rto_);
    } else {
      rto_ = std::min(srtt_ + std::max(min_rto_, rttvar_ * 4), max_rto_);
    }
    backoffs_ = 0;
  }

  /// ns-2's rtt_update and rtt_timeout on sample `r` (tick mode).
  Duration tick_rto(Duration r) {
    const int64_t g = tick_.ps();
    const int64_t m = std::max<int64_t>(1, (r.ps() + g / 2) / g);
    if (t_srtt8_ != 0) {
      int64_t delta = m - (t_srtt8_ >> 3);  // srtt += (m - srtt) / 8
      if ((t_srtt8_ += delta) <= 0)
        t_srtt8_ = 1;
      delta = (delta < 0 ? -delta : delta) - (t_rttvar4_ >> 2);  // rttvar += (|m - srtt| - rttvar) / 4
      if ((t_rttvar4_ += delta) <= 0)
        t_rttvar4_ = 1;
    } else {
      t_srtt8_ = m << 3;
      t_rttvar4_ = m << 1;
    }
    const int64_t rtxcur = ((t_rttvar4_ << 3) + t_srtt8_) >> 3;  // srtt + 4 rttvar, whole ticks
    const Duration base = tick_ * rtxcur;
    const Duration srtt = tick_ * (t_srtt8_ >> 3);
    const Duration rto = floor_ ? std::max(min_rto_, base) : srtt + std::max(min_rto_, base - srtt);
    return std::max(std::min(rto, max_rto_), tick_ * 2);
  }

  Duration min_rto_, max_rto_, rto_;
  Duration tick_;                        ///< zero: exact arithmetic
  int64_t t_srtt8_ = 0, t_rttvar4_ = 0;  ///< tick mode: 8 x srtt and 4 x rttvar in ticks
  int backoffs_ = 0;                     ///< consecutive backoffs since the last sample
  bool floor_;
  bool every_ack_;
  uint64_t timed_seq_ = kNotTiming;  ///< every_ack false: the segment being timed
  Time timed_at_;                    ///< ... and when it was sent
  Duration srtt_, rttvar_;
  cc::RttView view_;
  cc::RoundRtt round_;
  int64_t round_sum_ps_ = 0;
  uint64_t samples_ = 0;
  double sum_s_ = 0;
};

}  // namespace fastsim::tcp
