// TCP receiver: cumulative ACKs, SACK blocks, delayed ACK, send-time echo.
// Follows RFC 5681 section 4.2 and RFC 2018:
// - ACK every 2nd in-order full segment, or when the delayed-ACK timer (default 40 ms)
//   fires; at once on out-of-order data, on a duplicate, and on a segment that fills
//   (part of) a hole.
// - Each ACK echoes the send time (and retransmission flag) of the segment that
//   triggered it, so the sender gets exact RTT samples and can apply Karn's rule.
// - Out-of-order data is kept as ranges in a tree (receive_ranges.hpp: O(log holes) per
//   arrival); the first SACK block is the range holding the triggering segment, then the
//   highest others.
// - ECN (tcp/ecn.hpp): with `ecn` on, CE arrivals are echoed as ECE (RFC 3168, until
//   CWR; exactly per segment for algorithms that need it, DCTCP: RFC 8257 section 3.2).
// - ACKs leave through a PacketSink (the first link of the ACK route in a run, a
//   recorder in tests); the receiver keeps its own copy of the TcpConfig.
#pragma once

#include <cstdint>
#include <memory>

#include "fastsim/core/simulator.hpp"
#include "fastsim/net/packet_pool.hpp"
#include "fastsim/net/route.hpp"
#include "fastsim/tcp/ecn.hpp"
#include "fastsim/tcp/receive_ranges.hpp"
#include "fastsim/tcp/tcp_config.hpp"

namespace fastsim::tcp {

struct ReceiverCounters {
  uint64_t data_arrivals = 0;       ///< data packets that reached the receiver (incl. duplicates)
  uint64_t segments_delivered = 0;  ///< unique segments delivered in order to the application
  uint64_t acks_sent = 0;
};

class TcpReceiver final : public net::PacketSink {
 public:
  /// Sends ACKs (stamped with `ack_route`) into `out`, the first hop (which must outlive
  /// the receiver); `cfg` is copied.
  TcpReceiver(Simulator& sim, net::PacketPool& pool, const TcpConfig& cfg, const net::Route* ack_route,
              net::PacketSink& out);
  /// The same with settings shared with other connections (never null).
  TcpReceiver(Simulator& sim, net::PacketPool& pool, std::shared_ptr<const TcpConfig> cfg, const net::Route* ack_route,
              net::PacketSink& out);
  // A pending delayed ACK is cancelled with its event (flows that end during a run are destroyed).
  TcpReceiver(const TcpReceiver&) = delete;
  TcpReceiver& operator=(const TcpReceiver&) = delete;
  void receive(net::Packet* p) override;

  [[nodiscard]] const ReceiverCounters& counters() const { return counters_; }
  [[nodiscard]] uint64_t next_expected() const { return rcv_nxt_; }
  [[nodiscard]] const TcpConfig& config() const { return *cfg_; }

 private:
  void on_delack_timer();
  /// Sends an ACK in `reuse` (a packet of the receiver's, reset) or in one from the pool.
  void send_ack(net::Packet* reuse = nullptr);

  Simulator& sim_;
  net::PacketPool& pool_;
  const std::shared_ptr<const TcpConfig> cfg_;  // shared, as the sender's
  const net::Route* ack_route_;
  net::PacketSink& out_;
  MemberEvent<TcpReceiver, &TcpReceiver::on_delack_timer> delack_timer_{this};

  uint64_t rcv_nxt_ = 0;
  ReceiveRanges ranges_;                // out-of-order data above rcv_nxt_
  uint64_t last_ooo_seq_ = UINT64_MAX;  // the arrival that triggered this ACK, if out of order
  // reserve_seq() less the pending delayed-ACK timer's seq, taken when a segment is held
  // back while the timer is still pending for an acknowledged one (on_delack_timer()).
  uint32_t delack_seq_gap_ = 0;
  const uint32_t ack_size_;  // cfg.ack_size, and the two below: read per segment, kept out of cfg_
  Time delack_due_;          // when the held-back segment's ACK is due (unacked_segments_ > 0)
  Time echo_;
  bool echo_retransmission_ = false;
  EcnEcho ecn_;
  const bool sack_;
  const bool delayed_ack_;
  uint8_t unacked_segments_ = 0;  // 0, 1 (held back) or 2 (acknowledged at once)
  ReceiverCounters counters_;
};

}  // namespace fastsim::tcp
