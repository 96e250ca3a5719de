// HyStart, the hybrid slow start of Linux's CUBIC (Ha & Rhee, "Taming the Elephants:
// New TCP Slow Start", 2008/2011; net/ipv4/tcp_cubic.c as in Linux 5.16 to 6.x: the 2020
// rework of 5.7, with 5.8's curr_rtt fix and 5.16's round reset in hystart_update;
// docs/algorithms.md "cubic").
// In slow start, from a window of 16 packets on, per ACK with an RTT sample:
// - ACK train: ACKs closer than 2 ms to the previous one continue the round's train;
//   once the train has lasted more than (delay_min + ack_delay) / 2 since the round
//   began (not halved when the sender paces), the window is taken to have reached the
//   path's BDP. ack_delay is Linux's hystart_ack_delay, min(1 ms, 4 x 64 KB / pacing
//   rate), with the rate TCP computes in slow start whether or not it paces
//   (2 mss max(cwnd, in flight) / srtt).
// - Delay increase: the smallest of the round's samples, once more than 8 were taken,
//   exceeds delay_min + clamp(delay_min / 8, 4 ms, 16 ms).
// Either sets ssthresh = cwnd (slow start ends at once). delay_min is the smallest
// sample seen (Linux's ca->delay_min). A round begins with the first ACK past the
// previous round's snd_nxt (the sender's round boundary), or the first ACK with an RTT
// sample after it.
#pragma once

#include <optional>

#include "fastsim/cc/congestion_control.hpp"

namespace fastsim::cc {

class Hystart {
 public:
  /// One ACK, before the window grows (Linux's pkts_acked runs before cong_avoid).
  /// `fresh_epoch`: the CUBIC epoch began less than 1 s ago (Linux discards delay
  /// samples right after a recovery). Sets w.ssthresh_pkts = w.cwnd_pkts on detection.
  void on_ack(const FlowView& flow, Window& w, const AckEvent& ack, bool fresh_epoch);
  /// A retransmission timeout (Linux's TCP_CA_Loss: bictcp_reset + hystart_reset):
  /// slow start is watched again, delay_min is learned anew.
  void reset();
  /// Slow start was ended by HyStart.
  [[nodiscard]] bool found() const { return found_; }
  /// ssthresh set when it ended slow start (0: not yet).
  [[nodiscard]] double exit_window() const { return exit_window_; }

 private:
  void new_round(Time now);
  void detect(Window& w);

  bool found_ = false;
  bool started_ = false;
  bool round_pending_ = false;  // a round boundary passed on an ACK without an RTT sample
  double exit_window_ = 0;
  std::optional<Duration> delay_min_;
  Time round_start_ = Time::zero();
  Time last_ack_ = Time::zero();
  std::optional<Duration> curr_rtt_;
  uint32_t sample_cnt_ = 0;
};

}  // namespace fastsim::cc
