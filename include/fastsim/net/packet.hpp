// A packet on the wire: a small POD taken from a pool and passed by pointer,
// never copied per hop (htsim style). It carries its flow's precomputed route and
// a hop index, so forwarding is an array lookup.
// - Sequence numbers count segments (packets of one MSS), not bytes.
// - ACKs carry the cumulative ACK, up to 3 SACK blocks and the echo of the send
//   time of the segment that triggered them (exact RTT samples, like TCP timestamps).
#pragma once

#include <array>
#include <cstdint>

#include "fastsim/core/time.hpp"

namespace fastsim::net {

struct Route;

struct SackBlock {
  uint64_t start = 0;  ///< first segment of the block
  uint64_t end = 0;    ///< one past the last segment
};

struct Packet {
  Packet* next = nullptr;        ///< intrusive FIFO link (queue, delay line, free list)
  const Route* route = nullptr;  ///< path from source to sink
  uint32_t size_bytes = 0;       ///< on-the-wire size
  uint16_t hop = 0;              ///< index into route->links of the link it is on
  bool is_ack = false;
  bool retransmission = false;  ///< data: this copy is a retransmission; ack: echo of that flag
  uint64_t seq = 0;             ///< data: segment number; ack: next expected segment (cumulative)
  Time echo;                    ///< data: send time; ack: send time of the segment that triggered it
  uint64_t trigger_seq = 0;     ///< ack: segment that triggered it when out of order, else UINT64_MAX
  uint8_t num_sacks = 0;
  std::array<SackBlock, 3> sacks{};
};

}  // namespace fastsim::net
