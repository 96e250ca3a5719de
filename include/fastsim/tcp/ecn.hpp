// The TCP end points' ECN state (RFC 3168 section 6.1, RFC 8257 section 3.2):
// - EcnSender: data segments of a flow with ECN on leave as ECT(0), retransmissions as
//   Not-ECT (RFC 3168 section 6.1.5); an ACK carrying ECE asks for a window reduction at
//   most once per window of data (no new reduction until snd_una reaches snd_nxt of the
//   previous one, Linux's high_seq), and the first new data segment after a reduction
//   carries CWR.
// - EcnEcho: the receiver's echo. RFC 3168: a CE arrival latches ECE on every ACK until a
//   data segment with CWR arrives (a segment with both CWR and CE latches it again).
//   Exact (DCTCP, RFC 8257 section 3.2): ECE on an ACK is the CE state of the latest
//   segment; when the CE state changes while a delayed ACK is held back, that ACK leaves at
//   once with the old state (so every ACK covers segments of one CE state).
#pragma once

#include <cstdint>

#include "fastsim/net/packet.hpp"

namespace fastsim::tcp {

class EcnSender {
 public:
  explicit EcnSender(bool on) : on_(on) {}
  [[nodiscard]] bool on() const { return on_; }
  /// The ECN byte of a data segment about to leave (consumes a pending CWR for new data).
  uint8_t data_ecn(bool retransmission) {
    if (!on_ || retransmission)
      return net::ecn::kNotEct;
    const uint8_t flags = cwr_pending_ ? net::ecn::kCwr : 0;
    cwr_pending_ = false;
    return static_cast<uint8_t>(net::ecn::kEct0 | flags);
  }
  /// An ACK with ECE arrived with the sender `open` (no recovery under way): true if the
  /// window is to be reduced now; then no other reduction until snd_una reaches `snd_nxt`.
  bool reduce_on_ece(bool open, uint64_t snd_una, uint64_t snd_nxt) {
    if (!on_ || !open || snd_una < high_)
      return false;
    high_ = snd_nxt;
    cwr_pending_ = true;
    return true;
  }

 private:
  bool on_;
  bool cwr_pending_ = false;
  uint64_t high_ = 0;
};

class EcnEcho {
 public:
  enum class Mode : uint8_t { kOff, kRfc3168, kExact };
  explicit EcnEcho(Mode mode) : mode_(mode) {}
  [[nodiscard]] Mode mode() const { return mode_; }
  /// Exact echo only: a segment with ECN byte `e` changes the CE state (a held-back ACK
  /// must leave first, with the old state).
  [[nodiscard]] bool changes_state(uint8_t e) const { return mode_ == Mode::kExact && ce(e) != ece_; }
  /// A data segment with ECN byte `e` arrived.
  void on_data(uint8_t e) {
    if (mode_ == Mode::kExact) {
      ece_ = ce(e);
    } else if (mode_ == Mode::kRfc3168) {
      if ((e & net::ecn::kCwr) != 0)
        ece_ = false;
      if (ce(e))
        ece_ = true;
    }
  }
  /// The ECN byte of the next ACK.
  [[nodiscard]] uint8_t ack_ecn() const { return ece_ ? net::ecn::kEce : 0; }

 private:
  static bool ce(uint8_t e) { return (e & net::ecn::kCodepointMask) == net::ecn::kCe; }
  Mode mode_;
  bool ece_ = false;
};

}  // namespace fastsim::tcp
