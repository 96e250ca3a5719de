// The table of TCP settings (tcp_settings.hpp): keys, bounds and meanings of every
// TcpConfig field a scenario may set.
#include "fastsim/tcp/tcp_settings.hpp"

#include "fastsim/cc/congestion_control.hpp"

namespace fastsim::tcp {

std::span<const TcpSetting> tcp_settings() {
  static const TcpSetting kSettings[] = {
      {"mss", &TcpConfig::mss, "bytes", 1, 65535, 0, "payload bytes per segment (goodput counts these)"},
      {"packet_size", &TcpConfig::packet_size, "bytes", 1, 65535, 0, "on-the-wire bytes of a data packet (>= mss)"},
      {"ack_size", &TcpConfig::ack_size, "bytes", 1, 65535, 0, "on-the-wire bytes of an ACK"},
      {"delayed_ack", &TcpConfig::delayed_ack, "", 0, 0, 0, "ACK every second in-order segment"},
      {"delayed_ack_timeout", &TcpConfig::delayed_ack_timeout, "duration", 0, 0, 0, "delayed-ACK timer"},
      {"sack", &TcpConfig::sack, "", 0, 0, 0, "SACK-based recovery (RFC 6675) instead of NewReno (RFC 6582)"},
      {"newreno_impatient", &TcpConfig::newreno_impatient, "", 0, 0, 0,
       "NewReno re-arms the RTO only on the first partial ACK (RFC 6582 section 4); false: on every one"},
      {"dupack_threshold", &TcpConfig::dupack_threshold, "packets", 1, 1000, 0,
       "duplicate ACKs (or SACKed segments above a hole) that signal a loss"},
      {"min_rto", &TcpConfig::min_rto, "duration", 0, 0, 0,
       "minimum RTO: added as RFC 6298's G term (Linux), or a floor with min_rto_floor"},
      {"initial_rto", &TcpConfig::initial_rto, "duration", 0, 0, 0, "RTO before the first RTT sample"},
      {"max_rto", &TcpConfig::max_rto, "duration", 0, 0, 0, "RTO cap after backoff"},
      {"initial_window", &TcpConfig::initial_window, "packets", 1, 1e7, 0, "initial congestion window"},
      {"initial_ssthresh", &TcpConfig::initial_ssthresh, "packets", 2, cc::kInfiniteSsthresh,
       cc::kInfiniteSsthresh / 10, "initial slow-start threshold (default: infinite)"},
      {"receive_window", &TcpConfig::receive_window, "bytes", 0, 0, 0,
       "bytes the receiver advertises (default: unlimited)"},
      {"rto_granularity", &TcpConfig::rto_granularity, "duration", 0, 0, 0,
       "RTO timer tick: samples and RTO in whole ticks with ns-2's integer arithmetic; 0s: exact", true},
      {"min_rto_floor", &TcpConfig::min_rto_floor, "", 0, 0, 0,
       "min_rto floors srtt + 4 rttvar (RFC 6298 2.4, ns-2); false: added as Linux's G term"},
      {"rtt_every_ack", &TcpConfig::rtt_every_ack, "", 0, 0, 0,
       "the RTO estimator (srtt, rttvar) takes a sample from every ACK, as with TCP timestamps (RFC 7323, Linux); "
       "false: it times one segment per round trip and drops the timing at a retransmission (RFC 6298 with "
       "Karn's rule, ns-2 without timestamps). srtt is this estimator's; the latest, minimum and per-round RTTs "
       "the algorithms read take every ACK's sample either way"},
      {"send_jitter", &TcpConfig::send_jitter, "duration", 0, 0, 0,
       "host timing noise: mean of the exponential delay each data packet takes in the sender before its first "
       "hop, order kept (default 0s: off)",
       true},
      {"ack_coalescing", &TcpConfig::ack_coalescing, "duration", 0, 0, 0,
       "host timing noise: the receiver's ACKs leave in batches at the ticks of a free-running timer of this "
       "period with a random phase (default 0s: off)",
       true},
      {"local_congestion", &TcpConfig::local_congestion, "", 0, 0, 0,
       "a full transmit queue (the first hop, txqueuelen) keeps the packet in the sender and enters CWR once "
       "(Linux local congestion) instead of dropping it"},
      {"rack", &TcpConfig::rack, "", 0, 0, 0,
       "RACK-TLP loss detection (RFC 8985): time-based, finds lost retransmissions, tail loss probe; "
       "needs sack (ignored without it, as in Linux)"},
      {"prr", &TcpConfig::prr, "", 0, 0, 0,
       "Proportional Rate Reduction (RFC 6937, RFC 9937 reduction bound) paces the sends of fast recovery"},
      {"slow_start_after_idle", &TcpConfig::slow_start_after_idle, "", 0, 0, 0,
       "after an idle period longer than the RTO the window restarts (RFC 2861 as Linux's tcp_cwnd_restart)"},
      {"rto_keeps_recovery_ssthresh", &TcpConfig::rto_keeps_recovery_ssthresh, "", 0, 0, 0,
       "a timeout during fast recovery keeps the ssthresh the recovery set (Linux tcp_enter_loss); false: "
       "the algorithm's timeout response from the window the recovery left (ns-2)"},
      {"pacing", &TcpConfig::pacing, "", 0, 0, 0,
       "pace data packets at 2 x cwnd/srtt while cwnd < ssthresh/2, else 1.2 x cwnd/srtt (Linux fq with "
       "tcp_pacing_ss_ratio/ca_ratio), unless the algorithm sets its own rate (FAST, BBR)"},
      {"ecn", &TcpConfig::ecn, "", 0, 0, 0,
       "ECN (RFC 3168): data leave ECN-capable, the receiver echoes CE marks, the sender reduces its window once "
       "per window of ECE (dctcp turns it on for its flows)"},
  };
  return kSettings;
}

}  // namespace fastsim::tcp
