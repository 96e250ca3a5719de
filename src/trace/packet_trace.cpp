// Per-packet event traces (see packet_trace.hpp): records, the per-link merge of
// future-stamped records, the file header, and the reader.
#include "fastsim/trace/packet_trace.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include <fmt/format.h>

namespace fastsim::trace {

namespace {

constexpr size_t kBufferBytes = size_t{1} << 20;
constexpr int32_t kTimeExponent = -12;  // Time counts picoseconds

void put(std::string& out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i)
    out.push_back(static_cast<char>(v >> (8 * i)));
}

uint64_t get(const std::string& in, size_t at, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i)
    v |= static_cast<uint64_t>(static_cast<uint8_t>(in[at + i])) << (8 * i);
  return v;
}

/// A window in 1/1000 packet, saturated at UINT32_MAX (seq) or kept as is.
uint64_t milli(double pkts, uint64_t max) {
  const double m = std::round(pkts * 1000.0);
  return !(m < static_cast<double>(max)) ? max : static_cast<uint64_t>(std::max(0.0, m));
}

std::string header(const PacketTraceLayout& layout) {
  std::string h(kPacketTraceMagic, sizeof kPacketTraceMagic);
  put(h, kPacketTraceVersion, 4);
  put(h, 0, 4);  // header size, below
  put(h, kPacketRecordBytes, 4);
  put(h, static_cast<uint32_t>(kTimeExponent), 4);
  put(h, layout.objects.size(), 4);
  put(h, layout.flows.size(), 4);
  auto name = [&](const std::string& s) {
    const size_t n = std::min<size_t>(s.size(), 0xFFFF);
    put(h, n, 2);
    h.append(s, 0, n);
  };
  for (const auto& o : layout.objects) {
    put(h, o.is_link ? 0 : 1, 1);
    put(h, 0, 1);
    name(o.name);
  }
  for (const auto& f : layout.flows)
    name(f.name);
  h.resize((h.size() + 7) / 8 * 8, '\0');
  const size_t size = h.size();
  for (int i = 0; i < 4; ++i)
    h[12 + i] = static_cast<char>(size >> (8 * i));
  return h;
}

}  // namespace

PacketTraceWriter::PacketTraceWriter(const std::string& path, PacketTraceLayout layout) : layout_(std::move(layout)) {
  if (!path.empty()) {
    file_ = std::make_unique<AtomicFile>(path, kBufferBytes);
    const std::string h = header(layout_);
    file_->write(h.data(), h.size());
  }
  for (uint32_t i = 0; i < layout_.objects.size(); ++i) {
    if (layout_.objects[i].is_link)
      links_[i].events = true;
  }
  for (const auto& [object, file] : layout_.pcap) {
    links_[object];
    pcap_[object] = std::make_unique<PcapWriter>(file);
  }
}

PacketTraceWriter::~PacketTraceWriter() = default;

uint32_t PacketTraceWriter::flow_of(const net::Packet& p) const {
  const auto it = layout_.flow_of_route.find(p.route);
  return it == layout_.flow_of_route.end() ? kNoFlow : it->second;
}

PacketRecord PacketTraceWriter::record(const net::Packet& p, uint32_t object, Time t, PacketEvent e) const {
  PacketRecord r;
  r.time_ps = t.ps();
  r.seq = p.seq;
  r.object = object;
  r.flow = flow_of(p);
  r.size = p.size_bytes;
  r.event = e;
  r.flags = static_cast<uint8_t>((p.retransmission ? kFlagRetransmission : 0) | (p.is_ack ? kFlagAck : 0));
  return r;
}

void PacketTraceWriter::emit(const PacketRecord& r) {
  char b[kPacketRecordBytes] = {};
  auto le = [&](size_t at, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i)
      b[at + i] = static_cast<char>(v >> (8 * i));
  };
  le(0, static_cast<uint64_t>(r.time_ps), 8);
  le(8, r.seq, 8);
  le(16, r.object, 4);
  le(20, r.flow, 4);
  le(24, r.size, 4);
  le(28, static_cast<uint8_t>(r.event), 1);
  le(29, r.flags, 1);
  file_->write(b, sizeof b);
  ++records_;
}

void PacketTraceWriter::release(LinkQueues& q, Time until) {
  const int64_t t = until.ps();
  for (;;) {
    // The earliest due front; at equal times arrivals, then starts, then far ends.
    std::deque<PacketRecord>* best = nullptr;
    for (auto* d : {&q.in, &q.start, &q.out}) {
      if (!d->empty() && d->front().time_ps <= t && (best == nullptr || d->front().time_ps < best->front().time_ps))
        best = d;
    }
    if (best == nullptr)
      return;
    emit(best->front());
    best->pop_front();
  }
}

void PacketTraceWriter::capture(uint32_t object, LinkQueues& q, Time until) {
  PcapWriter& w = *pcap_.at(object);
  while (!q.capture.empty() && q.capture.front().first <= until) {
    const auto& [t, p] = q.capture.front();
    const uint32_t flow = flow_of(p);
    const bool known = flow != kNoFlow;
    w.write(t, p, {flow, known ? layout_.flows[flow].mss : 1448, known && layout_.flows[flow].udp});
    q.capture.pop_front();
  }
}

