// Classic pcap capture of a link with synthetic IPv4/TCP/UDP headers (see pcap_writer.hpp).
#include "fastsim/trace/pcap_writer.hpp"

#include <algorithm>
#include <array>

#include "fastsim/trace/packet_trace.hpp"

namespace fastsim::trace {

namespace {

constexpr size_t kBufferBytes = 256 * 1024;
constexpr uint32_t kNet = 0x0A000000;  // 10.0.0.0
constexpr uint32_t kUnknownSender = 0x0AFFFFFD;
constexpr uint32_t kUnknownReceiver = 0x0AFFFFFE;
constexpr uint16_t kReceiverPort = 5001;

/// Bytes of one record being built: little-endian for pcap's own fields, big-endian
/// (network order) for the headers.
struct Bytes {
  std::array<uint8_t, 128> b{};  // record header 16, IPv4 20, TCP up to 48
  size_t n = 0;
  void le32(uint32_t v) {
    for (int i = 0; i < 4; ++i)
      b[n++] = static_cast<uint8_t>(v >> (8 * i));
  }
  void be16(uint16_t v) {
    b[n++] = static_cast<uint8_t>(v >> 8);
    b[n++] = static_cast<uint8_t>(v);
  }
  void be32(uint32_t v) {
    be16(static_cast<uint16_t>(v >> 16));
    be16(static_cast<uint16_t>(v));
  }
  void u8(uint8_t v) { b[n++] = v; }
};

uint16_t ip_checksum(const uint8_t* h, size_t len) {
  uint32_t sum = 0;
  for (size_t i = 0; i + 1 < len; i += 2)
    sum += static_cast<uint32_t>(h[i] << 8 | h[i + 1]);
  while (sum >> 16)
    sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<uint16_t>(~sum);
}

}  // namespace

PcapWriter::PcapWriter(std::string path) : file_(std::move(path), kBufferBytes) {
  Bytes h;
  h.le32(kMagicNanoseconds);
  h.b[h.n++] = 2;  // version 2.4, little-endian
  h.b[h.n++] = 0;
  h.b[h.n++] = 4;
  h.b[h.n++] = 0;
  h.le32(0);  // thiszone
  h.le32(0);  // sigfigs
  h.le32(kSnapLength);
  h.le32(kLinkTypeRaw);
  file_.write(reinterpret_cast<const char*>(h.b.data()), h.n);
}

void PcapWriter::write(Time t, const net::Packet& p, FlowInfo flow) {
  const bool known = flow.index != kNoFlow;
  const uint32_t sender = known ? kNet + ((2 * flow.index + 1) & 0xFFFFFF) : kUnknownSender;
  const uint32_t receiver = known ? kNet + ((2 * flow.index + 2) & 0xFFFFFF) : kUnknownReceiver;
  const auto sender_port = static_cast<uint16_t>(10000 + (known ? flow.index % 50000 : 0));
  const size_t sacks = flow.udp || !p.is_ack ? 0 : p.num_sacks;
  const size_t l4 = flow.udp ? 8 : 20 + (sacks > 0 ? 4 + 8 * sacks : 0);
  const size_t captured = 20 + l4;
  const uint64_t ns = static_cast<uint64_t>(t.ps()) / 1000;
  Bytes r;
  r.le32(static_cast<uint32_t>(ns / 1'000'000'000));
  r.le32(static_cast<uint32_t>(ns % 1'000'000'000));
  r.le32(static_cast<uint32_t>(captured));
  r.le32(std::max<uint32_t>(p.size_bytes, static_cast<uint32_t>(captured)));
  // IPv4
  const size_t ip = r.n;
  r.u8(0x45);
  r.u8(0);
  r.be16(static_cast<uint16_t>(std::min<uint32_t>(std::max<uint32_t>(p.size_bytes, captured), 0xFFFF)));
  r.be16(0);       // identification
  r.be16(0x4000);  // don't fragment
  r.u8(64);        // TTL
  r.u8(flow.udp ? 17 : 6);
  r.be16(0);  // checksum, below
  r.be32(p.is_ack ? receiver : sender);
  r.be32(p.is_ack ? sender : receiver);
  const uint16_t sum = ip_checksum(&r.b[ip], 20);
  r.b[ip + 10] = static_cast<uint8_t>(sum >> 8);
  r.b[ip + 11] = static_cast<uint8_t>(sum);
  const uint16_t src_port = p.is_ack ? kReceiverPort : sender_port;
  const uint16_t dst_port = p.is_ack ? sender_port : kReceiverPort;
  r.be16(src_port);
  r.be16(dst_port);
  if (flow.udp) {
    r.be16(static_cast<uint16_t>(std::min<uint32_t>(std::max<uint32_t>(p.size_bytes, 28) - 20, 0xFFFF)));
    r.be16(0);
  } else {
    const uint64_t mss = flow.mss;
    r.be32(p.is_ack ? 0 : static_cast<uint32_t>(p.seq * mss));  // sequence numbers wrap modulo 2^32
    r.be32(p.is_ack ? static_cast<uint32_t>(p.seq * mss) : 0);
    r.u8(static_cast<uint8_t>((l4 / 4) << 4));
    r.u8(0x10);  // ACK
    r.be16(65535);
    r.be16(0);  // checksum (not computed: no payload is captured)
    r.be16(0);  // urgent pointer
    if (sacks > 0) {
      r.u8(1);
      r.u8(1);
      r.u8(5);
      r.u8(static_cast<uint8_t>(2 + 8 * sacks));
      for (size_t i = 0; i < sacks; ++i) {
        const net::SackBlock b = p.sack(i);
        r.be32(static_cast<uint32_t>(b.start * mss));
        r.be32(static_cast<uint32_t>(b.end * mss));
      }
    }
  }
  file_.write(reinterpret_cast<const char*>(r.b.data()), r.n);
}

}  // namespace fastsim::trace
