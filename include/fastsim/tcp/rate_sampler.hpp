// Delivery-rate estimation for one TCP sender (draft-cheng-iccrg-delivery-rate-estimation,
// Linux net/ipv4/tcp_rate.c): the rate at which the network delivered the packets acked
// by an ACK, measured over the newest delivered packet's flight.
// - Per connection: C.delivered (packets delivered so far), C.delivered_time (when the
//   last ACK that delivered data arrived), C.first_sent_time (send time of the packet
//   whose delivery was acked most recently), C.app_limited (0, or the delivered count at
//   which the application-limited phase ends).
// - Per transmission (new or retransmitted) of a segment, its send time and a snapshot
//   of those four, in a ring indexed by sequence number, parallel to the sender's flag
//   ring (same size, grown with it): no allocation once the ring fits the window. When
//   nothing is in flight, C.first_sent_time and C.delivered_time restart at the send.
// - Each packet an ACK delivers (cumulatively, unless SACKed before, or newly SACKed)
//   competes to be the sample's reference: the one with the largest snapshot of
//   C.delivered, ties going to the one sent last (Linux 5.18+ tcp_skb_sent_after; 4.9
//   kept the first). Its snapshot gives prior_delivered, prior_time, is_app_limited and
//   the send interval (its send time - its first_sent_time).
// - The sample: delivered = C.delivered - prior_delivered over interval = max(send
//   interval, now - prior_time); invalid (rate 0) without a reference or when the
//   interval is shorter than the minimum RTT (an ACK compression artefact; Linux).
// - rtt is now - the reference's send time, absent if the reference was retransmitted.
// - Not modelled: the duplicate-ACK "delivered" counting of non-SACK (Reno emulation)
//   connections (without SACK only cumulative ACKs deliver) and the losses count.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "fastsim/cc/congestion_control.hpp"
#include "fastsim/core/time.hpp"

namespace fastsim::tcp {

class RateSampler {
 public:
  /// `ring`: the sender's ring size (a power of two).
  explicit RateSampler(size_t ring);
  /// The sender's ring grew to `n` (a power of two); keeps the entries of [una, nxt).
  void resize_ring(size_t n, uint64_t una, uint64_t nxt);
  /// Segment `seq` leaves now; `nothing_in_flight`: no packet was outstanding before it.
  void on_transmit(uint64_t seq, Time now, bool nothing_in_flight, bool retransmission);
  /// Segment `seq` was delivered by the ACK being processed (at most once per segment).
  void on_delivered(uint64_t seq);
  /// Something was delivered since the last sample.
  [[nodiscard]] bool pending() const { return acked_ > 0; }
  /// The sample of the ACK being processed (after every on_delivered of that ACK);
  /// resets the per-ACK state. The reference stays valid until the next call.
  const cc::RateSample& generate(Time now, std::optional<Duration> min_rtt);
  /// The application (or the algorithm: ProbeRTT) limits sending: samples of packets
  /// sent until the `in_flight` packets now outstanding are delivered are app-limited.
  void mark_app_limited(uint64_t in_flight) { app_limited_ = delivered_ + in_flight > 0 ? delivered_ + in_flight : 1; }
  [[nodiscard]] uint64_t delivered() const { return delivered_; }
  /// The sample generate() returned last.
  [[nodiscard]] const cc::RateSample& last_sample() const { return sample_; }
  [[nodiscard]] bool app_limited() const { return app_limited_ != 0; }

 private:
  struct PacketState {
    Time sent;
    Time first_sent;      // C.first_sent_time when it was sent
    Time delivered_time;  // C.delivered_time when it was sent
    uint64_t delivered = 0;
    bool app_limited = false;
    bool retransmitted = false;
  };

  std::vector<PacketState> ring_;
  uint64_t mask_;
  uint64_t delivered_ = 0;
  Time delivered_time_ = Time::zero();
  Time first_sent_time_ = Time::zero();
  uint64_t app_limited_ = 0;

  // The ACK being processed.
  uint32_t acked_ = 0;
  bool have_ref_ = false;
  PacketState ref_;
  cc::RateSample sample_;
};

}  // namespace fastsim::tcp
