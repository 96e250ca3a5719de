// Scenario parsing and validation (see parse.hpp): the run's own keys, then one reader
// per entity (parse_parts.hpp: topology, flows, UDP sources, arrivals), the checks that
// need the whole scenario (link names, routes, arrival loads), and the resolved-scenario
// echo. JSON loading and --set overrides: json_input.cpp.
#include "fastsim/config/parse.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "parse_parts.hpp"

namespace fastsim::config {

ScenarioError::ScenarioError(Issues issues)
    : std::runtime_error([&] {
        std::string msg;
        for (const auto& i : issues)
          msg += (msg.empty() ? "" : "\n") + i.to_string();
        return msg;
      }()),
      issues_(std::move(issues)) {}

using nlohmann::json;
using namespace detail;

namespace {

/// name, description, seed, duration, sample_interval, warmup, metrics; returns the
/// duration if it is valid.
std::optional<Duration> read_run(Reader& top, Scenario& s, json& resolved) {
  s.name = top.string("name").value_or("scenario");
  s.description = top.string("description").value_or("");
  if (auto v = top.integer("seed"))
    s.seed = static_cast<uint64_t>(*v);
  auto duration = top.duration("duration", true, true);
  if (duration)
    s.duration = *duration;
  if (auto v = top.duration("sample_interval", false, true))
    s.sample_interval = *v;
  if (auto v = top.duration("warmup"))
    s.warmup = *v;
  if (duration && s.sample_interval > s.duration) {
    top.error("sample_interval", "sample_interval must not exceed duration");
  } else if (duration && s.duration.ps() / s.sample_interval.ps() > 10'000'000) {
    top.error("sample_interval", fmt::format("sample_interval {} gives more than 10^7 samples over {}",
                                             format_duration(s.sample_interval), format_duration(s.duration)));
  }
  if (duration && s.warmup >= s.duration)
    top.error("warmup", "warmup must be shorter than duration");
  if (const json* m = top.get("metrics")) {
    Reader mr(*m, "/metrics", top.issues(), "metrics");
    if (auto v = mr.number("convergence_tolerance"))
      s.convergence_tolerance = *v;
    mr.finish();
  }
  resolved["metrics"] = {{"convergence_tolerance", s.convergence_tolerance}};
  resolved["seed"] = s.seed;
  resolved["sample_interval"] = format_duration(s.sample_interval);
  resolved["warmup"] = format_duration(s.warmup);
  return duration;
}

/// "/defaults": the stack and the explicit TCP settings every sender starts from; the
/// echo shows them resolved (the stack's values where nothing was given).
TcpSettings read_defaults(Reader& top, json& resolved) {
  TcpSettings defaults;
  TcpSettings echo = resolve_tcp(defaults, defaults);
  if (const json* d = top.get("defaults")) {
    Reader dr(*d, "/defaults", top.issues(), "defaults");
    defaults.stack = read_stack(dr);
    read_tcp(dr, defaults);
    echo = resolve_tcp(defaults, defaults);
    check_tcp(dr, echo);
    dr.finish();
  }
  resolved["defaults"] = tcp_to_json(echo);
  return defaults;
}

/// "/monitor": extra links to trace.
void read_monitor(Reader& top, Scenario& s) {
  std::vector<std::string> ids;
  for (const LinkSpec& l : s.links)
    ids.push_back(l.link.id);
  for (const size_t i : read_ids(top, "monitor", ids, "link"))
    s.links[i].monitor = true;
}

/// Generated names (hosts and access links of the shorthand topologies) must not collide
/// with each other or with the scenario's own.
void check_link_ids(const Scenario& s, Issues& issues) {
  std::set<std::string> link_ids;
  for (const auto& l : s.links) {
    if (!link_ids.insert(l.link.id).second)
      issues.push_back({"/flows", fmt::format("two links are named \"{}\": rename the flow, UDP source or arrival "
                                              "whose id makes it",
                                              l.link.id)});
  }
}

/// Where the buffer of link `id` is configured in the document (the shorthand topologies
/// share one access model, and a parking lot may give one "hop" for all its hops).
std::string buffer_path(const json& doc, const TopologyRead& t, const std::string& id) {
  const bool access = id.find('.') != std::string::npos;  // "<flow>.access_src" and the like
  if (t.kind == TopologyRead::Kind::kDumbbell)
    return access ? "/topology/dumbbell/access/buffer" : "/topology/dumbbell/bottleneck/buffer";
  if (t.kind == TopologyRead::Kind::kParkingLot) {
    if (access)
      return "/topology/parking_lot/access/buffer";
    if (!doc["topology"]["parking_lot"].contains("hops"))
      return "/topology/parking_lot/hop/buffer";
    const std::string hop = id.substr(3, id.find('_') == std::string::npos ? std::string::npos : id.find('_') - 3);
    return fmt::format("/topology/parking_lot/hops/{}/buffer", std::stoul(hop) - 1);  // "hop<N>" is hops/N-1
  }
  const json& links = doc["topology"]["links"];
  for (size_t i = 0; i < links.size(); ++i) {
    const std::string declared = links[i].value("id", "");
    if (declared == id || declared + "_rev" == id)
      return fmt::format("/topology/links/{}/buffer", i);
  }
  return "/topology";
}

/// A buffer of bytes too small for one waiting packet of the largest size that crosses
/// its link is a buffer of zero (only the packet being serialized gets through): refused,
/// like "0pkt", naming the traffic whose packets it cannot hold.
void check_byte_buffers(const json& doc, const Scenario& s, const TopologyRead& t, Issues& issues) {
  std::vector<std::pair<uint32_t, const std::string*>> largest(s.links.size(), {0, nullptr});
  auto crosses = [&](const std::vector<size_t>& links, uint32_t bytes, const std::string& who) {
    for (size_t li : links) {
      if (bytes > largest[li].first)
        largest[li] = {bytes, &who};
    }
  };
  for (const FlowSpec& f : s.flows) {
    crosses(f.data_links, f.tcp.packet_size, f.id);
    crosses(f.ack_links, f.tcp.ack_size, f.id);
  }
  for (const UdpSpec& u : s.udp)
    crosses(u.path.data_links, u.packet_size, u.path.id);
  for (const ArrivalSpec& a : s.arrivals) {
    for (const FlowSpec& f : a.paths) {
      crosses(f.data_links, f.tcp.packet_size, f.id);
      crosses(f.ack_links, f.tcp.ack_size, f.id);
    }
  }
  std::set<std::string> reported;  // one message per buffer of the document
  for (size_t li = 0; li < s.links.size(); ++li) {
    const net::BufferLimit& b = s.links[li].link.buffer;
    const auto [bytes, who] = largest[li];
    if (b.packets != 0 || who == nullptr || b.bytes >= bytes)
      continue;
    const std::string path = buffer_path(doc, t, s.links[li].link.id);
    if (!reported.insert(path).second)
      continue;
    issues.push_back({path, fmt::format("a buffer of {} bytes on link \"{}\" holds no waiting packet of \"{}\" ({} "
                                        "bytes on the wire): it would drop every packet that has to wait, like a "
                                        "buffer of zero; give at least {}B, or packets like \"100pkt\"",
                                        b.bytes, s.links[li].link.id, *who, bytes, bytes)});
  }
}

}  // namespace

uint64_t traffic_replicas(const json& doc) {
  uint64_t n = 0;
  if (!doc.is_object())
    return n;
  for (const auto& [list, spec] : {std::pair{"flows", "flow"}, std::pair{"udp", "udp"}}) {
    const auto it = doc.find(list);
    if (it == doc.end() || !it->is_array())
      continue;
    const double most = find_key(object_spec(spec), "count")->max;  // (a count past it is reported)
    for (const json& entry : *it) {
      const auto count = entry.is_object() ? entry.find("count") : entry.end();
      const double c = count != entry.end() && count->is_number() ? count->get<double>() : 1.0;  // 5.0 reads as 5
      n += c >= 1 ? static_cast<uint64_t>(std::min(c, most)) : 1;
    }
  }
  return n;
}

Scenario parse_scenario(const json& doc, const Limits& limits) {
  Issues issues;
  Scenario s;
  s.limits = limits;
  Reader top(doc, "", issues, "scenario");
  if (!top.is_object())
    throw ScenarioError(issues);
  if (const uint64_t replicas = traffic_replicas(doc);
      replicas > limits.memory_bytes / kMemoryPerTrafficReplica) {
    throw ScenarioError(Issues{
        {"", fmt::format("the scenario has {} TCP flows and UDP sources (with their counts): at {} KiB each at least, "
                         "the run's memory would exceed the memory limit of {} (docs/limits.md; raise it "
                         "with --limit memory=VALUE or --limit memory=none)",
                         replicas, kMemoryPerTrafficReplica / 1024, format_bytes(limits.memory_bytes))}});
  }
  json resolved = doc;
  const std::optional<Duration> duration = read_run(top, s, resolved);
  TcpSettings defaults = read_defaults(top, resolved);
  TopologyRead topology = read_topology(top, s);
  TrafficContext traffic{.topology = topology,
                         .node_ids = {s.nodes.begin(), s.nodes.end()},
                         .duration = duration,
                         .seed = s.seed,
                         .defaults = std::move(defaults),
                         .ids = {}};
  read_flows(top, s, traffic, resolved);
  read_udp(top, s, traffic);
  read_arrivals(top, s, traffic);
  read_monitor(top, s);
  read_output(top, s);
  top.finish();
  if (issues.empty() && s.flows.empty() && s.udp.empty() && s.arrivals.empty())
    issues.push_back({"", "the scenario has no traffic: give at least one of \"flows\", \"udp\" or \"arrivals\""});
  if (issues.empty())
    check_link_ids(s, issues);
  if (issues.empty())  // routes only once the topology and flows are sound
    resolve_routes(s, issues);
  if (issues.empty())  // a buffer relative to a flow's BDP needs the flow's routes
    resolve_bdp_buffers(s, topology.bdp_buffers, issues, resolved);
  if (issues.empty())  // an arrival "load" gives a rate only once the bottleneck is known
    check_arrival_loads(s, issues);
  if (issues.empty())  // which packets cross a link is known once routes are
    check_byte_buffers(doc, s, topology, issues);
  if (!issues.empty())
    throw ScenarioError(issues);
  s.resolved = std::move(resolved);
  // Exact sizes: the expansion of `count` left the vectors doubled (at 10 000 flows, 65 536
  // link specs for 40 002 links, 7.7 MB unused, and 16 384 flow specs for 10 000).
  s.nodes.shrink_to_fit();
  s.links.shrink_to_fit();
  s.flows.shrink_to_fit();
  return s;
}

}  // namespace fastsim::config
