// The typed scenario: what a scenario file says, parsed once, with defaults filled in
// and shorthands (dumbbell, count) expanded into explicit nodes, links and flows.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fastsim/cc/params.hpp"
#include "fastsim/config/limits.hpp"
#include "fastsim/core/size_distribution.hpp"
#include "fastsim/core/time.hpp"
#include "fastsim/net/link_config.hpp"
#include "fastsim/tcp/tcp_config.hpp"

namespace fastsim::config {

struct LinkSpec {
  net::LinkConfig link;
  std::string from;
  std::string to;
  bool monitor = false;
};

/// An application that alternates between sending (on) and pausing (off), from its start.
struct OnOffPeriods {
  Duration on;
  Duration off;
};

struct FlowSpec {
  std::string id;
  size_t json_index = 0;  ///< index in the scenario's "flows" array (before `count` expansion)
  std::string algorithm;
  cc::ParamValues params;
  std::string src;
  std::string dst;
  std::vector<std::string> route;  ///< node list src ... dst (given, or the shortest path)
  std::vector<size_t> data_links;  ///< indices into Scenario::links along `route`
  std::vector<size_t> ack_links;   ///< indices into Scenario::links of the shortest path back
  Duration start;
  std::optional<Duration> stop;
  std::optional<uint64_t> size_bytes;  ///< finite flow; absent = bulk
  std::optional<OnOffPeriods> on_off;  ///< absent: sends whenever the window allows
  tcp::TcpConfig tcp;
};

/// A UDP source (traffic/udp_source.hpp): constant bit rate, a line-rate burst, or Pareto on/off.
struct UdpSpec {
  enum class Type { kCbr, kBurst, kParetoOnOff };
  FlowSpec path;         ///< where it goes: id, json_index, src, dst, route, data_links (TCP fields unused)
  std::string entry_id;  ///< the "id" of its entry in "udp" (the replicas of a `count` share it)
  Type type = Type::kCbr;
  Rate rate;                    ///< CBR and burst: the sending rate; Pareto: the peak (on) rate
  uint32_t packet_size = 1500;  ///< bytes on the wire
  Duration start;
  std::optional<Duration> stop;  ///< absent: until the end of the run
  // Pareto on/off (ns-2 POO_Traffic): on and off periods Pareto-distributed with these means.
  double shape = 1.5;
  Duration mean_on;
  Duration mean_off;
};

/// Finite TCP flows arriving as a Poisson process (traffic/flow_arrivals.hpp).
struct ArrivalSpec {
  std::string id;
  size_t json_index = 0;
  std::optional<double> flows_per_s;  ///< the arrival rate, or:
  std::optional<double> load;         ///< offered load as a fraction of the bottleneck's rate
  SizeDistribution size;
  /// One template per path (RTT class): id "<id>.<k>", its hosts and routes, the
  /// algorithm, parameters and TCP settings every arriving flow of that path uses.
  std::vector<FlowSpec> paths;
  std::vector<double> weights;  ///< relative frequency of each path
  Duration start;
  std::optional<Duration> stop;  ///< no arrival at or after it (absent: end of run)
  bool traces = false;           ///< also write arrivals/<id>-flows.csv (every active flow per period)
};

/// "/output/packet_trace": per-packet event traces (trace/packet_trace.hpp); off when empty.
struct PacketTraceSpec {
  std::vector<size_t> flows;  ///< indices into Scenario::flows: sender events
  std::vector<size_t> links;  ///< indices into Scenario::links: link events
  std::vector<size_t> pcap;   ///< indices into Scenario::links: a pcap file each
  [[nodiscard]] bool events() const { return !flows.empty() || !links.empty(); }
  [[nodiscard]] bool any() const { return events() || !pcap.empty(); }
};

struct Scenario {
  std::string name;
  std::string description;
  uint64_t seed = 1;
  Duration duration;
  Duration sample_interval = Duration::seconds_int(1);
  Duration warmup;                     ///< left out at the start of every equilibrium interval
  double convergence_tolerance = 0.1;  ///< relative band of the convergence-time metric
  std::vector<std::string> nodes;
  std::vector<LinkSpec> links;
  std::vector<FlowSpec> flows;
  std::vector<UdpSpec> udp;
  std::vector<ArrivalSpec> arrivals;
  std::string bottleneck;        ///< link id used for interval utilization
  nlohmann::json resolved;       ///< the input with defaults filled in (echoed in summary.json)
  Limits limits;                 ///< resource limits (not in the file: defaults, or the command line)
  PacketTraceSpec packet_trace;  ///< "/output/packet_trace" (off by default)
};

}  // namespace fastsim::config
