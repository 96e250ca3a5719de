// Per-packet event traces (trace/packet_trace.hpp, docs/outputs.md): the records agree
// with the link and flow counters of summary.json, each object's records are in time
// order, the file is the same byte for byte for the same seed, tracing changes nothing
// else in the outputs, bad keys are refused with their JSON path, the resource estimate
// counts the trace, and the pcap capture parses as classic pcap.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "../support/helpers.hpp"
#include "fastsim/run/resource_estimate.hpp"
#include "fastsim/trace/packet_trace.hpp"

namespace fs = std::filesystem;
using fastsim::testing::read_file;
using fastsim::testing::run_command;
using fastsim::trace::PacketEvent;
using nlohmann::json;

namespace {

// Two Reno flows through a 10 Mb/s bottleneck with a short buffer (queue drops) and
// random loss on the wire (lost records); 3 s.
std::string scenario_text(const std::string& output) {
  return R"({"name": "pt", "seed": 7, "duration": "3s", "sample_interval": "0.5s",
    "topology": {"dumbbell": {"bottleneck": {"rate": "10Mbps", "delay": "5ms", "buffer": "20pkt", "loss_rate": 0.002},
                              "access": {"rate": "100Mbps", "buffer": "1000pkt"}}},
    "flows": [{"id": "a", "rtt": "20ms"}, {"id": "b", "rtt": "40ms", "start": "0.5s"}],
    "monitor": ["a.access_src"])" +
         (output.empty() ? "" : ", \"output\": " + output) + "}";
}

const std::string kTraceAll =
    R"({"packet_trace": {"flows": ["a", "b"], "links": ["bottleneck", "a.access_src"], "pcap": ["bottleneck"]}})";

fs::path run_to(const std::string& name, const std::string& text) {
  const fs::path dir = fastsim::testing::temp_dir(name);
  std::ofstream(dir / "s.json") << text;
  const auto r = run_command(std::string(FASTSIM_BINARY) + " run " + (dir / "s.json").string() + " --out " +
                             (dir / "out").string() + " --quiet");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  return dir / "out";
}

using Counts = std::map<std::pair<uint32_t, PacketEvent>, uint64_t>;

}  // namespace

