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

/// Whether a link description has a "delay" key.
enum class DelayKey { kRequired, kOptional, kAbsent };
/// Reads rate, delay, buffer, loss_rate and the optional "dummynet" and "red" blocks of a
/// link description; nullopt (with issues) if something required is missing or bad.
std::optional<net::LinkConfig> read_link_model(Reader& r, const std::string& id, DelayKey delay_key);

struct DumbbellShape {
  net::LinkConfig bottleneck;
  net::LinkConfig access;  ///< rate, buffer, loss and queue model of every access link (delay per flow)
};

/// A chain of routers r0 .. rL joined by hops hop1 .. hopL (links 2(i-1) and 2(i-1)+1
/// of the scenario are hop i and its reverse).
struct ParkingLotShape {
  std::vector<Duration> hop_delays;
  net::LinkConfig access;  ///< delay: the default access delay (when a flow gives no rtt)
};

struct TopologyRead {
  enum class Kind { kMissing, kExplicit, kDumbbell, kParkingLot };
  Kind kind = Kind::kMissing;
  std::optional<DumbbellShape> dumbbell;        ///< set for a valid dumbbell
  std::optional<ParkingLotShape> parking_lot;  ///< set for a valid parking lot
  bool ok = false;                             ///< nodes and links are usable
  /// Hosts are made per flow (dumbbell, parking lot) rather than named by the scenario.
  [[nodiscard]] bool shorthand() const { return kind == Kind::kDumbbell || kind == Kind::kParkingLot; }
};

/// Reads "/topology": explicit nodes and links go into `s`; a dumbbell or parking lot
/// adds its routers and core links and returns its shape (hosts are added per flow).
TopologyRead read_topology(Reader& top, Scenario& s);

/// Where a flow, UDP source or class of arriving flows goes, as read from its object.
struct Placement {
  // Shorthand topologies (hosts made per flow):
  Duration rtt;                     ///< zero: not given
  bool reverse = false;             ///< dumbbell: data from the right side to the left
  size_t first_hop = 0;             ///< parking lot: hops crossed, 1-based inclusive
  size_t last_hop = 0;
  std::optional<uint64_t> txqueuelen;  ///< packets; the sender's access-link buffer
  // Explicit topologies:
  std::string src, dst;
  std::vector<std::string> route;
};

/// Reads "rtt", "direction", "hops", "txqueuelen" (shorthand topologies) or "src", "dst",
/// "route" (explicit ones) from `r`; nullopt if something is missing or invalid.
std::optional<Placement> read_placement(Reader& r, const TopologyRead& t, const std::set<std::string>& node_ids,
                                        const char* what);

/// Adds `f`'s hosts and access links (shorthand topologies) with their routes, or copies
/// the explicit endpoints and route (resolved later by resolve_routes).
void place(Scenario& s, const TopologyRead& t, const Placement& pl, FlowSpec& f);

/// Reads "/udp" (constant-bit-rate sources) into s.udp; `ids` holds the flow ids so far.
void read_udp(Reader& top, Scenario& s, const TopologyRead& topology, const std::set<std::string>& node_ids,
              std::optional<Duration> duration, std::set<std::string>& ids);

/// Reads "/arrivals" (Poisson arrivals of finite flows) into s.arrivals; flows of an
/// arrival process start from `base_tcp` like flows do from "defaults".
void read_arrivals(Reader& top, Scenario& s, const TopologyRead& topology, const std::set<std::string>& node_ids,
                   std::optional<Duration> duration, std::set<std::string>& ids, const tcp::TcpConfig& base_tcp,
                   std::optional<uint64_t> base_rwnd);

/// Fills every flow's data and ACK routes (node lists and link indices) not set yet,
/// reports flows without a route, picks the bottleneck of an explicit topology and makes
/// sure the bottleneck is monitored. O(links) per flow.
void resolve_routes(Scenario& s, Issues& issues);

}  // namespace fastsim::config::detail
