// The table of scenario objects and keys (see scenario_keys.hpp). Ranges and choices
// here are the ones the parser enforces; docs/scenario-format.md explains each key.
#include "fastsim/config/scenario_keys.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include <fmt/format.h>

#include "fastsim/tcp/stack_profile.hpp"

namespace fastsim::config {

namespace {

using K = ValueKind;

constexpr double kMaxInt64 = static_cast<double>(INT64_MAX);

KeySpec key(std::string_view name, ValueKind kind, std::string_view help) {
  return KeySpec{.name = name, .kind = kind, .help = help};
}
KeySpec required(KeySpec k) {
  k.required = true;
  return k;
}
KeySpec positive(KeySpec k) {
  k.positive = true;
  return k;
}
KeySpec ranged(std::string_view name, ValueKind kind, double min, double max, std::string_view help) {
  return KeySpec{.name = name, .kind = kind, .help = help, .min = min, .max = max};
}
KeySpec choice(std::string_view name, std::vector<std::string> choices, std::string_view help) {
  return KeySpec{.name = name, .kind = K::kChoice, .help = help, .choices = std::move(choices)};
}
KeySpec object(std::string_view name, ValueKind kind, std::string_view spec, std::string_view help) {
  return KeySpec{.name = name, .kind = kind, .help = help, .object = spec};
}

std::vector<ObjectSpec> make_objects() {
  std::vector<ObjectSpec> o;
  o.push_back({.name = "scenario",
               .help = "a fastsim scenario (docs/scenario-format.md)",
               .keys = {
                   key("name", K::kString, "short name, used in outputs"),
                   key("description", K::kString, "free text"),
                   ranged("seed", K::kInteger, 0, kMaxInt64, "random seed"),
                   required(positive(key("duration", K::kDuration, "simulated time"))),
                   positive(key("sample_interval", K::kDuration, "sampling period of the time series")),
                   key("warmup", K::kDuration, "time left out of the summary metrics"),
                   object("metrics", K::kObject, "metrics", "how summary metrics are computed"),
                   object("defaults", K::kObject, "defaults", "TCP settings and stack of every sender"),
                   required(object("topology", K::kObject, "topology", "the network")),
                   object("flows", K::kArray, "flow", "TCP flows"),
                   object("udp", K::kArray, "udp", "UDP sources"),
                   object("arrivals", K::kArray, "arrival", "Poisson arrivals of finite TCP flows"),
                   key("monitor", K::kStrings, "extra links to trace, by id"),
                   object("output", K::kObject, "output", "optional outputs (docs/outputs.md)"),
               }});
  o.push_back({.name = "metrics",
               .help = "summary metrics",
               .keys = {ranged("convergence_tolerance", K::kNumber, 0.001, 1,
                               "relative band around the fair share for convergence times")}});
  o.push_back({.name = "defaults",
               .help = "the stack profile and TCP settings every sender starts from",
               .keys = {choice("stack", tcp::stack_names(), "TCP stack profile")},
               .tcp_settings = true});
  o.push_back({.name = "algorithm",
               .help = "a congestion-control algorithm and its parameters",
               .keys = {key("algorithm", K::kAlgorithm, "congestion-control algorithm (default reno)"),
                        key("params", K::kParams, "the algorithm's parameters (fastsim algorithms)")}});
  o.push_back({.name = "topology",
               .help = "a dumbbell, a parking lot, or explicit nodes and links",
               .keys = {object("dumbbell", K::kObject, "dumbbell", "one bottleneck between two routers"),
                        object("parking_lot", K::kObject, "parking_lot", "a chain of routers"),
                        object("nodes", K::kNodes, "node", "explicit topology: node ids"),
                        object("links", K::kArray, "link", "explicit topology: one-way links"),
                        key("bottleneck", K::kString, "the link interval metrics follow")}});
  o.push_back({.name = "dumbbell",
               .help = "a dumbbell: hosts per flow on both sides of one bottleneck",
               .keys = {required(object("bottleneck", K::kObject, "link_model", "the bottleneck link")),
                        required(object("access", K::kObject, "access_link", "every access link"))}});
  o.push_back({.name = "parking_lot",
               .help = "a parking lot: routers r0 .. rL joined by hops hop1 .. hopL",
               .keys = {object("hops", K::kArray, "link_model", "one link per hop"),
                        object("hop", K::kObject, "link_model", "one link for every hop (with count)"),
                        ranged("count", K::kInteger, 1, 64, "number of hops (with hop)"),
                        required(object("access", K::kObject, "link_model", "every access link"))}});
  o.push_back(
      {.name = "link_model",
       .help = "a link's rate, delay and queue",
       .keys = {required(key("rate", K::kRate, "line rate")), key("delay", K::kDuration, "one-way propagation delay"),
                required(key("buffer", K::kBuffer, "queue size: packets or bytes")),
                ranged("loss_rate", K::kNumber, 0, 1, "random loss probability per packet"),
                object("dummynet", K::kObject, "dummynet", "serve the queue in ticks, like dummynet"),
                object("red", K::kObject, "red", "RED queue management"),
                object("queue", K::kObject, "queue", "an AQM queue discipline: codel, fq_codel or pie"),
                object("marking", K::kObject, "marking", "step-threshold ECN marking (DCTCP's K)")}});
  o.push_back({.name = "access_link",
               .help = "the dumbbell's access links (their delay comes from each flow's rtt)",
               .include = {"link_model"},
               .exclude = {"delay"}});
  o.push_back({.name = "link",
               .help = "a one-way link of an explicit topology",
               .keys = {required(key("id", K::kId, "link id")), required(key("from", K::kString, "node id")),
                        required(key("to", K::kString, "node id")),
                        key("monitor", K::kBoolean, "trace the link (default true)"),
                        key("duplex", K::kBoolean, "also the reverse link ID_rev, to -> from")},
               .include = {"link_model"}});
  o.push_back({.name = "node",
               .help = "a node of an explicit topology",
               .keys = {required(key("id", K::kId, "node id")), choice("kind", {"host", "router"}, "what it is")}});
  o.push_back({.name = "dummynet",
               .help = "dummynet-style service in ticks",
               .keys = {required(positive(key("tick", K::kDuration, "the tick (1/HZ), at most 1s")))}});
  o.push_back(
      {.name = "red",
       .help = "RED queue management",
       .keys = {required(ranged("min_th", K::kNumber, 0, 1e9, "lower threshold, packets")),
                required(ranged("max_th", K::kNumber, 0, 1e9, "upper threshold, packets")),
                ranged("max_p", K::kNumber, 1e-9, 1, "drop probability at max_th"),
                ranged("weight", K::kNumber, 1e-9, 1, "weight of the average queue"),
                key("gentle", K::kBoolean, "gentle RED"), ranged("mean_packet_size", K::kInteger, 28, 65535, "bytes"),
                key("ecn", K::kBoolean, "mark ECN-capable packets CE instead of dropping them early")}});
  o.push_back({.name = "queue",
               .help = "an AQM queue discipline (the link's buffer is its limit)",
               .keys = {required(choice("discipline", {"codel", "fq_codel", "pie"}, "the discipline")),
                        positive(key("target", K::kDuration, "target queue delay (codel, fq_codel: 5ms; pie: 15ms)")),
                        positive(key("interval", K::kDuration, "codel, fq_codel: the interval (100ms)")),
                        ranged("mtu", K::kInteger, 64, 65535, "bytes: codel's maxpacket, pie's 2-MTU safeguard (1514)"),
                        ranged("flows", K::kInteger, 1, 65536, "fq_codel: flow queues (1024)"),
                        ranged("quantum", K::kInteger, 64, 1048576, "fq_codel: DRR quantum, bytes (1514)"),
                        positive(key("tupdate", K::kDuration, "pie: probability update period (15ms)")),
                        ranged("alpha", K::kNumber, 0, 100, "pie: alpha, 1/s (0.125)"),
                        ranged("beta", K::kNumber, 0, 100, "pie: beta, 1/s (1.25)"),
                        key("max_burst", K::kDuration, "pie: burst allowance (150ms)")}});
  o.push_back({.name = "marking",
               .help = "step-threshold ECN marking at enqueue",
               .keys = {required(ranged("threshold_pkts", K::kInteger, 0, 1e9,
                                        "mark an ECN-capable packet CE when it finds this many packets waiting"))}});
  o.push_back({.name = "placement",
               .help = "where traffic goes",
               .keys = {positive(key("rtt", K::kDuration, "shorthand topologies: the round-trip propagation delay")),
                        ranged("txqueuelen", K::kInteger, 1, 1e9, "shorthand topologies: sender's queue, packets"),
                        choice("direction", {"forward", "reverse"}, "dumbbell: which way data go"),
                        key("hops", K::kHops, "parking lot: a hop or [first, last]"),
                        key("src", K::kString, "explicit topology: sending node"),
                        key("dst", K::kString, "explicit topology: receiving node"),
                        key("route", K::kStrings, "explicit topology: node ids from src to dst")}});
  o.push_back({.name = "timing",
               .help = "when traffic is active",
               .keys = {key("start", K::kDuration, "start time (default 0)"), key("stop", K::kDuration, "stop time")}});
  o.push_back({.name = "flow",
               .help = "a TCP flow",
               .keys = {required(key("id", K::kId, "flow id")),
                        ranged("count", K::kInteger, 1, 100000, "replicas id-0, id-1, ..."),
                        key("start_jitter", K::kDuration, "random extra start delay per replica"),
                        key("size", K::kSize, "bytes to send (default: unlimited)"),
                        key("max_window", K::kSize, "cap on the data in flight"),
                        object("on_off", K::kObject, "on_off", "an on/off application")},
               .include = {"algorithm", "defaults", "timing", "placement"}});
  o.push_back({.name = "on_off",
               .help = "an on/off application",
               .keys = {required(positive(key("on", K::kDuration, "sending period"))),
                        required(positive(key("off", K::kDuration, "silent period")))}});
  o.push_back({.name = "udp",
               .help = "a UDP source",
               .keys = {required(key("id", K::kId, "source id")),
                        choice("type", {"cbr", "burst", "pareto"}, "constant bit rate, bursts or Pareto on/off"),
                        key("rate", K::kRate, "sending rate (required except for burst)"),
                        ranged("packet_size", K::kInteger, 28, 65535, "bytes"),
                        ranged("count", K::kInteger, 1, 100000, "replicas id-0, id-1, ..."),
                        ranged("shape", K::kNumber, 0, 100, "pareto: the shape (above 1)"),
                        positive(key("mean_on", K::kDuration, "pareto: mean on period")),
                        positive(key("mean_off", K::kDuration, "pareto: mean off period"))},
               .include = {"timing", "placement"}});
  o.push_back({.name = "arrival",
               .help = "Poisson arrivals of finite TCP flows",
               .keys = {required(key("id", K::kId, "process id")),
                        ranged("rate", K::kNumber, 1e-9, 1e5, "flows per second (or load)"),
                        ranged("load", K::kNumber, 1e-9, 10, "fraction of the bottleneck rate (or rate)"),
                        required(object("size", K::kObject, "size_distribution", "flow sizes")),
                        key("traces", K::kBoolean, "per-flow traces"),
                        object("paths", K::kArray, "path", "paths with weights")},
               .include = {"algorithm", "defaults", "timing", "placement"}});
  o.push_back({.name = "path",
               .help = "a path of an arrival process",
               .keys = {ranged("weight", K::kNumber, 1e-9, 1e9, "relative share of the arrivals (default 1)")},
               .include = {"placement"}});
  o.push_back(
      {.name = "size_distribution",
       .help = "flow sizes",
       .keys = {
           required(choice("distribution", {"fixed", "exponential", "pareto", "bounded_pareto"}, "the distribution")),
           key("mean", K::kSize, "fixed, exponential, pareto: the mean (fixed: the size)"),
           key("min", K::kSize, "bounded_pareto: smallest size"), key("max", K::kSize, "bounded_pareto: largest size"),
           ranged("shape", K::kNumber, 0, 100, "pareto, bounded_pareto: the shape")}});
  o.push_back({.name = "bdp_buffer",
               .help = "a buffer of bdp_fraction x the link's rate x a round-trip time, in bytes",
               .keys = {required(ranged("bdp_fraction", K::kNumber, 0, 1000, "the fraction of the BDP (> 0)")),
                        required(key("of", K::kString,
                                     "the round-trip time: a duration (\"80ms\") or a flow id (its base RTT)"))}});
  o.push_back({.name = "output",
               .help = "optional outputs",
               .keys = {object("packet_trace", K::kObject, "packet_trace", "per-packet event traces")}});
  o.push_back({.name = "packet_trace",
               .help = "per-packet event traces (packet_trace.bin) and pcap captures (links/<id>.pcap)",
               .keys = {key("flows", K::kStrings, "flows whose sender events to trace, by id"),
                        key("links", K::kStrings, "links whose packet events to trace, by id"),
                        key("pcap", K::kStrings, "links to capture as pcap at transmission start, by id")}});
  return o;
}

/// The objects and, per object, its keys with the includes resolved (computed once: the
/// parser looks a key up for every value it reads).
struct Table {
  std::vector<ObjectSpec> objects = make_objects();
  std::vector<std::vector<const KeySpec*>> flat;  ///< per object, in the order of `objects`
  std::vector<bool> tcp;                          ///< per object: takes the TCP settings

