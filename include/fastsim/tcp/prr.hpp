// Proportional Rate Reduction (RFC 6937, with RFC 9937's reduction bound) for fast recovery: how many segments may
// leave on each ACK so that, by the end of recovery, the window has come down to ssthresh smoothly instead of in one
// step. The sender sets cwnd = pipe + sndcnt on each ACK that delivers data (as Linux's tcp_cwnd_reduction does), so
// the ordinary "pipe < cwnd" rule sends exactly sndcnt segments.
// - RecoverFS = snd.nxt - snd.una when recovery starts (RFC 6937's FlightSize).
// - pipe > ssthresh: sndcnt = ceil(prr_delivered * ssthresh / RecoverFS) - prr_out.
// - otherwise the conservative reduction bound (PRR-CRB, packet conservation), plus one
//   segment (the slow-start reduction bound, PRR-SSRB) only on a "safe" ACK, one that
//   advances snd.una and marks no further segment lost (RFC 9937, which obsoletes RFC
//   6937's unconditional SSRB; Linux's tcp_cwnd_reduction since 4.2):
//   sndcnt = min(ssthresh - pipe, max(prr_delivered - prr_out, DeliveredData) + [safe]).
//   Without that condition a recovery whose retransmissions keep being lost refills the
//   pipe to ssthresh on every ACK, so a window above what the path holds never drains.
// - sndcnt is never negative. The ACK that starts a recovery computes it before anything is
//   resent (prr_out = 0) and the sender raises it to at least 1 while prr_out is 0, so the
//   fast retransmission is one of the sndcnt segments (Linux's tcp_cwnd_reduction); every
//   send in recovery counts in prr_out.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace fastsim::tcp {

struct Prr {
  double recover_fs = 1;
  double delivered = 0;  ///< prr_delivered
  double out = 0;        ///< prr_out

  void start(uint64_t flight) {
    recover_fs = static_cast<double>(std::max<uint64_t>(flight, 1));
    delivered = 0;
    out = 0;
  }
  /// Segments that may be sent after an ACK that delivered `delivered_data` segments,
  /// with `pipe` in flight and the recovery's `ssthresh`; `safe_ack`: the ACK advanced
  /// snd.una and marked nothing lost.
  [[nodiscard]] double on_ack(uint64_t delivered_data, double pipe, double ssthresh, bool safe_ack) {
    const auto d = static_cast<double>(delivered_data);
    delivered += d;
    double sndcnt = 0;
    if (pipe > ssthresh) {
      sndcnt = std::ceil(delivered * ssthresh / recover_fs - 1e-9) - out;
    } else {
      const double limit = std::max(delivered - out, d) + (safe_ack ? 1 : 0);
      sndcnt = std::min(ssthresh - pipe, limit);
    }
    return std::max(sndcnt, 0.0);
  }
};

}  // namespace fastsim::tcp
