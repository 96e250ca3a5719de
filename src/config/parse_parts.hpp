// Internal pieces of the scenario parser, one concern per file: TCP settings and
// algorithm parameters (parse_flow_settings.cpp), topologies and routes
// (parse_topology.cpp). parse.cpp ties them together.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fastsim/cc/registry.hpp"
#include "fastsim/config/scenario.hpp"
#include "reader.hpp"

namespace fastsim::config::detail {

/// Reads TCP settings present in `r` on top of `cfg`; `rwnd_bytes` keeps the byte value.
void read_tcp(Reader& r, tcp::TcpConfig& cfg, std::optional<uint64_t>& rwnd_bytes);
/// Cross-field checks (packet_size >= mss, max_rto >= min_rto).
void check_tcp(Reader& r, const tcp::TcpConfig& cfg);
/// All TCP settings with their values, for the resolved-scenario echo.
nlohmann::json tcp_to_json(const tcp::TcpConfig& c, std::optional<uint64_t> rwnd_bytes);
/// Checks "params" against the algorithm's specs; `echo` receives every value.
cc::ParamValues read_params(Reader& flow, const cc::AlgorithmInfo* algo, nlohmann::json& echo);

struct DumbbellShape {
  net::LinkConfig bottleneck;
  Rate access_rate;
  net::BufferLimit access_buffer;
  double access_loss = 0;
};

struct TopologyRead {
  bool is_dumbbell = false;               ///< the scenario asks for a dumbbell (valid or not)
  std::optional<DumbbellShape> dumbbell;  ///< set for a valid dumbbell
  bool ok = false;                        ///< nodes and links are usable
};

/// Reads "/topology": explicit nodes and links go into `s`; a dumbbell adds its routers
/// and bottleneck links and returns its shape (hosts are added per flow).
TopologyRead read_topology(Reader& top, Scenario& s);

/// Adds a dumbbell flow's hosts and access links, sized so its base RTT is `rtt`.
void add_dumbbell_hosts(Scenario& s, const DumbbellShape& d, FlowSpec& f, Duration rtt);

/// Reads "/udp" (constant-bit-rate sources) into s.udp; `ids` holds the flow ids so far.
void read_udp(Reader& top, Scenario& s, const TopologyRead& topology, const std::set<std::string>& node_ids,
              std::optional<Duration> duration, std::set<std::string>& ids);

/// Fills every flow's data and ACK routes (node lists and link indices) not set yet,
/// reports flows without a route, picks the bottleneck of an explicit topology and makes
/// sure the bottleneck is monitored. O(links) per flow.
void resolve_routes(Scenario& s, Issues& issues);

}  // namespace fastsim::config::detail
