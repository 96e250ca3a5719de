// A link captured as a classic libpcap file (nanosecond time stamps, magic 0xa1b23c4d,
// LINKTYPE_RAW: each record starts with an IPv4 header), so tcpdump, tshark and
// Wireshark open it. Packets are captured at their transmission start on the link; only
// synthetic headers are stored (the captured length is the headers', the original
// length the packet's size on the wire). The headers (docs/outputs.md):
// - addresses from the flow index i: sender 10.0.0.0 + 2i + 1, receiver 10.0.0.0 + 2i + 2
//   (modulo 2^24), flows unknown to the trace 10.255.255.253 -> 10.255.255.254;
//   ports 10000 + i mod 50000 at the sender, 5001 at the receiver;
// - TCP: data with sequence number segment x MSS (initial sequence number 0) and the
//   ACK flag; ACKs with acknowledgement number cumulative ACK x MSS and up to three
//   SACK blocks (option 5, edges in bytes) behind two NOPs; no checksum (0);
// - UDP sources: an 8-byte UDP header.
// The IPv4 header checksum is computed; the IP total length is the packet's size.
#pragma once

#include <cstdint>
#include <string>

#include "fastsim/core/time.hpp"
#include "fastsim/net/packet.hpp"
#include "fastsim/trace/atomic_file.hpp"

namespace fastsim::trace {

class PcapWriter {
 public:
  static constexpr uint32_t kMagicNanoseconds = 0xa1b23c4d;
  static constexpr uint32_t kLinkTypeRaw = 101;
  static constexpr uint32_t kSnapLength = 128;
  /// Creates `path` (atomically, see AtomicFile) and writes the global header.
  explicit PcapWriter(std::string path);
  /// The flow of `p`: its index (kNoFlow if unknown), MSS and whether it is UDP.
  struct FlowInfo {
    uint32_t index;
    uint32_t mss;
    bool udp;
  };
  /// Captures `p` at `t`.
  void write(Time t, const net::Packet& p, FlowInfo flow);
  void close() { file_.close(); }
  void commit() { file_.commit(); }
  [[nodiscard]] std::string path() const { return file_.path(); }

 private:
  AtomicFile file_;
};

}  // namespace fastsim::trace
