// Per-flow TCP settings (scenario "defaults", overridable per flow).
#pragma once

#include <cstdint>

#include "fastsim/cc/congestion_control.hpp"
#include "fastsim/core/time.hpp"

namespace fastsim::tcp {

struct TcpConfig {
  uint32_t mss = 1460;          ///< payload bytes per segment
  uint32_t packet_size = 1500;  ///< on-the-wire bytes of a data packet
  uint32_t ack_size = 40;       ///< on-the-wire bytes of an ACK
  bool delayed_ack = true;      ///< ACK every 2nd full segment
  Duration delayed_ack_timeout = Duration::milliseconds(40);
  bool sack = false;              ///< RFC 6675 recovery instead of NewReno
  bool newreno_impatient = true;  ///< RFC 6582: re-arm the RTO on the first partial ACK only
  uint32_t dupack_threshold = 3;
  Duration min_rto = Duration::milliseconds(200);
  Duration initial_rto = Duration::seconds_int(1);
  Duration max_rto = Duration::seconds_int(60);
  double initial_window = 10;                       ///< packets (Linux IW10)
  double initial_ssthresh = cc::kInfiniteSsthresh;  ///< packets; "infinite" by default
  uint64_t receive_window = 0;                      ///< packets; 0 = unlimited
  Duration rto_granularity = Duration::zero();      ///< RTO clock tick (ns-2 tcpTick_); 0 = exact
  bool min_rto_floor = false;  ///< RTO = max(min_rto, srtt + 4 rttvar) instead of srtt + max(min_rto, 4 rttvar)
  /// The RTO estimator samples every ACK (timestamps); false: one timed segment per round
  /// trip, dropped at a retransmission (RFC 6298 with Karn's rule, ns-2 without timestamps).
  bool rtt_every_ack = true;
  // Host models (docs/model.md, "Host timing noise" and "Local congestion"); off by default.
  Duration send_jitter;           ///< mean of the sender's exponential per-packet delay; 0 = off
  Duration ack_coalescing;        ///< the receiver's ACKs leave at ticks of this period; 0 = off
  bool local_congestion = false;  ///< a full first hop (txqueuelen) blocks and enters CWR instead of dropping
  bool rack = false;              ///< RACK-TLP loss detection (RFC 8985); needs sack, ignored without
  bool prr = false;               ///< Proportional Rate Reduction in fast recovery (RFC 6937, RFC 9937 reduction bound)
  bool slow_start_after_idle = false;  ///< restart the window after an idle RTO (RFC 2861, Linux)
  /// A timeout during fast recovery keeps the ssthresh the recovery set (Linux tcp_enter_loss);
  /// false: the algorithm's timeout response from the window then (ns-2).
  bool rto_keeps_recovery_ssthresh = false;
  bool pacing = false;  ///< pace at 2 (slow start) or 1.2 x cwnd/srtt unless the algorithm sets a rate (Linux fq)
  bool ecn = false;     ///< ECN (RFC 3168): ECT data, ECE echo, one reduction per window
  /// Not a scenario key: the receiver echoes CE exactly (RFC 8257 3.2); set with `ecn` for
  /// the flows of algorithms that need ECN (CongestionControl::needs_ecn, DCTCP).
  bool ecn_exact_echo = false;

  bool operator==(const TcpConfig&) const = default;
};

}  // namespace fastsim::tcp
