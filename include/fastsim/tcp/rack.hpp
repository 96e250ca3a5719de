// RACK loss detection (RFC 8985 section 6) for one TCP sender: a segment is lost once a
// segment sent after it has been delivered and more than RACK.rtt + reo_wnd has passed
// since it was sent. Because the test is on transmit times, it also finds a lost
// retransmission (a retransmission older than a later-delivered segment) without an RTO.
// - Per-segment transmit times live in a ring parallel to the sender's flag ring (same
//   size and index). Loss detection walks the outstanding segments in transmit order
//   (Linux's tsorted_sent_queue) from the oldest and stops at the first one not sent
//   before RACK.xmit_ts. That order is two merged streams: new data leaves in sequence
//   order, so the segments never resent are walked upward from snd_una (a monotone
//   pointer: a segment passed is SACKed, lost or resent, and stays so); retransmissions
//   are kept in a queue in transmit order with snd_nxt at their send, which places them
//   between the new segments (a new segment left before a retransmission exactly when it
//   is below that snd_nxt). Queue entries that are stale (delivered, already marked lost
//   or sent again since) are dropped as the walk meets them: O(1) amortized per ACK, no
//   per-segment queue work for new data, and no allocation once the queue has grown to
//   the retransmissions outstanding.
// - reo_wnd (RFC 8985 6.2 step 4): 0 while no reordering has been seen and the sender is
//   in recovery or has dupack_threshold segments SACKed; otherwise min_RTT / 4, capped at
//   SRTT. The DSACK-driven growth of reo_wnd is not modelled (the receiver sends no DSACK),
//   so the multiplier stays 1. min_RTT is the minimum over the connection (no window).
// - The reordering timer is armed for the oldest segment that is not yet lost (RFC 8985
//   arms it for the latest; firing for the oldest first and re-arming marks every segment
//   at the same instant as the RFC's single timer would or earlier).
#pragma once

#include <algorithm>
#include <boost/circular_buffer.hpp>
#include <cstdint>
#include <optional>
#include <vector>

#include "fastsim/core/time.hpp"

namespace fastsim::tcp {

class Rack {
 public:
  explicit Rack(size_t ring_size) : xmit_(ring_size), mask_(ring_size - 1), retx_(kInitialQueue) {}

  /// The flag ring grew to `n` (a power of two): move the live times [una, nxt) along.
  void resize_ring(size_t n, uint64_t una, uint64_t nxt);
  /// New segment `seq` (the sender's snd_nxt before it) leaves now.
  void on_new_data(uint64_t seq, Time now) { xmit_[seq & mask_] = now; }
  /// Segment `seq` is resent now, with `snd_nxt` the next new segment.
  void on_retransmit(uint64_t seq, Time now, uint64_t snd_nxt) {
    xmit_[seq & mask_] = now;
    if (retx_.full())
      retx_.set_capacity(2 * retx_.capacity());
    retx_.push_back({seq, now, snd_nxt});
  }
  [[nodiscard]] Time xmit_ts(uint64_t seq) const { return xmit_[seq & mask_]; }

  /// An ACK is about to report its newly delivered segments: reordering (step 3) is a
  /// segment delivered below the highest one delivered by an earlier ACK, so the segments
  /// of one ACK may be reported in any order (as Linux's tcp_sacktag compares with the
  /// highest SACKed sequence before the ACK).
  void begin_ack() { fack_before_ack_ = fack_; }
  /// RFC 8985 6.2 steps 1-3 for one newly delivered (cumulatively ACKed or SACKed)
  /// segment; `retransmitted`: it was ever resent, `echo`: the ACK's echoed send time.
  void on_delivered(uint64_t seq, bool retransmitted, Time echo, Time now) {
    const Time sent = xmit_ts(seq);
    const Duration rtt = now - sent;
    if (!retransmitted) {
      min_rtt_ = min_rtt_ ? std::min(*min_rtt_, rtt) : rtt;
      if (seq + 1 < fack_before_ack_)
        reordering_seen_ = true;  // RFC 8985 6.2 step 3: delivered below RACK.fack, never resent
    } else if (echo < sent || (min_rtt_ && rtt < *min_rtt_)) {
      return;  // RFC 8985 6.2 step 2: the ACK is (likely) for an earlier copy
    }
    fack_ = std::max(fack_, seq + 1);
    advanced_ = true;
    rack_rtt_ = rtt;
    if (!have_xmit_ || sent_after(sent, seq, rack_xmit_, rack_end_)) {
      rack_xmit_ = sent;
      rack_end_ = seq;
      have_xmit_ = true;
    }
  }
  /// Whether on_delivered moved RACK forward since the last detect_loss.
  [[nodiscard]] bool advanced() const { return advanced_; }

