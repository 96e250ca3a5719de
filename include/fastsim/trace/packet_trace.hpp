// Per-packet event traces: a net::PacketObserver that writes the events of the traced
// links and senders as fixed-size little-endian records to one binary file
// (packet_trace.bin; the format, byte by byte, is in docs/outputs.md), and captures
// chosen links as classic pcap files (pcap_writer.hpp).
// - Events: at a link, enqueue or drop (at the packet's arrival), dequeue (transmission
//   start), deliver (arrival at the far end) or lost (random loss on the wire, when it
//   would have arrived); at a sender, send (a data packet to the first hop), ack (an ACK
//   processed) and window (cwnd and ssthresh, at each change).
// - Order: each traced object's records are in non-decreasing time in the file; the
//   objects' records are interleaved in chunks, not merged (the reader sorts stably by
//   time). A link reports a packet when it enters, with its future times
//   (net/link.hpp), so each link keeps its not-yet-due records in three time-ordered
//   queues (arrivals, starts, arrivals at the far end: each FIFO, so each sorted) and
//   writes them merged once no later entry can precede them: every later packet enters
//   at or after the latest arrival time. At equal times: enqueue/drop, then dequeue, then
//   deliver/lost, so one packet's records come in that order. A pcap capture is held
//   back the same way, so it holds exactly the packets whose transmission started.
// - At the end of the run, records after its end (packets still on a link) are left out:
//   the records agree with the link counters (drop records = drops, deliver records =
//   departures, lost records = random losses, enqueue + drop records = arrivals).
// - Writes go through AtomicFile (a 1 MB buffer; a failed run leaves no complete-looking
//   file); the memory held is the records of packets on the traced links.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "fastsim/net/packet_observer.hpp"
#include "fastsim/net/route.hpp"
#include "fastsim/trace/atomic_file.hpp"
#include "fastsim/trace/pcap_writer.hpp"

namespace fastsim::trace {

enum class PacketEvent : uint8_t {
  kEnqueue = 0,
  kDrop = 1,
  kDequeue = 2,
  kDeliver = 3,
  kLost = 4,
  kSend = 5,
  kAck = 6,
  kWindow = 7,
};

/// Bits of PacketRecord::flags.
enum PacketFlag : uint8_t { kFlagRetransmission = 1, kFlagAck = 2, kFlagEarlyDrop = 4 };

inline constexpr uint32_t kNoFlow = UINT32_MAX;
inline constexpr uint32_t kPacketTraceVersion = 1;
inline constexpr size_t kPacketRecordBytes = 32;
inline constexpr char kPacketTraceMagic[8] = {'F', 'S', 'P', 'K', 'T', 'T', 'R', '\0'};

/// One record (docs/outputs.md). A window record: `seq` = cwnd in 1/1000 packet,
/// `size` = ssthresh in 1/1000 packet (UINT32_MAX: infinite or beyond).
struct PacketRecord {
  int64_t time_ps = 0;
  uint64_t seq = 0;
  uint32_t object = 0;
  uint32_t flow = kNoFlow;
  uint32_t size = 0;
  PacketEvent event = PacketEvent::kEnqueue;
  uint8_t flags = 0;
  friend bool operator==(const PacketRecord&, const PacketRecord&) = default;
};

/// What the trace is about: its objects (links and senders, the `object` of a record),
/// its flows (the `flow` of a record) and which routes belong to which flow.
struct PacketTraceLayout {
  struct Object {
    std::string name;
    bool is_link = true;
    uint32_t flow = kNoFlow;  ///< a sender's flow
  };
  struct Flow {
    std::string name;
    uint32_t mss = 1448;  ///< bytes per segment (pcap sequence numbers)
    bool udp = false;
  };
  std::vector<Object> objects;
  std::vector<Flow> flows;
  std::unordered_map<const net::Route*, uint32_t> flow_of_route;  ///< data and ACK routes
  /// pcap captures: the object (a link) and the file of each.
  std::vector<std::pair<uint32_t, std::string>> pcap;
};

class PacketTraceWriter final : public net::PacketObserver {
 public:
  /// Opens `path` (empty: no event file, pcap only) and every pcap file of `layout`.
  PacketTraceWriter(const std::string& path, PacketTraceLayout layout);
  PacketTraceWriter(const PacketTraceWriter&) = delete;
  PacketTraceWriter& operator=(const PacketTraceWriter&) = delete;
  ~PacketTraceWriter() override;

  /// Whether object `object` (a link) has its events traced (else it only feeds a pcap).
  void set_events(uint32_t object, bool on) { links_.at(object).events = on; }

  void link_admitted(uint32_t object, const net::Packet& p, Time in, Time tx_start, Time out, bool lost) override;
  void link_dropped(uint32_t object, const net::Packet& p, Time in, bool early) override;
  void sender_sent(uint32_t object, const net::Packet& p, Time now) override;
  void sender_ack(uint32_t object, const net::Packet& p, Time now) override;
  void sender_window(uint32_t object, double cwnd_pkts, double ssthresh_pkts, Time now) override;

  /// Writes what is due up to `end` (the run's end; later records are left out) and
  /// closes every file (every write is done: only renames are left).
  void finish(Time end);
  /// Renames every file into place; returns their paths.
  std::vector<std::string> commit();
  /// Records written so far.
  [[nodiscard]] uint64_t records() const { return records_; }

 private:
  struct LinkQueues {
    bool events = false;
    std::deque<PacketRecord> in, start, out;           // each in non-decreasing time
    std::deque<std::pair<Time, net::Packet>> capture;  // pcap: packets by transmission start
  };
  [[nodiscard]] uint32_t flow_of(const net::Packet& p) const;
  [[nodiscard]] PacketRecord record(const net::Packet& p, uint32_t object, Time t, PacketEvent e) const;
  void emit(const PacketRecord& r);
  /// Writes the link's queued records with time <= `until`, merged.
  void release(LinkQueues& q, Time until);
  /// Captures the link's packets whose transmission starts at or before `until`.
  void capture(uint32_t object, LinkQueues& q, Time until);

  PacketTraceLayout layout_;
  std::unique_ptr<AtomicFile> file_;
  std::unordered_map<uint32_t, LinkQueues> links_;
  std::unordered_map<uint32_t, std::unique_ptr<PcapWriter>> pcap_;
  uint64_t records_ = 0;
};

/// The header and the records of a packet trace file (tests and tools).
struct PacketTraceFile {
  uint32_t version = 0;
  int32_t time_exponent = 0;
  std::vector<PacketTraceLayout::Object> objects;
  std::vector<std::string> flows;
  std::vector<PacketRecord> records;
};
/// Reads a packet trace file; throws std::runtime_error naming the file if it is not one.
PacketTraceFile read_packet_trace(const std::string& path);

}  // namespace fastsim::trace