void PacketTraceWriter::link_admitted(uint32_t object, const net::Packet& p, Time in, Time tx_start, Time out,
                                      bool lost) {
  LinkQueues& q = links_.at(object);
  if (pcap_.contains(object)) {
    q.capture.emplace_back(tx_start, p);
    capture(object, q, in);
  }
  if (!q.events)
    return;
  q.in.push_back(record(p, object, in, PacketEvent::kEnqueue));
  q.start.push_back(record(p, object, tx_start, PacketEvent::kDequeue));
  q.out.push_back(record(p, object, out, lost ? PacketEvent::kLost : PacketEvent::kDeliver));
  release(q, in);  // every later packet enters at or after `in`
}

void PacketTraceWriter::link_dropped(uint32_t object, const net::Packet& p, Time in, bool early) {
  LinkQueues& q = links_.at(object);
  if (!q.events)
    return;
  PacketRecord r = record(p, object, in, PacketEvent::kDrop);
  r.flags |= early ? kFlagEarlyDrop : 0;
  q.in.push_back(r);
  release(q, in);
}

void PacketTraceWriter::sender_sent(uint32_t object, const net::Packet& p, Time now) {
  emit(record(p, object, now, PacketEvent::kSend));
}

void PacketTraceWriter::sender_ack(uint32_t object, const net::Packet& p, Time now) {
  emit(record(p, object, now, PacketEvent::kAck));
}

void PacketTraceWriter::sender_window(uint32_t object, double cwnd_pkts, double ssthresh_pkts, Time now) {
  PacketRecord r;
  r.time_ps = now.ps();
  r.seq = milli(cwnd_pkts, UINT64_MAX);
  r.object = object;
  r.flow = layout_.objects[object].flow;
  r.size = static_cast<uint32_t>(milli(ssthresh_pkts, UINT32_MAX));
  r.event = PacketEvent::kWindow;
  emit(r);
}

void PacketTraceWriter::finish(Time end) {
  // Links in object order, so the file does not depend on the hash map's order.
  std::vector<uint32_t> objects;
  for (const auto& [object, q] : links_)
    objects.push_back(object);
  std::sort(objects.begin(), objects.end());
  for (uint32_t object : objects) {
    LinkQueues& q = links_.at(object);
    release(q, end);
    if (pcap_.contains(object))
      capture(object, q, end);
    q = LinkQueues{};
  }
  if (file_)
    file_->close();
  for (uint32_t object : objects) {
    if (auto it = pcap_.find(object); it != pcap_.end())
      it->second->close();
  }
}

std::vector<std::string> PacketTraceWriter::commit() {
  std::vector<std::string> paths;
  if (file_) {
    file_->commit();
    paths.push_back(file_->path());
  }
  for (const auto& [object, file] : layout_.pcap) {
    pcap_.at(object)->commit();
    paths.push_back(file);
  }
  return paths;
}

PacketTraceFile read_packet_trace(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  const std::string in((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  auto bad = [&](const std::string& why) {
    return std::runtime_error(fmt::format("{}: not a fastsim packet trace: {}", path, why));
  };
  if (!f.good() && !f.eof())
    throw bad("cannot read it");
  if (in.size() < 32 || in.compare(0, 8, std::string(kPacketTraceMagic, 8)) != 0)
    throw bad("no magic");
  PacketTraceFile t;
  t.version = static_cast<uint32_t>(get(in, 8, 4));
  const auto header_size = static_cast<size_t>(get(in, 12, 4));
  const auto record_size = static_cast<size_t>(get(in, 16, 4));
  t.time_exponent = static_cast<int32_t>(get(in, 20, 4));
  const auto objects = get(in, 24, 4);
  const auto flows = get(in, 28, 4);
  if (record_size != kPacketRecordBytes || header_size > in.size() || (in.size() - header_size) % record_size != 0)
    throw bad("bad sizes");
  size_t at = 32;
  auto name = [&] {
    if (at + 2 > header_size)
      throw bad("truncated name table");
    const auto n = static_cast<size_t>(get(in, at, 2));
    if (at + 2 + n > header_size)
      throw bad("truncated name table");
    std::string s = in.substr(at + 2, n);
    at += 2 + n;
    return s;
  };
  for (uint64_t i = 0; i < objects; ++i) {
    if (at + 2 > header_size)
      throw bad("truncated object table");
    const bool is_link = in[at] == 0;
    at += 2;
    t.objects.push_back({name(), is_link, kNoFlow});
  }
  for (uint64_t i = 0; i < flows; ++i)
    t.flows.push_back(name());
  for (size_t r = header_size; r < in.size(); r += record_size) {
    PacketRecord rec;
    rec.time_ps = static_cast<int64_t>(get(in, r, 8));
    rec.seq = get(in, r + 8, 8);
    rec.object = static_cast<uint32_t>(get(in, r + 16, 4));
    rec.flow = static_cast<uint32_t>(get(in, r + 20, 4));
    rec.size = static_cast<uint32_t>(get(in, r + 24, 4));
    rec.event = static_cast<PacketEvent>(in[r + 28]);
    rec.flags = static_cast<uint8_t>(in[r + 29]);
    t.records.push_back(rec);
  }
  return t;
}

}  // namespace fastsim::trace
