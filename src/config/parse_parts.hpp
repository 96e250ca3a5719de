// Internal pieces of the scenario parser, one reader per scenario entity: topology
// (parse_topology.cpp), link (parse_link.cpp), flow (parse_flow.cpp), UDP source
// (parse_udp.cpp), arrival process (parse_arrivals.cpp). What flows, UDP sources and
// arrival processes share is read in one place: algorithm and TCP settings
// (parse_flow_settings.cpp), timing and `count` replicas (parse_common.cpp), placement
// (parse_placement.cpp). parse.cpp calls them in order.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fastsim/cc/registry.hpp"
#include "fastsim/config/scenario.hpp"
#include "fastsim/tcp/stack_profile.hpp"
#include "fastsim/tcp/tcp_settings.hpp"
#include "reader.hpp"

namespace fastsim::config::detail {

/// TCP settings as a scenario gives them ("defaults", then a flow's own keys): the
/// receive window stays in bytes until the flow's mss is known.
struct TcpSettings {
  tcp::TcpConfig cfg;
  std::optional<uint64_t> receive_window_bytes;
  std::optional<tcp::Stack> stack;            ///< "stack", if given
  std::vector<const tcp::TcpSetting*> given;  ///< the settings given explicitly (values in cfg)
  /// `cfg` with the receive window in packets (bytes / mss, at least one).
  [[nodiscard]] tcp::TcpConfig resolved() const;
};

/// Reads "stack" (one of tcp::stack_names()).
std::optional<tcp::Stack> read_stack(Reader& r);
/// The stack of a sender with `own` stack under `defaults`: its own, else the defaults',
/// else tcp::kDefaultStack.
tcp::Stack effective_stack(std::optional<tcp::Stack> own, const TcpSettings& defaults);
/// Reads the TCP settings present in `r` (tcp/tcp_settings.hpp) into `s`, recording
/// which were given.
void read_tcp(Reader& r, TcpSettings& s);
/// Resolves a sender's TCP settings. Precedence, highest first: the sender's own explicit
/// settings, the explicit settings of "/defaults", the sender's stack profile (its own
/// "stack", else the defaults' "stack", else tcp::kDefaultStack); a setting given nowhere
/// and without a profile row keeps TcpConfig's default. Explicit settings beat every
/// profile: a setting written for the whole experiment in "/defaults" is not undone by a
/// flow that names another stack.
TcpSettings resolve_tcp(const TcpSettings& defaults, const TcpSettings& own);
/// The TCP settings of the sender read by `r` ("stack" already read into `own_stack`):
/// its own keys resolved against `defaults`, then checked across fields (packet_size >=
/// mss, min_rto <= initial_rto <= max_rto) if it gave any.
TcpSettings read_sender_tcp(Reader& r, const TcpSettings& defaults, std::optional<tcp::Stack> own_stack);
/// Checks resolved settings across fields (packet_size >= mss, min_rto <= max_rto,
/// initial_rto <= max_rto); an RTO message names the stack the values were resolved under.
void check_tcp(Reader& r, const TcpSettings& s);
/// All TCP settings with their values and the stack, for the resolved-scenario echo.
nlohmann::json tcp_to_json(const TcpSettings& s);
/// Reads "algorithm" (default "reno") and its "params" into `f`; nullptr (reported) for an
/// unknown algorithm. A parameter the scenario does not give takes its default under
/// `stack` (tcp/stack_profile.hpp). `params_echo` receives every parameter value.
const cc::AlgorithmInfo* read_algorithm(Reader& r, FlowSpec& f, nlohmann::json& params_echo, tcp::Stack stack);

/// A buffer given as a fraction of a bandwidth-delay product (parse_buffer.cpp):
/// {"bdp_fraction": F, "of": a duration or a flow id}.
struct BdpBuffer {
  std::string path;  ///< JSON pointer of the "buffer" object
  double fraction = 0;
  std::string of;                  ///< a round-trip time ("80ms") or a flow id
  Rate rate;                       ///< the link's own rate
  std::vector<std::string> links;  ///< the links that take it (the link and its reverse copy)
  uint64_t bytes = 0;              ///< 0 until resolved (a flow's base RTT needs its routes)
};

/// Whether a link description has a "delay" key.
enum class DelayKey { kRequired, kOptional, kAbsent };
/// Reads rate, delay, buffer, loss_rate and the optional "dummynet" and "red" blocks of a
/// link description; nullopt (with issues) if something required is missing or bad. A
/// buffer given relative to a BDP is recorded in `bdp` (nullptr: only a round-trip time
/// is accepted, and it is not echoed).
std::optional<net::LinkConfig> read_link_model(Reader& r, const std::string& id, DelayKey delay_key,
                                               std::vector<BdpBuffer>* bdp = nullptr);
/// The "buffer" of a link description with rate `rate`: a buffer value or a BDP object; a
/// BDP of a flow is recorded in `pending` and resolved by resolve_bdp_buffers.
std::optional<net::BufferLimit> read_link_buffer(Reader& r, std::optional<Rate> rate, std::vector<BdpBuffer>* pending);
/// Sizes the buffers relative to a flow's base RTT (routes resolved) and writes every
/// BDP buffer's byte count into the resolved-scenario echo.
void resolve_bdp_buffers(Scenario& s, const std::vector<BdpBuffer>& pending, Issues& issues, nlohmann::json& resolved);

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
  std::optional<DumbbellShape> dumbbell;       ///< set for a valid dumbbell
  std::optional<ParkingLotShape> parking_lot;  ///< set for a valid parking lot
  bool ok = false;                             ///< nodes and links are usable
  std::vector<BdpBuffer> bdp_buffers;          ///< buffers given relative to a BDP
  std::set<std::string> link_ids;              ///< every link id of /topology/links, valid or not
  /// Hosts are made per flow (dumbbell, parking lot) rather than named by the scenario.
  [[nodiscard]] bool shorthand() const { return kind == Kind::kDumbbell || kind == Kind::kParkingLot; }
};