  Table() {
    for (const auto& o : objects) {
      flat.push_back(resolve(o));
      tcp.push_back(resolve_tcp(o));
    }
  }
  [[nodiscard]] size_t index(std::string_view name) const {
    for (size_t i = 0; i < objects.size(); ++i) {
      if (objects[i].name == name)
        return i;
    }
    throw std::logic_error(fmt::format("no scenario object \"{}\" in the key table", name));
  }
  [[nodiscard]] std::vector<const KeySpec*> resolve(const ObjectSpec& o) const {
    std::vector<const KeySpec*> out;
    for (const auto& k : o.keys)
      out.push_back(&k);
    for (std::string_view inc : o.include) {
      for (const KeySpec* k : resolve(objects[index(inc)])) {
        if (std::find(o.exclude.begin(), o.exclude.end(), k->name) == o.exclude.end())
          out.push_back(k);
      }
    }
    return out;
  }
  [[nodiscard]] bool resolve_tcp(const ObjectSpec& o) const {
    return o.tcp_settings || std::any_of(o.include.begin(), o.include.end(),
                                         [&](std::string_view inc) { return resolve_tcp(objects[index(inc)]); });
  }
};

const Table& table() {
  static const Table t;
  return t;
}

/// The position of `o` in the table (every ObjectSpec lives there).
size_t position(const ObjectSpec& o) {
  return static_cast<size_t>(&o - table().objects.data());
}

}  // namespace

const std::vector<ObjectSpec>& scenario_objects() {
  return table().objects;
}

const ObjectSpec& object_spec(std::string_view name) {
  return table().objects[table().index(name)];
}

const std::vector<const KeySpec*>& object_keys(const ObjectSpec& o) {
  return table().flat[position(o)];
}

const KeySpec* find_key(const ObjectSpec& o, std::string_view key) {
  for (const KeySpec* k : object_keys(o)) {
    if (k->name == key)
      return k;
  }
  return nullptr;
}

bool takes_tcp_settings(const ObjectSpec& o) {
  return table().tcp[position(o)];
}

}  // namespace fastsim::config