TEST_CASE("packet trace records agree with the counters and are time-ordered per object", "[outputs][packet_trace]") {
  const fs::path out = run_to("ptrace", scenario_text(kTraceAll));
  const auto t = fastsim::trace::read_packet_trace((out / "packet_trace.bin").string());
  CHECK(t.version == 1);
  CHECK(t.time_exponent == -12);
  REQUIRE(t.objects.size() == 4);
  CHECK(t.objects[0].name == "bottleneck");
  CHECK(t.objects[0].is_link);
  CHECK(t.objects[2].name == "a");
  CHECK_FALSE(t.objects[2].is_link);
  CHECK(t.flows == std::vector<std::string>{"a", "b"});
  REQUIRE(t.records.size() > 1000);

  Counts counts;
  std::map<uint32_t, int64_t> last;
  uint64_t retransmissions = 0, early = 0;
  for (const auto& r : t.records) {
    ++counts[{r.object, r.event}];
    CHECK(r.time_ps >= last[r.object]);  // non-decreasing per object
    last[r.object] = r.time_ps;
    CHECK(r.time_ps <= 3'000'000'000'000);
    if (r.event == PacketEvent::kSend && (r.flags & fastsim::trace::kFlagRetransmission) != 0)
      ++retransmissions;
    early += (r.flags & fastsim::trace::kFlagEarlyDrop) != 0 ? 1 : 0;
  }
  CHECK(early == 0);  // drop-tail
  const json summary = json::parse(read_file(out / "summary.json"));
  auto link = [&](const std::string& id) {
    for (const auto& l : summary["links"])
      if (l["id"] == id)
        return l;
    FAIL("no link " << id);
    return json();
  };
  for (uint32_t object : {0u, 1u}) {
    const json l = link(t.objects[object].name);
    INFO(t.objects[object].name);
    const uint64_t enq = counts[{object, PacketEvent::kEnqueue}], drop = counts[{object, PacketEvent::kDrop}];
    CHECK(drop == l["drops"].get<uint64_t>());
    CHECK(enq + drop == l["arrivals"].get<uint64_t>());
    CHECK(counts[{object, PacketEvent::kDeliver}] == l["departures"].get<uint64_t>());
    CHECK(counts[{object, PacketEvent::kLost}] == l["random_losses"].get<uint64_t>());
    const uint64_t deq = counts[{object, PacketEvent::kDequeue}];
    CHECK(deq <= enq);
    CHECK(deq >= counts[{object, PacketEvent::kDeliver}] + counts[{object, PacketEvent::kLost}]);
  }
  // The scenario has queue drops and random losses at the bottleneck.
  CHECK(counts[{0, PacketEvent::kDrop}] > 0);
  CHECK(counts[{0, PacketEvent::kLost}] > 0);
  uint64_t flow_retransmits = 0;
  for (uint32_t object : {2u, 3u}) {
    const json& f = summary["flows"][object - 2];
    REQUIRE(f["id"] == t.objects[object].name);
    CHECK(counts[{object, PacketEvent::kSend}] == f["data_packets_sent"].get<uint64_t>());
    CHECK(counts[{object, PacketEvent::kAck}] > 0);
    CHECK(counts[{object, PacketEvent::kAck}] <= f["acks_sent"].get<uint64_t>());
    CHECK(counts[{object, PacketEvent::kWindow}] > 10);
    flow_retransmits += f["retransmits"].get<uint64_t>();
  }
  CHECK(retransmissions == flow_retransmits);
  CHECK(retransmissions > 0);
  // The first window record is the initial window, with infinite ssthresh.
  const auto first_window = std::find_if(t.records.begin(), t.records.end(), [](const auto& r) {
    return r.event == PacketEvent::kWindow && r.object == 2;
  });
  REQUIRE(first_window != t.records.end());
  CHECK(first_window->seq == 10'000);
  CHECK(first_window->size == UINT32_MAX);
  CHECK(first_window->flow == 0);
  // One packet's records at a link: enqueue, then dequeue, then deliver or lost.
  std::map<std::tuple<uint32_t, uint64_t, uint8_t>, std::vector<PacketEvent>> first_copy;
  for (const auto& r : t.records) {
    if (r.object == 0 && r.flow == 0 && (r.flags & fastsim::trace::kFlagAck) == 0 &&
        (r.flags & fastsim::trace::kFlagRetransmission) == 0)
      first_copy[{r.flow, r.seq, r.flags}].push_back(r.event);
  }
  REQUIRE(first_copy.size() > 100);
  for (const auto& [key, events] : first_copy) {
    if (events.size() == 3) {
      CHECK(events[0] == PacketEvent::kEnqueue);
      CHECK(events[1] == PacketEvent::kDequeue);
      CHECK((events[2] == PacketEvent::kDeliver || events[2] == PacketEvent::kLost));
    }
  }
  fs::remove_all(out.parent_path());
}

TEST_CASE("packet traces are deterministic and change no other output", "[outputs][packet_trace][determinism]") {
  const fs::path a = run_to("ptrace-a", scenario_text(kTraceAll));
  const fs::path b = run_to("ptrace-b", scenario_text(kTraceAll));
  const fs::path off = run_to("ptrace-off", scenario_text(""));
  // Wall-clock fields, and the scenario echo (which holds "output").
  const std::vector<std::string> machine = {"wall_time_s", "peak_rss_mb", "scenario"};
  auto with = fastsim::testing::run_outputs(a, machine);
  const auto again = fastsim::testing::run_outputs(b, machine);
  CHECK(read_file(a / "packet_trace.bin") == read_file(b / "packet_trace.bin"));
  CHECK(read_file(a / "links" / "bottleneck.pcap") == read_file(b / "links" / "bottleneck.pcap"));
  auto without = fastsim::testing::run_outputs(off, machine);
  CHECK(without.count("packet_trace.bin") == 0);
  CHECK(without.count("links/bottleneck.pcap") == 0);
  // Everything else is the same.
  with.erase("packet_trace.bin");
  with.erase("links/bottleneck.pcap");
  CHECK(with.size() == without.size());
  for (const auto& [name, text] : without) {
    INFO(name);
    CHECK(with[name] == text);
  }
  // A run without the trace into the folder of a run with it removes its trace files.
  const auto r = run_command(std::string(FASTSIM_BINARY) + " run " + (off.parent_path() / "s.json").string() +
                             " --out " + a.string() + " --quiet");
  REQUIRE(r.exit_code == 0);
  CHECK_FALSE(fs::exists(a / "packet_trace.bin"));
  CHECK_FALSE(fs::exists(a / "links" / "bottleneck.pcap"));
  for (const auto& d : {a, b, off})
    fs::remove_all(d.parent_path());
}

TEST_CASE("the pcap capture is classic pcap with IPv4/TCP headers at transmission start", "[outputs][packet_trace]") {
  const fs::path out = run_to("ptrace-pcap", scenario_text(kTraceAll));
  const std::string p = read_file(out / "links" / "bottleneck.pcap");
  auto le32 = [&](size_t at) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i)
      v |= static_cast<uint32_t>(static_cast<uint8_t>(p[at + i])) << (8 * i);
    return v;
  };
  auto be = [&](size_t at, int n) {
    uint32_t v = 0;
    for (int i = 0; i < n; ++i)
      v = v << 8 | static_cast<uint8_t>(p[at + i]);
    return v;
  };
  REQUIRE(p.size() > 24);
  CHECK(le32(0) == 0xa1b23c4d);
  CHECK(le32(20) == 101);  // LINKTYPE_RAW
  const auto t = fastsim::trace::read_packet_trace((out / "packet_trace.bin").string());
  std::vector<int64_t> starts;  // dequeue records of the bottleneck, in ns
  for (const auto& r : t.records) {
    if (r.object == 0 && r.event == PacketEvent::kDequeue)
      starts.push_back(r.time_ps / 1000);
  }
  size_t at = 24, n = 0;
  uint64_t prev = 0;
  while (at < p.size()) {
    REQUIRE(at + 16 + 40 <= p.size());
    const uint64_t ns = uint64_t{le32(at)} * 1'000'000'000 + le32(at + 4);
    const uint32_t incl = le32(at + 8), orig = le32(at + 12);
    CHECK(ns >= prev);
    prev = ns;
    const size_t ip = at + 16;
    CHECK(be(ip, 1) == 0x45);
    CHECK(be(ip + 2, 2) == orig);  // IP total length = size on the wire
    CHECK(be(ip + 9, 1) == 6);     // TCP
    CHECK(incl == 20 + (be(ip + 32, 1) >> 4) * 4);
    REQUIRE(n < starts.size());
    CHECK(static_cast<int64_t>(ns) == starts[n]);
    at += 16 + incl;
    ++n;
  }
  // Every packet that started transmission up to the end of the run.
  CHECK(n == starts.size());
  fs::remove_all(out.parent_path());
}