/// Reads "/topology": explicit nodes and links go into `s`; a dumbbell or parking lot
/// adds its routers and core links and returns its shape (hosts are added per flow).
TopologyRead read_topology(Reader& top, Scenario& s);

/// Where a flow, UDP source or class of arriving flows goes, as read from its object.
struct Placement {
  // Shorthand topologies (hosts made per flow):
  Duration rtt;          ///< zero: not given
  bool reverse = false;  ///< dumbbell: data from the right side to the left
  size_t first_hop = 0;  ///< parking lot: hops crossed, 1-based inclusive
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

/// What the readers of flows, UDP sources and arrival processes need from the rest of
/// the scenario.
struct TrafficContext {
  const TopologyRead& topology;
  std::set<std::string> node_ids;    ///< the topology's nodes (before per-flow hosts)
  std::optional<Duration> duration;  ///< the run's length (absent: invalid, reported)
  uint64_t seed = 1;
  TcpSettings defaults;       ///< "/defaults" as given (explicit settings and stack)
  std::set<std::string> ids;  ///< ids taken: flows, UDP sources and arrivals share one namespace
};

/// When a flow, UDP source or arrival process is active.
struct Timing {
  Duration start;
  std::optional<Duration> stop;
  std::optional<Duration> start_jitter;  ///< flows only
};

/// Reads "start" (default 0) and "stop".
Timing read_timing(Reader& r);
/// start before the end of the run, stop after start, and start + start_jitter before both.
void check_timing(Reader& r, const Timing& t, std::optional<Duration> duration);
/// Reads "count" (replicas, 1 to 100000).
std::optional<int64_t> read_count(Reader& r);
/// Takes `id` in ctx.ids; false (reported on "id") if a flow, UDP source or arrival has it.
bool claim_id(Reader& r, const std::string& id, TrafficContext& ctx);
/// The ids of the `count` replicas of `id` ("<id>-0", "<id>-1", ...; `id` itself without
/// count), each claimed; ends before the first one taken already.
std::vector<std::string> replica_ids(Reader& r, const std::string& id, std::optional<int64_t> count,
                                     TrafficContext& ctx);
/// The top-level array `key` ("udp", "arrivals"); nullptr if absent or not an array (reported).
const nlohmann::json* read_list(Reader& top, const std::string& key, const char* what);

/// Reads "/flows" into s.flows (each `count` replica placed); echoes each flow's algorithm
/// and parameters into `resolved`.
void read_flows(Reader& top, Scenario& s, TrafficContext& ctx, nlohmann::json& resolved);
/// Reads "/udp" (UDP sources) into s.udp.
void read_udp(Reader& top, Scenario& s, TrafficContext& ctx);
/// Reads "/arrivals" (Poisson arrivals of finite flows) into s.arrivals.
void read_arrivals(Reader& top, Scenario& s, TrafficContext& ctx);
/// Arrival processes given by "load": the rate they imply must not exceed 1e5 per second
/// (needs the bottleneck: after resolve_routes). Reports the first one that does.
void check_arrival_loads(const Scenario& s, Issues& issues);

/// Fills every flow's data and ACK routes (node lists and link indices) not set yet,
/// reports flows without a route, picks the bottleneck of an explicit topology and makes
/// sure the bottleneck is monitored. O(links) per flow.
void resolve_routes(Scenario& s, Issues& issues);

/// "/output": optional outputs (packet traces by flow and link id), once flows and links are read.
void read_output(Reader& top, Scenario& s);

/// The allowed ids for a message: all of them, or the first 20 and how many more.
std::string id_list(const std::vector<std::string>& ids);
/// Reads `key` of `r` (an array of ids among `ids`) into indices of `ids`, in the order
/// given, without repeats; an id not among them is an issue at its path listing them.
std::vector<size_t> read_ids(Reader& r, const std::string& key, const std::vector<std::string>& ids, const char* what);

}  // namespace fastsim::config::detail
