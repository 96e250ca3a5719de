// A packet on the wire: a small POD taken from a pool and passed by pointer,
// never copied per hop (htsim style). It carries its flow's precomputed route and
// a hop index, so forwarding is an array lookup.
// - Sequence numbers count segments (packets of one MSS), not bytes.
// - ACKs carry the cumulative ACK, up to 3 SACK blocks and the echo of the send
//   time of the segment that triggered them (exact RTT samples, like TCP timestamps).
// - One cache line (64 bytes): SACK blocks and the triggering segment are stored as
//   32-bit offsets above the cumulative ACK (they always lie above it, within a window).
//   At 10 Gb/s x 100 ms some 170 000 packets are in flight, so the size decides whether
//   they stay in the last-level cache.
// - ECN (RFC 3168) takes one byte of the padding: the IP codepoint (Not-ECT, ECT(0),
//   ECT(1), CE) in its low two bits and the TCP ECE / CWR flags above them.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>

#include "fastsim/core/time.hpp"

namespace fastsim::net {

struct Route;

struct SackBlock {
  uint64_t start = 0;  ///< first segment of the block
  uint64_t end = 0;    ///< one past the last segment
  friend bool operator==(const SackBlock&, const SackBlock&) = default;
};

/// The ECN byte of a packet (Packet::ecn): IP codepoint in bits 0-1, TCP flags in bits 2-3.
namespace ecn {
inline constexpr uint8_t kNotEct = 0;
inline constexpr uint8_t kEct1 = 1;
inline constexpr uint8_t kEct0 = 2;
inline constexpr uint8_t kCe = 3;
inline constexpr uint8_t kCodepointMask = 3;
inline constexpr uint8_t kEce = 4;  ///< ACK: ECN-Echo (RFC 3168 section 6.1.3)
inline constexpr uint8_t kCwr = 8;  ///< data: Congestion Window Reduced (RFC 3168 section 6.1.2)
}  // namespace ecn

struct alignas(64) Packet {
  static constexpr uint64_t kNoTrigger = UINT64_MAX;
  static constexpr size_t kMaxSacks = 3;

  const Route* route = nullptr;  ///< path from source to sink
  uint64_t seq = 0;              ///< data: segment number; ack: next expected segment (cumulative)
  Time echo;                     ///< data: send time; ack: send time of the segment that triggered it
  uint32_t size_bytes = 0;       ///< on-the-wire size
  uint16_t hop = 0;              ///< index into route->links of the link it is on
  bool is_ack = false;
  bool retransmission = false;  ///< data: this copy is a retransmission; ack: echo of that flag
  uint8_t num_sacks = 0;
  uint8_t ecn = ecn::kNotEct;  ///< ECN codepoint and ECE/CWR flags (namespace ecn)

  /// The packet is ECN-capable (ECT(0), ECT(1) or already CE): a queue may mark it.
  [[nodiscard]] bool ecn_capable() const { return (ecn & ecn::kCodepointMask) != ecn::kNotEct; }
  [[nodiscard]] bool ce() const { return (ecn & ecn::kCodepointMask) == ecn::kCe; }
  /// Sets the CE codepoint (keeps the TCP flags).
  void mark_ce() { ecn = static_cast<uint8_t>(ecn | ecn::kCe); }

  /// ack: the segment that triggered it when out of order, else kNoTrigger.
  [[nodiscard]] uint64_t trigger_seq() const { return trigger_offset_ == 0 ? kNoTrigger : seq + trigger_offset_; }
  /// SACK block `i` < num_sacks of an ACK.
  [[nodiscard]] SackBlock sack(size_t i) const { return {seq + sacks_[i].start, seq + sacks_[i].end}; }
  /// Sets the trigger and SACK blocks of an ACK whose `seq` is already set; every one lies above `seq`.
  void set_ack_options(uint64_t trigger, std::span<const SackBlock> blocks) {
    trigger_offset_ = trigger == kNoTrigger ? 0 : offset(trigger);
    num_sacks = static_cast<uint8_t>(blocks.size() < kMaxSacks ? blocks.size() : kMaxSacks);
    for (size_t i = 0; i < num_sacks; ++i)
      sacks_[i] = {offset(blocks[i].start), offset(blocks[i].end)};
  }

 private:
  struct Offsets {
    uint32_t start = 0;
    uint32_t end = 0;
  };
  [[nodiscard]] uint32_t offset(uint64_t s) const {
    if (s <= seq || s - seq > UINT32_MAX)
      throw std::logic_error("SACK information must lie within 2^32 segments above the cumulative ACK");
    return static_cast<uint32_t>(s - seq);
  }
  uint32_t trigger_offset_ = 0;  // trigger_seq - seq, 0 if none
  Offsets sacks_[kMaxSacks]{};
};
static_assert(sizeof(Packet) == 64);

}  // namespace fastsim::net
