// The scenario's "udp" array: UDP sources (net/cbr_source.hpp for constant bit rate and
// line-rate bursts, net/pareto_on_off_source.hpp for Pareto on/off). Each entry is placed
// like a flow (parse_placement.cpp); no ACK path is needed.
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
    const auto type = r.choice("type", {"cbr", "burst", "pareto"});
    u.type = static_cast<UdpSpec::Type>(type.value_or(0));
    // A burst goes at the line rate of its first link unless a rate is given.
    u.rate = r.rate("rate", u.type != UdpSpec::Type::kBurst).value_or(Rate{});
    if (auto v = r.integer("packet_size", 28, 65535))
      u.packet_size = static_cast<uint32_t>(*v);
    u.start = r.duration("start").value_or(Duration::zero());
    u.stop = r.duration("stop");
    const auto count = r.integer("count", 1, 100000);
    if (u.type == UdpSpec::Type::kParetoOnOff) {
      if (auto v = r.number("shape", 0, 100)) {
        if (*v <= 1.0) {
          r.error("shape", fmt::format("shape {} gives an infinite mean: a Pareto on/off source needs shape > 1", *v));
        } else {
          u.shape = *v;
        }
      }
      u.mean_on = r.duration("mean_on", true, true).value_or(Duration::zero());
      u.mean_off = r.duration("mean_off", true, true).value_or(Duration::zero());
    }
    const std::optional<Placement> placement = read_placement(r, topology, node_ids, "UDP source");
    r.finish();
    if (!r.is_object())
      continue;
    if (duration && u.start >= *duration) {
      r.error("start", fmt::format("start {} is not before the end of the run ({})", format_duration(u.start),
                                   format_duration(*duration)));
    }
    if (u.stop && *u.stop <= u.start)
      r.error("stop",
              fmt::format("stop {} must be after start {}", format_duration(*u.stop), format_duration(u.start)));
    for (int64_t k = 0; k < count.value_or(1); ++k) {  // `count` replicas: ids <id>-0, <id>-1, ...
      UdpSpec copy = u;
      if (count)
        copy.path.id = fmt::format("{}-{}", u.path.id, k);
      if (!copy.path.id.empty() && !ids.insert(copy.path.id).second) {
        r.error("id",
                fmt::format("duplicate id \"{}\" (flows, UDP sources and arrivals share one namespace)", copy.path.id));
        break;
      }
      if (placement)
        place(s, topology, *placement, copy.path);
      s.udp.push_back(std::move(copy));
    }
  }
}

}  // namespace fastsim::config::detail
