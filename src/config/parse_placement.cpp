// Where a flow goes: "rtt" (and "direction" on a dumbbell, "hops" on a parking lot,
// "txqueuelen") for the shorthand topologies, whose hosts and access links are made per
// flow; "src", "dst" and "route" on an explicit topology. Shared by flows, UDP sources
// and flow arrivals.
#include <algorithm>

#include <fmt/format.h>

#include "parse_parts.hpp"

namespace fastsim::config::detail {

using nlohmann::json;

namespace {

/// Sum of the forward delays of hops first..last (1-based) of a parking lot.
Duration hop_delay(const ParkingLotShape& p, size_t first, size_t last) {
  Duration d;
  for (size_t h = first; h <= last; ++h)
    d += p.hop_delays[h - 1];
  return d;
}

void read_hops(Reader& r, const ParkingLotShape& p, Placement& pl, bool& ok) {
  const size_t n = p.hop_delays.size();
  pl.first_hop = 1;
  pl.last_hop = n;
  const json* h = r.get("hops");
  if (h == nullptr)
    return;
  auto valid = [&](const json& v) {
    return v.is_number_integer() && v.get<int64_t>() >= 1 && v.get<int64_t>() <= static_cast<int64_t>(n);
  };
  if (valid(*h)) {
    pl.first_hop = pl.last_hop = h->get<size_t>();
  } else if (h->is_array() && h->size() == 2 && valid((*h)[0]) && valid((*h)[1]) &&
             (*h)[0].get<int64_t>() <= (*h)[1].get<int64_t>()) {
    pl.first_hop = (*h)[0].get<size_t>();
    pl.last_hop = (*h)[1].get<size_t>();
  } else {
    r.error("hops",
            fmt::format("expected a hop number or [first, last] with 1 <= first <= last <= {}, got {}", n, h->dump()));
    ok = false;
  }
}

}  // namespace

std::optional<Placement> read_placement(Reader& r, const TopologyRead& t, const std::set<std::string>& node_ids,
                                        const char* what) {
  Placement pl;
  bool ok = true;
  if (t.shorthand()) {
    const bool dumbbell = t.kind == TopologyRead::Kind::kDumbbell;
    // A dumbbell needs every flow's rtt; on a parking lot it is optional.
    pl.rtt = r.duration("rtt", dumbbell, true).value_or(Duration::zero());
    if (dumbbell && pl.rtt == Duration::zero())
      ok = false;
    if (auto v = r.integer("txqueuelen"))
      pl.txqueuelen = static_cast<uint64_t>(*v);
    if (dumbbell) {
      if (auto d = r.choice("direction"))
        pl.reverse = *d == 1;
    } else if (t.parking_lot) {
      read_hops(r, *t.parking_lot, pl, ok);
    } else {
      r.allow("hops");  // the parking lot itself is invalid (reported there): no follow-on "unknown key"
    }
    Duration core;  // one-way propagation delay of the core links crossed
    if (t.dumbbell)
      core = t.dumbbell->bottleneck.delay;
    if (t.parking_lot && ok) {
      // Summed in seconds first: 64 hops of up to 1e6 s each would pass the range of a time.
      double core_s = 0;
      for (size_t h = pl.first_hop; h <= pl.last_hop; ++h)
        core_s += t.parking_lot->hop_delays[h - 1].to_seconds();
      if (2 * core_s > kMaxDurationSeconds) {
        r.error("hops", fmt::format("the round trip over the hops crossed is {:.6g} s, longer than {:.0e} s (the "
                                    "longest round trip fastsim takes)",
                                    2 * core_s, kMaxDurationSeconds));
        return std::nullopt;
      }
      core = hop_delay(*t.parking_lot, pl.first_hop, pl.last_hop);
    }
    if (pl.rtt > Duration::zero() && pl.rtt < core * 2) {
      r.error("rtt",
              fmt::format("rtt {} is shorter than the round trip over the {} alone ({})", format_duration(pl.rtt),
                          dumbbell ? "bottleneck" : "hops crossed", format_duration(core * 2)));
      ok = false;
    }
    return ok && t.ok ? std::optional(pl) : std::nullopt;
  }
  auto src = r.string("src", true);
  auto dst = r.string("dst", true);
  if (const json* route = r.get("route")) {
    if (!route->is_array() || route->size() < 2 ||
        !std::all_of(route->begin(), route->end(), [](const json& n) { return n.is_string(); })) {
      r.error("route", fmt::format("expected an array of at least two node ids, got {}", route->dump()));
      ok = false;
    } else {
      for (const auto& n : *route)
        pl.route.push_back(n.get<std::string>());
    }
  }
  if (!src || !dst)
    return std::nullopt;
  pl.src = *src;
  pl.dst = *dst;
  if (t.ok) {
    for (const auto& [key, node] : {std::pair{"src", src}, std::pair{"dst", dst}}) {
      if (!node_ids.count(*node)) {
        r.error(key, fmt::format("no node \"{}\" in /topology/nodes", *node));
        ok = false;
      }
    }
    if (*src == *dst) {
      r.error("dst", fmt::format("a {} needs different src and dst", what));
      ok = false;
    }
  }
  return ok && t.ok ? std::optional(pl) : std::nullopt;
}

void place(Scenario& s, const TopologyRead& t, const Placement& pl, FlowSpec& f) {
  if (!t.shorthand()) {
    f.src = pl.src;
    f.dst = pl.dst;
    f.route = pl.route;
    return;
  }
  // Core path: the routers the flow enters and leaves by, and the core links between.
  std::vector<size_t> core_data, core_ack;
  std::vector<std::string> routers;
  Duration core;
  net::LinkConfig access;
  if (t.dumbbell) {
    access = t.dumbbell->access;
    core = t.dumbbell->bottleneck.delay;
    core_data = {pl.reverse ? 1u : 0u};
    core_ack = {pl.reverse ? 0u : 1u};
    routers = pl.reverse ? std::vector<std::string>{"r2", "r1"} : std::vector<std::string>{"r1", "r2"};
  } else {
    access = t.parking_lot->access;
    core = hop_delay(*t.parking_lot, pl.first_hop, pl.last_hop);
    for (size_t h = pl.first_hop; h <= pl.last_hop; ++h)
      core_data.push_back(2 * (h - 1));
    for (size_t h = pl.last_hop; h >= pl.first_hop; --h)
      core_ack.push_back(2 * (h - 1) + 1);
    for (size_t r = pl.first_hop - 1; r <= pl.last_hop; ++r)
      routers.push_back(fmt::format("r{}", r));
  }
  // Each access link's delay makes the round trip equal the flow's rtt.
  const Duration access_delay = pl.rtt > Duration::zero() ? (pl.rtt / 2 - core) / 2 : access.delay;
  const std::string src = f.id + ".src";
  const std::string dst = f.id + ".dst";
  s.nodes.push_back(src);
  s.nodes.push_back(dst);
  auto access_link = [&](const char* suffix, bool data_direction) {
    net::LinkConfig c = access;
    c.id = f.id + suffix;
    c.delay = access_delay;
    c.loss_rate = data_direction ? access.loss_rate : 0.0;
    return c;
  };
  const size_t first = s.links.size();
  net::LinkConfig nic = access_link(".access_src", true);
  if (pl.txqueuelen)
    nic.buffer = net::BufferLimit{*pl.txqueuelen, 0};
  s.links.push_back({nic, src, routers.front(), false});
  s.links.push_back({access_link(".access_src_rev", false), routers.front(), src, false});
  s.links.push_back({access_link(".access_dst", true), routers.back(), dst, false});
  s.links.push_back({access_link(".access_dst_rev", false), dst, routers.back(), false});
  f.src = src;
  f.dst = dst;
  // The routes are known: no search (keeps 10^5 flows cheap).
  f.route = {src};
  f.route.insert(f.route.end(), routers.begin(), routers.end());
  f.route.push_back(dst);
  f.data_links = {first};
  f.data_links.insert(f.data_links.end(), core_data.begin(), core_data.end());
  f.data_links.push_back(first + 2);
  f.ack_links = {first + 3};
  f.ack_links.insert(f.ack_links.end(), core_ack.begin(), core_ack.end());
  f.ack_links.push_back(first + 1);
  if (t.dumbbell && pl.reverse)
    s.links[1].monitor = true;  // the reverse bottleneck carries data: trace it
}

}  // namespace fastsim::config::detail