TEST_CASE("packet_trace keys are checked with their JSON path", "[outputs][packet_trace][config]") {
  using fastsim::testing::scenario_from;
  auto error_of = [](const std::string& output) {
    try {
      (void)scenario_from(scenario_text(output));
    } catch (const fastsim::config::ScenarioError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(error_of(R"({"packet_trace": {"links": ["botleneck"]}})"),
             Catch::Contains("/output/packet_trace/links/0") && Catch::Contains("no link \"botleneck\"") &&
                 Catch::Contains("did you mean \"bottleneck\"") && Catch::Contains("a.access_src"));
  CHECK_THAT(error_of(R"({"packet_trace": {"flows": ["a", "c"]}})"),
             Catch::Contains("/output/packet_trace/flows/1") && Catch::Contains("the flows are: a, b"));
  CHECK_THAT(error_of(R"({"packet_trace": {"pcap": "bottleneck"}})"),
             Catch::Contains("/output/packet_trace/pcap") && Catch::Contains("expected an array of link ids"));
  CHECK_THAT(error_of(R"({"packet_trace": {"link": ["bottleneck"]}})"),
             Catch::Contains("/output/packet_trace/link") && Catch::Contains("allowed keys here: flows, links, pcap"));
  CHECK_THAT(error_of(R"({"packet_traces": {}})"), Catch::Contains("/output/packet_traces"));
  CHECK(error_of(kTraceAll) == "no error");
  CHECK(scenario_from(scenario_text("")).packet_trace.any() == false);
}

TEST_CASE("the resource estimate counts packet traces and refuses past the trace-bytes limit",
          "[outputs][packet_trace][limits]") {
  using fastsim::testing::scenario_from;
  const auto off = scenario_from(scenario_text(""));
  const auto on = scenario_from(scenario_text(kTraceAll));
  const auto e_off = fastsim::run::estimate_resources(off);
  const auto e_on = fastsim::run::estimate_resources(on);
  // The bottleneck forwards at most 10 Mb/s x 3 s = 2500 1500-byte packets, each three
  // 32-byte records and an 80-byte pcap record: at least 2500 x 176 bytes more.
  CHECK(e_on.trace_bytes >= e_off.trace_bytes + 2500 * 176);
  CHECK(e_on.trace_bytes <= e_off.trace_bytes + 50'000'000);
  // Memory: the 1 MiB buffer of packet_trace.bin, a 256 KiB pcap buffer, records held.
  CHECK(e_on.memory_bytes >= e_off.memory_bytes + (1 << 20) + (1 << 18));
  CHECK(e_on.memory_bytes <= e_off.memory_bytes + (4 << 20));
  CHECK(e_on.open_files == e_off.open_files + 2);
  // 10 Gb/s for 1000 s traced: past the default 2 GiB.
  const std::string big = R"({"name": "big", "duration": "1000s",
    "topology": {"dumbbell": {"bottleneck": {"rate": "10Gbps", "delay": "5ms", "buffer": "200pkt"},
                              "access": {"rate": "100Gbps", "buffer": "1000pkt"}}},
    "flows": [{"id": "a", "rtt": "20ms"}], "output": {"packet_trace": {"links": ["bottleneck"]}}})";
  const auto s = scenario_from(big);
  const auto issues = fastsim::run::check_limits(s, fastsim::run::estimate_resources(s));
  REQUIRE(issues.size() == 1);
  CHECK_THAT(issues[0].message, Catch::Contains("trace-bytes limit"));
  auto plain = s;
  plain.packet_trace = {};
  CHECK(fastsim::run::check_limits(plain, fastsim::run::estimate_resources(plain)).empty());
}

