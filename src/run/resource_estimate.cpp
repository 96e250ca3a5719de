// The resource estimate of a run (see resource_estimate.hpp). Deliberately simple and
// on the high side; docs/limits.md gives every formula.
#include "fastsim/run/resource_estimate.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "fastsim/config/units.hpp"
#include "fastsim/trace/atomic_file.hpp"

namespace fastsim::run {

namespace {

// Bytes per trace row (the widest rows seen, rounded up) and per object in memory.
constexpr double kFlowRow = 100;  // flows/<id>.csv, plus 10 per algorithm column
constexpr double kFlowColumn = 10;
constexpr double kLinkRow = 64;            // links/<id>.csv
constexpr double kLinkAqmColumns = 40;     // ... an AQM link's aqm_drops, sojourn_s, drop_prob
constexpr double kLinkMarkColumn = 12;     // ... a marking link's ce_marks
constexpr double kUdpRow = 60;             // udp/<id>.csv
constexpr double kArrivalRow = 60;         // arrivals/<id>.csv
constexpr double kArrivalFlowRow = 70;     // arrivals/<id>-flows.csv
constexpr double kPacketBytes = 1500;      // a typical packet on a link (memory, packet counts)
constexpr double kPacketMemory = 160;      // a pooled packet, its ring slot and growth slack
constexpr double kFlowMemory = 16 * 1024;  // sender, receiver, routes, results of one flow
constexpr double kLinkMemory = 4 * 1024;
constexpr double kCompletedFlowMemory = 200;        // a finished arriving flow's record (and JSON)
constexpr double kArrivingFlowMemory = 4 * 1024;    // an arriving flow in progress (measured: 2.9 KiB)
constexpr double kBaseMemory = 64.0 * 1024 * 1024;  // the program, the scenario, the output buffers

// Packet traces (trace/packet_trace.hpp): bytes per record written and held.
constexpr double kPacketRecord = 32;                // packet_trace.bin, per record
constexpr double kPcapRecord = 16 + 64;             // links/<id>.pcap, per packet (record header, IPv4, TCP + SACK)
constexpr double kPacketRecordMemory = 48;          // a record waiting to be due (deque slack)
constexpr double kCaptureMemory = 96;               // a captured packet waiting for its transmission start
constexpr double kPcapBuffer = 256 * 1024;          // the write buffer of a pcap capture
constexpr double kPacketTraceBuffer = 1024 * 1024;  // the write buffer of packet_trace.bin

double seconds_active(Duration start, std::optional<Duration> stop, Duration run) {
  const double end = stop ? std::min(stop->to_seconds(), run.to_seconds()) : run.to_seconds();
  return std::max(0.0, end - start.to_seconds());
}

uint64_t to_count(double x) {
  return x >= 1.8e19 ? UINT64_MAX : static_cast<uint64_t>(std::ceil(std::max(0.0, x)));
}

}  // namespace


namespace {

/// Events of the algorithm's own periodic timer over `active_s` seconds: FAST with a fixed
/// `update_interval` updates its window on a timer (every other round trip otherwise).
double algorithm_timer_events(const config::FlowSpec& f, double active_s) {
  if (f.algorithm != "fast")
    return 0;
  const double interval = f.params.get("update_interval");
  return interval > 0 ? active_s / interval : 0;
}

}  // namespace

ResourceEstimate estimate_resources(const config::Scenario& s) {
  const double duration = s.duration.to_seconds();
  const double samples = std::floor(static_cast<double>(s.duration.ps()) / static_cast<double>(s.sample_interval.ps()));
  const double tau = s.sample_interval.to_seconds();
  double packets = 0, trace = 0, memory = kBaseMemory, files = 0;
  const config::LinkSpec* bottleneck = nullptr;
  // Packets offered to each link (data and ACKs), each capped by what the link can
  // forward in the run: a TCP flow sends at most at the slowest rate on its path.
  std::vector<double> data(s.links.size(), 0), acks(s.links.size(), 0);
  auto offer = [&](const std::vector<size_t>& data_links, const std::vector<size_t>& ack_links, double bits,
                   double packet_bytes) {
    for (size_t l : data_links)
      data[l] += bits / (8 * packet_bytes);
    for (size_t l : ack_links)
      acks[l] += bits / (8 * packet_bytes);  // at most one ACK per data packet
  };
  auto path_rate = [&](const config::FlowSpec& f) {
    double r = 0;
    for (size_t l : f.data_links)
      r = r == 0 ? s.links[l].link.rate.to_double() : std::min(r, s.links[l].link.rate.to_double());
    return r;
  };
  std::vector<double> flow_packets;  // data packets of each flow (packet traces)
  for (const auto& f : s.flows) {
    // Retransmission timeouts: at most one per min(min_rto, initial_rto), each sending.
    const Duration rto = std::max(std::min(f.tcp.min_rto, f.tcp.initial_rto), Duration::picoseconds(1));
    packets += seconds_active(f.start, f.stop, s.duration) / rto.to_seconds();
    if (f.on_off)  // one event per on or off period, even when the period sends nothing
      packets += 2 * seconds_active(f.start, f.stop, s.duration) / (f.on_off->on + f.on_off->off).to_seconds();
    packets += algorithm_timer_events(f, seconds_active(f.start, f.stop, s.duration));
    const double bits = path_rate(f) * seconds_active(f.start, f.stop, s.duration);
    const double sent = f.size_bytes ? std::min(bits, 8.0 * *f.size_bytes) : bits;
    offer(f.data_links, f.ack_links, sent, f.tcp.mss + 40.0);
    flow_packets.push_back(sent / (8 * (f.tcp.mss + 40.0)));
  }
  for (const auto& u : s.udp)
    offer(u.path.data_links, {}, u.rate.to_double() * seconds_active(u.start, u.stop, s.duration), u.packet_size);
  for (size_t i = 0; i < s.links.size(); ++i) {
    const double rate = s.links[i].link.rate.to_double();
    const auto& aqm = s.links[i].link.aqm;
    if (aqm && aqm->kind == net::AqmKind::kPie)  // PIE's probability update every tupdate
      packets += duration / aqm->tupdate.to_seconds();
    packets +=
        std::min(data[i], rate * duration / (8 * kPacketBytes)) + std::min(acks[i], rate * duration / (8 * 40.0));
  }
  // Packet traces: three records per packet at a traced link (enqueue, dequeue, deliver)
  // and per data packet of a traced flow (send, ack, window); a pcap record per packet.
  // A link's packets here are all data packets offered to it (not capped at 1500-byte
  // packets at its rate: smaller packets are more records) and its ACKs.
  auto traced_packets = [&](size_t l) {
    return data[l] + std::min(acks[l], s.links[l].link.rate.to_double() * duration / (8 * 40.0));
  };
  for (size_t l : s.packet_trace.links)
    trace += traced_packets(l) * 3 * kPacketRecord;
  for (size_t f : s.packet_trace.flows)
    trace += flow_packets[f] * 3 * kPacketRecord;
  for (size_t l : s.packet_trace.pcap)
    trace += traced_packets(l) * kPcapRecord;
  files += static_cast<double>(s.packet_trace.pcap.size()) + (s.packet_trace.events() ? 1 : 0);
  memory += s.packet_trace.events() ? kPacketTraceBuffer : 0;
  // What each link can hold: its buffer, plus the packets on its wire. Links that only
  // one TCP flow uses (access links) together hold no more than the flows' windows,
  // which cannot grow far past what overflows the shared links: twice their buffers plus
  // their rate times the longest round trip (slow start overshoots by up to 2).
  std::vector<int> users(s.links.size(), 0);
  auto use = [&](const std::vector<size_t>& links, int n) {
    for (size_t l : links)
      users[l] += n;
  };
  double max_rtt = 0;
  for (const auto& f : s.flows) {
    use(f.data_links, 1);
    use(f.ack_links, 1);
    double rtt = 0;
    for (const auto* links : {&f.data_links, &f.ack_links}) {
      for (size_t l : *links)
        rtt += s.links[l].link.delay.to_seconds() + s.links[l].link.tick.to_seconds();
    }
    max_rtt = std::max(max_rtt, rtt);
  }
  for (const auto& u : s.udp)
    use(u.path.data_links, 2);  // a UDP source can fill any buffer on its path
  for (const auto& a : s.arrivals) {
    for (const auto& p : a.paths) {
      use(p.data_links, 2);
      use(p.ack_links, 2);
    }
  }
  double shared_held = 0, single_held = 0, windows = 0;
  for (size_t i = 0; i < s.links.size(); ++i) {
    const auto& l = s.links[i].link;
    const double buffer = l.buffer.packets != 0 ? static_cast<double>(l.buffer.packets) : l.buffer.bytes / 40.0;
    const double wire = l.rate.to_double() * (l.delay.to_seconds() + l.tick.to_seconds()) / (8 * kPacketBytes) + 1;
    memory += kLinkMemory;
    // A traced link holds the records (and captures) of the packets on it until they are due.
    const auto traced = [&](const std::vector<size_t>& v) { return std::find(v.begin(), v.end(), i) != v.end(); };
    if (traced(s.packet_trace.links))
      memory += (buffer + wire) * 3 * kPacketRecordMemory;
    if (traced(s.packet_trace.pcap))
      memory += (buffer + wire) * kCaptureMemory + kPcapBuffer;
    if (users[i] == 1) {
      single_held += buffer + wire;
    } else {
      shared_held += buffer + wire;
      windows += 2 * (buffer + l.rate.to_double() * max_rtt / (8 * kPacketBytes) + 1);
    }
  }
  memory += (shared_held + (windows > 0 ? std::min(single_held, windows) : single_held)) * kPacketMemory;
  for (const auto& l : s.links) {
    if (l.monitor) {
      trace += samples * (kLinkRow + (l.link.aqm ? kLinkAqmColumns : 0) + (l.link.marks_ecn() ? kLinkMarkColumn : 0));
      memory += samples * 4 * sizeof(double);
      files += 1;
    }
    if (l.link.id == s.bottleneck)
      bottleneck = &l;
  }
  const auto flows = static_cast<double>(s.flows.size());
  trace += flows * samples * (kFlowRow + kFlowColumn * 4);         // up to 4 algorithm columns
  memory += flows * (kFlowMemory + 2 * samples * sizeof(double));  // goodput and window samples
  files += flows;
  for (const auto& u : s.udp) {
    // Every UDP packet is an event at its source, even the ones its first link drops.
    packets += u.rate.to_double() * seconds_active(u.start, u.stop, s.duration) / (8.0 * u.packet_size);
    if (u.type == config::UdpSpec::Type::kParetoOnOff)  // one event per on or off period
      packets += 2 * seconds_active(u.start, u.stop, s.duration) / (u.mean_on + u.mean_off).to_seconds();
    memory += kFlowMemory;
  }
  std::vector<size_t> udp_entries;
  for (const auto& u : s.udp)
    udp_entries.push_back(u.path.json_index);
  std::sort(udp_entries.begin(), udp_entries.end());
  const auto udp_traces =
      static_cast<double>(std::unique(udp_entries.begin(), udp_entries.end()) - udp_entries.begin());
  trace += udp_traces * samples * kUdpRow;
  files += udp_traces;
  for (const auto& a : s.arrivals) {
    const double capacity = bottleneck ? bottleneck->link.rate.to_double() : 0;
    const double mean_size = a.size.mean_bytes();
    const double rate = a.flows_per_s ? *a.flows_per_s : (a.load ? *a.load * capacity / (8 * mean_size) : 0);
    const double arrivals = rate * seconds_active(a.start, a.stop, s.duration);
    // Every arriving flow's bytes cross its path (the longest of the arrival's paths) once.
    size_t hops = 0;
    for (const auto& p : a.paths)
      hops = std::max(hops, p.data_links.size() + p.ack_links.size());
    packets += arrivals * std::ceil(mean_size / a.paths.front().tcp.mss) * static_cast<double>(hops);
    // An algorithm's periodic timer, as if every arriving flow lived to the end of the run.
    double timer_events = 0;
    for (const auto& p : a.paths)
      timer_events = std::max(timer_events, algorithm_timer_events(p, seconds_active(a.start, {}, s.duration)));
    packets += arrivals * timer_events;
    memory += arrivals * kCompletedFlowMemory;
    trace += samples * kArrivalRow;
    files += a.traces ? 2 : 1;
    if (a.traces && capacity > 0) {
      // Flows in progress per sample (M/G/1 processor sharing: load / (1 - load), the
      // load capped at 0.99), and every flow at least once.
      // Overloaded (load > 1), the flows in progress pile up: on average half the excess
      // arrivals of the run.
      const double raw_load = rate * 8 * mean_size / capacity;
      const double load = std::min(raw_load, 0.99);
      const double piled = raw_load > 1 ? arrivals * (1 - 1 / raw_load) / 2 : 0;
      const double in_progress = std::max({load / (1 - load), rate * tau, piled});
      trace += (samples * in_progress + arrivals) * kArrivalFlowRow;
    }
    const double offered = rate * 8 * mean_size / std::max(capacity, 1.0);
    memory += kFlowMemory * std::max(1.0, offered * 100);
    // Overloaded, the flows in progress pile up to the excess over the bottleneck's capacity
    // by the end of the run (measured at load 10: 0.925 of the arrivals, against 0.9 here).
    if (offered > 1)
      memory += arrivals * (1 - 1 / offered) * kArrivingFlowMemory;
  }
  ResourceEstimate e;
  e.packets = to_count(packets);
  e.trace_bytes = to_count(trace);
  e.memory_bytes = to_count(memory + trace::AtomicFile::kDefaultBuffer * std::min(files, 32.0) + (1 << 20));
  // The summary, the trace files kept open (beyond open_trace_files_allowed() none is), stdio.
  e.open_files = to_count(4 + (files > static_cast<double>(trace::open_trace_files_allowed()) ? 1 : files));
  return e;
}

config::Issues check_limits(const config::Scenario& s, const ResourceEstimate& e) {
  config::Issues issues;
  const config::Limits& l = s.limits;
  auto over = [&](const char* name, uint64_t estimate, uint64_t limit, const std::string& what,
                  const std::string& shown_estimate, const std::string& shown_limit) {
    if (estimate > limit) {
      issues.push_back({"", fmt::format("{} is estimated at {}, over the {} limit of {} (docs/limits.md; raise it "
                                        "with --limit {}=VALUE or --limit {}=none)",
                                        what, shown_estimate, name, shown_limit, name, name)});
    }
  };
  over("memory", e.memory_bytes, l.memory_bytes, "the run's memory", config::format_bytes(e.memory_bytes),
       config::format_bytes(l.memory_bytes));
  over("trace-bytes", e.trace_bytes, l.trace_bytes, "the size of the trace files", config::format_bytes(e.trace_bytes),
       config::format_bytes(l.trace_bytes));
  over("packets", e.packets, l.packets, "the number of packets", fmt::format("{}", e.packets),
       fmt::format("{}", l.packets));
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && e.open_files > rl.rlim_cur) {
    issues.push_back({"", fmt::format("the run needs about {} open files, over the limit of {} (ulimit -n)",
                                      e.open_files, static_cast<uint64_t>(rl.rlim_cur))});
  }
  return issues;
}

std::string describe(const ResourceEstimate& e) {
  return fmt::format("packets ~{:.3g}, trace files ~{}, memory ~{}, open files ~{}", static_cast<double>(e.packets),
                     config::format_bytes(e.trace_bytes), config::format_bytes(e.memory_bytes), e.open_files);
}

void enforce_limits(const config::Scenario& scenario) {
  if (auto issues = check_limits(scenario, estimate_resources(scenario)); !issues.empty())
    throw config::ScenarioError(std::move(issues));
}

}  // namespace fastsim::run