  /// RFC 8985 6.2 steps 4-5 over the outstanding segments [una, nxt). `fresh(seq)` says
  /// whether a segment of that range was never resent and is neither SACKed nor marked
  /// lost; `live(seq)` whether a resent one is still outstanding and neither SACKed nor
  /// marked lost since; `lose(seq)` marks a segment lost. Returns the time until the
  /// oldest unexpired segment sent before RACK.xmit_ts becomes lost (the reordering
  /// timer), or nullopt.
  template <class Fresh, class Live, class Lose>
  std::optional<Duration> detect_loss(Time now, bool reo_wnd_zero, std::optional<Duration> srtt, uint64_t una,
                                      uint64_t nxt, Fresh fresh, Live live, Lose lose) {
    advanced_ = false;
    if (!have_xmit_)
      return std::nullopt;
    std::optional<Duration> reo;  // computed once, when a segment was sent before RACK.xmit_ts
    uint64_t o = std::max(orig_, una);
    for (;;) {
      while (o < nxt && !fresh(o))
        ++o;
      orig_ = o;
      while (!retx_.empty() && (xmit_ts(retx_.front().seq) != retx_.front().at || !live(retx_.front().seq)))
        retx_.pop_front();  // stale
      // The older of the two heads: the new segment o left before the retransmission at
      // the queue's head exactly when o was below snd_nxt then.
      const bool take_new = o < nxt && (retx_.empty() || o < retx_.front().nxt);
      if (!take_new && retx_.empty())
        return std::nullopt;
      const uint64_t seq = take_new ? o : retx_.front().seq;
      const Time at = take_new ? xmit_ts(o) : retx_.front().at;
      if (!sent_after(rack_xmit_, rack_end_, at, seq))
        return std::nullopt;
      if (!reo)
        reo = reo_wnd(reo_wnd_zero, srtt);
      const Duration remaining = (at + rack_rtt_ + *reo) - now;
      if (remaining > Duration::zero())
        return remaining;
      if (take_new)
        orig_ = ++o;
      else
        retx_.pop_front();
      lose(seq);
    }
  }
  /// After a retransmission timeout every outstanding un-SACKed segment is lost: the
  /// walk restarts at `nxt` (new data) and with the retransmissions that follow.
  void on_timeout(uint64_t nxt) {
    retx_.clear();
    orig_ = nxt;
  }
  [[nodiscard]] bool reordering_seen() const { return reordering_seen_; }
  [[nodiscard]] std::optional<Duration> min_rtt() const { return min_rtt_; }

 private:
  static constexpr size_t kInitialQueue = 8;  // doubles when full
  struct Retransmission {
    uint64_t seq;
    Time at;
    uint64_t nxt;  // the sender's snd_nxt when it left
  };
  /// RFC 8985 RACK_sent_after: segment 1 was sent after segment 2.
  static bool sent_after(Time t1, uint64_t seq1, Time t2, uint64_t seq2) {
    return t1 > t2 || (t1 == t2 && seq1 > seq2);
  }
  [[nodiscard]] Duration reo_wnd(bool zero_unless_reordering, std::optional<Duration> srtt) const;

  std::vector<Time> xmit_;
  uint64_t mask_;
  uint64_t orig_ = 0;  // segments below it that were never resent are SACKed or lost
  boost::circular_buffer<Retransmission> retx_;
  bool have_xmit_ = false;
  bool advanced_ = false;
  bool reordering_seen_ = false;
  Time rack_xmit_;                // RACK.xmit_ts
  uint64_t rack_end_ = 0;         // RACK.end_seq (the segment's sequence number here)
  Duration rack_rtt_;             // RACK.rtt
  uint64_t fack_ = 0;             // RACK.fack: one past the highest delivered segment
  uint64_t fack_before_ack_ = 0;  // RACK.fack before the ACK being processed
  std::optional<Duration> min_rtt_;
};

}  // namespace fastsim::tcp