TEST_CASE("a run whose packet trace cannot be put in place fails whole and leaves no temporary",
          "[outputs][packet_trace][reliability]") {
  const fs::path dir = fastsim::testing::temp_dir("ptrace-fail");
  std::ofstream(dir / "s.json") << scenario_text(kTraceAll);
  fs::create_directories(dir / "out" / "packet_trace.bin" / "x");  // the rename into place fails
  const auto r = run_command(std::string(FASTSIM_BINARY) + " run " + (dir / "s.json").string() + " --out " +
                             (dir / "out").string() + " --quiet");
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.output, Catch::Contains("packet_trace.bin"));
  CHECK_FALSE(fs::exists(dir / "out" / "summary.json"));  // no complete-looking result
  for (const auto& e : fs::recursive_directory_iterator(dir / "out"))
    CHECK(e.path().extension() != ".tmp");
  fs::remove_all(dir);
}

TEST_CASE("the trace-bytes estimate covers the packet trace of small packets", "[outputs][packet_trace][limits]") {
  // 1000-byte packets: more packets than the link forwards at 1500 bytes (the packet
  // count's cap, which the trace estimate once used and fell short by a third).
  const std::string text = R"({"name": "small", "seed": 2, "duration": "3s", "sample_interval": "0.5s",
    "topology": {"dumbbell": {"bottleneck": {"rate": "10Mbps", "delay": "5ms", "buffer": "30pkt"},
                              "access": {"rate": "100Mbps", "buffer": "1000pkt"}}},
    "defaults": {"mss": 960, "packet_size": 1000},
    "flows": [{"id": "a", "rtt": "20ms"}, {"id": "b", "rtt": "30ms"}],
    "output": {"packet_trace": {"links": ["bottleneck"], "pcap": ["bottleneck"]}}})";
  const auto estimate = fastsim::run::estimate_resources(fastsim::testing::scenario_from(text));
  const fs::path out = run_to("ptrace-small", text);
  uintmax_t written = 0;
  for (const auto& e : fs::recursive_directory_iterator(out)) {
    if (e.is_regular_file() && e.path().filename() != "summary.json")
      written += e.file_size();
  }
  CHECK(fs::file_size(out / "links" / "bottleneck.pcap") > 3000 * 56);  // over 3000 packets captured
  CHECK(estimate.trace_bytes >= written);
  CHECK(estimate.trace_bytes <= 4 * written);
  fs::remove_all(out.parent_path());
}

