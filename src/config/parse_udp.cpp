// The scenario's "udp" array: constant-bit-rate UDP sources (net/cbr_source.hpp).
// Each entry is placed like a flow: "rtt" on a dumbbell (its own hosts and access
// links), "src"/"dst" (and optionally "route") on an explicit topology.
#include <fmt/format.h>

#include "parse_parts.hpp"

namespace fastsim::config::detail {

using nlohmann::json;

void read_udp(Reader& top, Scenario& s, const TopologyRead& topology, const std::set<std::string>& node_ids,
              std::optional<Duration> duration, std::set<std::string>& ids) {
  const json* list = top.get("udp");
  if (list == nullptr)
    return;
  if (!list->is_array()) {
    top.error("udp", fmt::format("expected an array of UDP sources, got {}", list->dump()));
    return;
  }
  for (size_t i = 0; i < list->size(); ++i) {
    Reader r((*list)[i], fmt::format("/udp/{}", i), top.issues());
    UdpSpec u;
    u.path.id = r.id("id", true).value_or("");
    u.path.json_index = i;
    const std::string type = r.string("type").value_or("cbr");
    if (type != "cbr")
      r.error("type", fmt::format("unknown UDP source type \"{}\"; allowed: \"cbr\"", type));
    u.rate = r.rate("rate", true).value_or(Rate{});
    if (auto v = r.integer("packet_size", 28, 65535))
      u.packet_size = static_cast<uint32_t>(*v);
    u.start = r.duration("start").value_or(Duration::zero());
    u.stop = r.duration("stop");
    Duration rtt = Duration::zero();
    std::optional<std::string> src, dst;
    if (topology.is_dumbbell) {
      rtt = r.duration("rtt", true, true).value_or(Duration::zero());
      if (topology.dumbbell && rtt > Duration::zero() && rtt < topology.dumbbell->bottleneck.delay * 2) {
        r.error("rtt", fmt::format("rtt {} is shorter than the round trip over the bottleneck alone ({})",
                                   format_duration(rtt), format_duration(topology.dumbbell->bottleneck.delay * 2)));
        rtt = Duration::zero();
      }
    } else {
      src = r.string("src", true);
      dst = r.string("dst", true);
      u.path.src = src.value_or("");
      u.path.dst = dst.value_or("");
      if (const json* route = r.get("route")) {
        if (!route->is_array() || route->size() < 2 ||
            !std::all_of(route->begin(), route->end(), [](const json& n) { return n.is_string(); })) {
          r.error("route", fmt::format("expected an array of at least two node ids, got {}", route->dump()));
        } else {
          for (const auto& n : *route)
            u.path.route.push_back(n.get<std::string>());
        }
      }
    }
    r.finish();
    if (!r.is_object())
      continue;
    if (u.rate.to_double() <= 0)
      r.error("rate", "rate must be positive");
    if (duration && u.start >= *duration) {
      r.error("start", fmt::format("start {} is not before the end of the run ({})", format_duration(u.start),
                                   format_duration(*duration)));
    }
    if (u.stop && *u.stop <= u.start)
      r.error("stop",
              fmt::format("stop {} must be after start {}", format_duration(*u.stop), format_duration(u.start)));
    if (!topology.is_dumbbell && topology.ok) {
      for (const auto& [key, node] : {std::pair{"src", src}, std::pair{"dst", dst}}) {
        if (node && !node_ids.count(*node))
          r.error(key, fmt::format("no node \"{}\" in /topology/nodes", *node));
      }
      if (src && dst && *src == *dst)
        r.error("dst", "a UDP source needs different src and dst");
    }
    if (!u.path.id.empty() && !ids.insert(u.path.id).second) {
      r.error("id", fmt::format("duplicate id \"{}\" (flows and UDP sources share one namespace)", u.path.id));
      continue;
    }
    if (topology.dumbbell && rtt > Duration::zero())
      add_dumbbell_hosts(s, *topology.dumbbell, u.path, rtt);
    s.udp.push_back(std::move(u));
  }
}

}  // namespace fastsim::config::detail
