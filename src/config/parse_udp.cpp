// The scenario's "udp" array: UDP sources (traffic/cbr_source.hpp for constant bit rate and
// line-rate bursts, traffic/pareto_on_off_source.hpp for Pareto on/off). Each entry is placed
// like a flow (parse_placement.cpp); no ACK path is needed.
#include <fmt/format.h>

#include "parse_parts.hpp"

namespace fastsim::config::detail {

using nlohmann::json;

void read_udp(Reader& top, Scenario& s, TrafficContext& ctx) {
  const json* list = read_list(top, "udp", "UDP sources");
  for (size_t i = 0; list != nullptr && i < list->size(); ++i) {
    Reader r((*list)[i], fmt::format("/udp/{}", i), top.issues(), "udp");
    UdpSpec u;
    u.path.id = r.id("id", true).value_or("");
    u.entry_id = u.path.id;
    u.path.json_index = i;
    const auto type = r.choice("type");
    u.type = static_cast<UdpSpec::Type>(type.value_or(0));
    // A burst goes at the line rate of its first link unless a rate is given.
    u.rate = r.rate("rate", u.type != UdpSpec::Type::kBurst).value_or(Rate{});
    if (auto v = r.integer("packet_size"))
      u.packet_size = static_cast<uint32_t>(*v);
    const Timing timing = read_timing(r);
    u.start = timing.start;
    u.stop = timing.stop;
    const std::optional<int64_t> count = read_count(r);
    if (u.type == UdpSpec::Type::kParetoOnOff) {
      if (auto v = r.number("shape")) {
        if (*v <= 1.0) {
          r.error("shape", fmt::format("shape {} gives an infinite mean: a Pareto on/off source needs shape > 1", *v));
        } else {
          u.shape = *v;
        }
      }
      u.mean_on = r.duration("mean_on", true, true).value_or(Duration::zero());
      u.mean_off = r.duration("mean_off", true, true).value_or(Duration::zero());
    }
    const std::optional<Placement> placement = read_placement(r, ctx.topology, ctx.node_ids, "UDP source");
    r.finish();
    if (!r.is_object())
      continue;
    check_timing(r, timing, ctx.duration);
    for (std::string& id : replica_ids(r, u.path.id, count, ctx)) {
      UdpSpec copy = u;
      copy.path.id = std::move(id);
      if (placement)
        place(s, ctx.topology, *placement, copy.path);
      s.udp.push_back(std::move(copy));
    }
  }
}

}  // namespace fastsim::config::detail