TEST_CASE("the trace-bytes estimate covers the AQM and ECN columns of link traces", "[outputs][limits]") {
  // The same run with a drop-tail, a CoDel and a step-marking bottleneck: the estimate's
  // extra bytes for the extra columns (aqm_drops, sojourn_s, drop_prob; ce_marks) cover
  // what the bottleneck's trace really gains, and the whole estimate covers the outputs.
  const auto text = [](const std::string& queue) {
    return R"({"name": "columns", "seed": 3, "duration": "6s", "sample_interval": "0.05s",
      "topology": {"dumbbell": {"bottleneck": {"rate": "20Mbps", "delay": "5ms", "buffer": "100pkt")" +
           queue + R"(}, "access": {"rate": "1Gbps", "buffer": "1000pkt"}}},
      "defaults": {"stack": "linux", "ecn": true},
      "flows": [{"id": "a", "rtt": "20ms"}, {"id": "b", "rtt": "40ms"}]})";
  };
  struct Variant {
    std::string name, queue;
  };
  const Variant variants[] = {{"plain", ""},
                              {"codel", R"(, "queue": {"discipline": "codel"})"},
                              {"marking", R"(, "marking": {"threshold_pkts": 20})"}};
  // Bytes of the bottleneck trace's columns after the first `common` ones (with their commas).
  const auto extra_column_bytes = [](const fs::path& csv, size_t common) {
    std::ifstream in(csv);
    std::string line;
    double bytes = 0;
    while (std::getline(in, line)) {
      size_t pos = 0;
      for (size_t i = 0; i < common && pos != std::string::npos; ++i)
        pos = line.find(',', pos + (i == 0 ? 0 : 1));
      if (pos != std::string::npos)
        bytes += static_cast<double>(line.size() - pos);
    }
    return bytes;
  };
  std::map<std::string, std::pair<double, double>> seen;  // estimate, bytes of the extra columns
  size_t common = 0;
  for (const auto& v : variants) {
    const auto estimate = fastsim::run::estimate_resources(fastsim::testing::scenario_from(text(v.queue)));
    const fs::path out = run_to("columns-" + v.name, text(v.queue));
    uintmax_t written = 0;
    for (const auto& e : fs::recursive_directory_iterator(out)) {
      if (e.is_regular_file() && e.path().filename() != "summary.json")
        written += e.file_size();
    }
    INFO(v.name << ": estimate " << estimate.trace_bytes << ", written " << written);
    CHECK(estimate.trace_bytes >= static_cast<double>(written));
    CHECK(estimate.trace_bytes <= 4.0 * static_cast<double>(written));
    const fs::path csv = out / "links" / "bottleneck.csv";
    if (v.name == "plain") {
      std::ifstream in(csv);
      std::string header;
      std::getline(in, header);
      common = static_cast<size_t>(std::count(header.begin(), header.end(), ',')) + 1;
    }
    seen[v.name] = {estimate.trace_bytes, extra_column_bytes(csv, common)};
    fs::remove_all(out.parent_path());
  }
  for (const std::string name : {"codel", "marking"}) {
    const double estimated_extra = seen[name].first - seen["plain"].first;
    const double real_extra = seen[name].second;
    INFO(name << ": estimated extra " << estimated_extra << " bytes, the trace gained " << real_extra);
    CHECK(real_extra > 0);
    CHECK(estimated_extra >= real_extra);
    CHECK(estimated_extra <= 4 * real_extra);
  }
}

TEST_CASE("packet traces agree with the counters of RED and dummynet links, with UDP traffic",
          "[outputs][packet_trace]") {
  const std::string model =
      GENERATE(std::string(R"("red": {"min_th": 5, "max_th": 15})"), std::string(R"("dummynet": {"tick": "1ms"})"));
  INFO(model);
  const std::string text = R"({"name": "m", "seed": 4, "duration": "2s", "sample_interval": "0.5s",
    "topology": {"dumbbell": {"bottleneck": {"rate": "10Mbps", "delay": "5ms", "buffer": "30pkt", )" +
                           model + R"(},
                              "access": {"rate": "100Mbps", "buffer": "1000pkt"}}},
    "flows": [{"id": "a", "rtt": "20ms"}],
    "udp": [{"id": "u", "rate": "4Mbps", "packet_size": 1000, "rtt": "20ms"}],
    "output": {"packet_trace": {"links": ["bottleneck"], "pcap": ["bottleneck"]}}})";
  const fs::path out = run_to("ptrace-model", text);
  const auto t = fastsim::trace::read_packet_trace((out / "packet_trace.bin").string());
  REQUIRE(t.flows == std::vector<std::string>{"a", "u"});
  Counts counts;
  uint64_t early = 0, udp = 0;
  int64_t last = 0;
  for (const auto& r : t.records) {
    ++counts[{r.object, r.event}];
    CHECK(r.time_ps >= last);
    last = r.time_ps;
    early += (r.flags & fastsim::trace::kFlagEarlyDrop) != 0 ? 1 : 0;
    udp += r.flow == 1 ? 1 : 0;
  }
  const json summary = json::parse(read_file(out / "summary.json"));
  const json& l = summary["links"][0];
  REQUIRE(l["id"] == "bottleneck");
  CHECK(counts[{0, PacketEvent::kDrop}] == l["drops"].get<uint64_t>());
  CHECK(early == l["early_drops"].get<uint64_t>());
  if (model.find("red") != std::string::npos)
    CHECK(early > 0);
  CHECK(counts[{0, PacketEvent::kEnqueue}] + counts[{0, PacketEvent::kDrop}] == l["arrivals"].get<uint64_t>());
  CHECK(counts[{0, PacketEvent::kDeliver}] == l["departures"].get<uint64_t>());
  CHECK(udp > 1000);  // 4 Mb/s of 1000-byte packets for 2 s, three records each
  CHECK(l["drops"].get<uint64_t>() > 0);
  // The UDP source's packets are captured with an 8-byte UDP header (protocol 17).
  const std::string p = read_file(out / "links" / "bottleneck.pcap");
  size_t at = 24, udp_packets = 0;
  while (at + 16 <= p.size()) {
    const auto incl = static_cast<uint8_t>(p[at + 8]);
    if (static_cast<uint8_t>(p[at + 16 + 9]) == 17) {
      CHECK(incl == 28);
      ++udp_packets;
    }
    at += 16 + incl;
  }
  CHECK(at == p.size());
  CHECK(udp_packets > 500);
  fs::remove_all(out.parent_path());
}
