// Topologies for the scenario parser: the dumbbell and parking-lot shorthands (expanded
// into explicit routers and core links; hosts come per flow, parse_placement.cpp) and
// explicit node/link lists; routes by hop count.
#include <algorithm>
#include <deque>
#include <map>
#include <set>

#include <fmt/format.h>

#include "parse_parts.hpp"

namespace fastsim::config::detail {

using nlohmann::json;

namespace {

/// Names the links that take the BDP buffers recorded from index `from` on.
void name_bdp_links(std::vector<BdpBuffer>& bdp, size_t from, const std::vector<std::string>& links) {
  for (size_t i = from; i < bdp.size(); ++i)
    bdp[i].links = links;
}

/// The access links of the shorthands are made one per flow: a BDP buffer recorded from
/// index `first` on must name a round-trip time, not a flow; false (reported) if one does.
bool access_bdp_ok(std::vector<BdpBuffer>& bdp, size_t first, Issues& issues) {
  bool ok = true;
  for (size_t i = first; i < bdp.size(); ++i) {
    if (bdp[i].bytes == 0) {
      issues.push_back(
          {bdp[i].path + "/of", fmt::format("the access links of a dumbbell or parking lot are one per "
                                            "flow: give a round-trip time like \"80ms\", not a flow (\"{}\")",
                                            bdp[i].of)});
      ok = false;
    }
  }
  return ok;
}

std::optional<DumbbellShape> read_dumbbell(const json& j, const std::string& path, Issues& issues,
                                           std::vector<BdpBuffer>& bdp) {
  Reader r(j, path, issues, "dumbbell");
  DumbbellShape d;
  bool ok = r.is_object();
  if (const json* b = r.get("bottleneck")) {
    Reader br(*b, r.path_of("bottleneck"), issues, "link_model");
    const size_t first = bdp.size();
    auto c = read_link_model(br, "bottleneck", DelayKey::kRequired, &bdp);
    name_bdp_links(bdp, first, {"bottleneck", "bottleneck_rev"});
    br.finish();
    ok = ok && c.has_value();
    if (c)
      d.bottleneck = *c;
  } else {
    if (r.is_object())
      r.error("bottleneck", "missing required key (expected an object with rate, delay, buffer)");
    ok = false;
  }
  if (const json* a = r.get("access")) {
    Reader ar(*a, r.path_of("access"), issues, "access_link");
    const size_t first = bdp.size();
    auto c = read_link_model(ar, "access", DelayKey::kAbsent, &bdp);
    ar.finish();
    ok = ok && c.has_value() && access_bdp_ok(bdp, first, issues);
    if (c)
      d.access = *c;
  } else {
    if (r.is_object())
      r.error("access", "missing required key (expected an object with rate, buffer)");
    ok = false;
  }
  r.finish();
  if (!ok)
    return std::nullopt;
  return d;
}

/// The most hops of a parking lot (its "count" range in the key table).
int64_t max_hops() {
  return static_cast<int64_t>(find_key(object_spec("parking_lot"), "count")->max);
}

/// "parking_lot": {"hops": [link, ...]} or {"hop": link, "count": L}, plus "access".
/// Adds routers r0 .. rL and links hop1 .. hopL (r(i-1) -> ri, monitored) with their
/// reverse hopi_rev.
std::optional<ParkingLotShape> read_parking_lot(const json& j, const std::string& path, Scenario& s, Issues& issues,
                                                std::vector<BdpBuffer>& bdp) {
  Reader r(j, path, issues, "parking_lot");
  ParkingLotShape shape;
  bool ok = r.is_object();
  std::vector<net::LinkConfig> hops;
  const json* list = r.get("hops");
  const json* one = r.get("hop");
  auto count = r.integer("count");
  if ((list != nullptr) == (one != nullptr)) {
    if (r.is_object())
      r.error("", "give either \"hops\" (an array of links) or \"hop\" (one link) with \"count\"");
    ok = false;
  } else if (list != nullptr) {
    if (count)
      r.error("count", "\"count\" goes with \"hop\", not with \"hops\"");
    if (!list->is_array() || list->empty() || list->size() > static_cast<size_t>(max_hops())) {
      r.error("hops", fmt::format("expected an array of 1 to {} links, got {}", max_hops(), list->dump()));
      ok = false;
    } else {
      for (size_t i = 0; i < list->size(); ++i) {
        Reader hr((*list)[i], fmt::format("{}/hops/{}", path, i), issues, "link_model");
        const size_t first = bdp.size();
        auto c = read_link_model(hr, fmt::format("hop{}", i + 1), DelayKey::kRequired, &bdp);
        name_bdp_links(bdp, first, {fmt::format("hop{}", i + 1), fmt::format("hop{}_rev", i + 1)});
        hr.finish();
        ok = ok && c.has_value();
        if (c)
          hops.push_back(*c);
      }
    }
  } else {
    if (!count) {
      if (r.get("count") == nullptr)
        r.error("count", fmt::format("missing required key (the number of hops, 1 to {}, with \"hop\")", max_hops()));
      ok = false;
    }
    Reader hr(*one, r.path_of("hop"), issues, "link_model");
    const size_t first = bdp.size();
    auto c = read_link_model(hr, "hop", DelayKey::kRequired, &bdp);
    hr.finish();
    ok = ok && c.has_value();
    std::vector<std::string> every_hop;
    for (int64_t i = 0; i < count.value_or(0); ++i) {
      every_hop.push_back(fmt::format("hop{}", i + 1));
      every_hop.push_back(fmt::format("hop{}_rev", i + 1));
    }
    name_bdp_links(bdp, first, every_hop);
    for (int64_t i = 0; c && i < count.value_or(0); ++i) {
      hops.push_back(*c);
      hops.back().id = fmt::format("hop{}", i + 1);
    }
  }
  if (const json* a = r.get("access")) {
    Reader ar(*a, r.path_of("access"), issues, "link_model");
    const size_t first = bdp.size();
    auto c = read_link_model(ar, "access", DelayKey::kOptional, &bdp);
    ar.finish();
    ok = ok && c.has_value() && access_bdp_ok(bdp, first, issues);
    if (c)
      shape.access = *c;
  } else {
    if (r.is_object())
      r.error("access", "missing required key (expected an object with rate, buffer and optionally delay)");
    ok = false;
  }
  r.finish();
  if (!ok)
    return std::nullopt;
  for (size_t i = 0; i <= hops.size(); ++i)
    s.nodes.push_back(fmt::format("r{}", i));
  const net::LinkConfig* slowest = nullptr;
  for (size_t i = 0; i < hops.size(); ++i) {
    net::LinkConfig rev = hops[i];
    rev.id += "_rev";
    rev.loss_rate = 0;  // random loss applies to the data direction only
    s.links.push_back({hops[i], fmt::format("r{}", i), fmt::format("r{}", i + 1), true});
    s.links.push_back({rev, fmt::format("r{}", i + 1), fmt::format("r{}", i), false});
    shape.hop_delays.push_back(hops[i].delay);
    if (slowest == nullptr || hops[i].rate.bps < slowest->rate.bps)
      slowest = &hops[i];
  }
  s.bottleneck = slowest->id;
  return shape;
}

/// Outgoing links of every node, in declaration order (ties in BFS go to the first).
using Adjacency = std::map<std::string, std::vector<size_t>>;

Adjacency adjacency(const std::vector<LinkSpec>& links) {
  Adjacency out;
  for (size_t i = 0; i < links.size(); ++i)
    out[links[i].from].push_back(i);
  return out;
}

/// Shortest path by hop count as link indices; nullopt if there is none.
std::optional<std::vector<size_t>> shortest_path(const std::vector<LinkSpec>& links, const Adjacency& adj,
                                                 const std::string& from, const std::string& to) {
  std::map<std::string, size_t> via;  // node -> link that reached it
  std::set<std::string> seen{from};
  std::deque<std::string> frontier{from};
  while (!frontier.empty() && !seen.count(to)) {
    const std::string at = frontier.front();
    frontier.pop_front();
    auto it = adj.find(at);
    if (it == adj.end())
      continue;
    for (size_t li : it->second) {
      if (seen.insert(links[li].to).second) {
        via[links[li].to] = li;
        frontier.push_back(links[li].to);
      }
    }
  }
  if (!seen.count(to) || from == to)
    return std::nullopt;
  std::vector<size_t> path;
  for (std::string at = to; at != from; at = links[path.back()].from)
    path.push_back(via.at(at));
  std::reverse(path.begin(), path.end());
  return path;
}

/// Link indices joining consecutive nodes (the first declared link of each hop);
/// nullopt if a hop has no link.
std::optional<std::vector<size_t>> path_links(const std::vector<LinkSpec>& links, const Adjacency& adj,
                                              const std::vector<std::string>& nodes) {
  std::vector<size_t> out;
  for (size_t k = 0; k + 1 < nodes.size(); ++k) {
    auto it = adj.find(nodes[k]);
    if (it == adj.end())
      return std::nullopt;
    auto hop =
        std::find_if(it->second.begin(), it->second.end(), [&](size_t li) { return links[li].to == nodes[k + 1]; });
    if (hop == it->second.end())
      return std::nullopt;
    out.push_back(*hop);
  }
  return out;
}

std::vector<std::string> nodes_of(const std::vector<LinkSpec>& links, const std::vector<size_t>& path) {
  std::vector<std::string> nodes{links[path.front()].from};
  for (size_t li : path)
    nodes.push_back(links[li].to);
  return nodes;
}

void read_nodes(Reader& tr, const json& nodes, Scenario& s, TopologyRead& result) {
  if (!nodes.is_array() || nodes.empty()) {
    tr.error("nodes", fmt::format("expected a non-empty array of node ids, got {}", nodes.dump()));
    result.ok = false;
    return;
  }
  std::set<std::string> seen;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const std::string p = fmt::format("/topology/nodes/{}", i);
    const json& n = nodes[i];
    std::optional<std::string> id;
    if (n.is_string()) {
      id = n.get<std::string>();
      if (!valid_id(*id)) {
        tr.issues().push_back(
            {p, fmt::format("invalid node id \"{}\": use 1 to 128 letters, digits, '-', '_' or '.'", *id)});
        id.reset();
      }
    } else if (n.is_object()) {
      Reader nr(n, p, tr.issues(), "node");
      id = nr.id("id", true);
      (void)nr.choice("kind");
      nr.finish();
    } else {
      tr.issues().push_back({p, fmt::format("expected a node id string or {{\"id\", \"kind\"}}, got {}", n.dump())});
    }
    if (!id) {
      result.ok = false;
    } else if (!seen.insert(*id).second) {
      tr.issues().push_back({p, fmt::format("duplicate node id \"{}\"", *id)});
      result.ok = false;
    } else {
      s.nodes.push_back(*id);
    }
  }
}

void read_links(Reader& tr, const json& links, Scenario& s, TopologyRead& result) {
  if (!links.is_array() || links.empty()) {
    tr.error("links", fmt::format("expected a non-empty array of links, got {}", links.dump()));
    result.ok = false;
    return;
  }
  const std::set<std::string> nodes(s.nodes.begin(), s.nodes.end());
  std::set<std::string>& ids = result.link_ids;  // every id read, valid or not (the bottleneck's lookup)
  for (size_t i = 0; i < links.size(); ++i) {
    Reader lr(links[i], fmt::format("/topology/links/{}", i), tr.issues(), "link");
    auto id = lr.id("id", true);
    auto from = lr.string("from", true);
    auto to = lr.string("to", true);
    const size_t first = result.bdp_buffers.size();
    auto model = read_link_model(lr, id.value_or(""), DelayKey::kRequired, &result.bdp_buffers);
    auto monitor = lr.boolean("monitor");
    const bool duplex = lr.boolean("duplex").value_or(false);
    lr.finish();
    bool ok = lr.is_object() && id && from && to && model;
    if (id && !ids.insert(*id).second) {
      lr.error("id", fmt::format("duplicate link id \"{}\"", *id));
      ok = false;
    }
    // A duplex link is two one-way links: ID from -> to and ID_rev to -> from (the naming
    // of the dumbbell's and parking lot's reverse links).
    const std::string rev_id = id.value_or("") + "_rev";
    if (id && duplex && !ids.insert(rev_id).second) {
      lr.error("duplex",
               fmt::format("the reverse link of duplex link \"{}\" is named \"{}\", a duplicate link id", *id, rev_id));
      ok = false;
    }
    if (id)
      name_bdp_links(result.bdp_buffers, first, duplex ? std::vector<std::string>{*id, rev_id} : std::vector{*id});
    for (const auto& [key, node] : {std::pair{"from", from}, std::pair{"to", to}}) {
      if (node && !nodes.count(*node)) {
        lr.error(key, fmt::format("no node \"{}\" in /topology/nodes", *node));
        ok = false;
      }
    }
    if (from && to && *from == *to) {
      lr.error("to", "a link must join two different nodes");
      ok = false;
    }
    if (!ok) {
      result.ok = false;
      continue;
    }
    LinkSpec l;
    l.link = *model;
    l.from = *from;
    l.to = *to;
    l.monitor = monitor.value_or(true);
    s.links.push_back(l);
    if (duplex) {  // the same rate, delay and queue; random loss on the declared direction only
      LinkSpec rev = l;
      rev.link.id = rev_id;
      rev.link.loss_rate = 0;
      std::swap(rev.from, rev.to);
      s.links.push_back(rev);
    }
  }
}

}  // namespace

TopologyRead read_topology(Reader& top, Scenario& s) {
  TopologyRead result;
  const json* t = top.get("topology");
  if (t == nullptr) {
    top.error("topology",
              "missing required key (expected {\"dumbbell\": {...}}, {\"parking_lot\": {...}} or "
              "{\"nodes\", \"links\"})");
    return result;
  }
  Reader tr(*t, "/topology", top.issues(), "topology");
  const json* db = tr.get("dumbbell");
  const json* pl = tr.get("parking_lot");
  const json* nodes = tr.get("nodes");
  const json* links = tr.get("links");
  auto bottleneck = tr.string("bottleneck");
  const int shapes = (db != nullptr) + (pl != nullptr) + (nodes != nullptr || links != nullptr);
  if (shapes > 1) {
    tr.error("", "give one of \"dumbbell\", \"parking_lot\" or \"nodes\" and \"links\"");
  } else if (db != nullptr || pl != nullptr) {
    if (db != nullptr) {
      result.kind = TopologyRead::Kind::kDumbbell;
      result.dumbbell = read_dumbbell(*db, "/topology/dumbbell", top.issues(), result.bdp_buffers);
      result.ok = result.dumbbell.has_value();
    } else {
      result.kind = TopologyRead::Kind::kParkingLot;
      result.parking_lot = read_parking_lot(*pl, "/topology/parking_lot", s, top.issues(), result.bdp_buffers);
      result.ok = result.parking_lot.has_value();
    }
    if (bottleneck && db != nullptr) {
      tr.error("bottleneck", "not used with a dumbbell (its bottleneck is the link \"bottleneck\")");
    } else if (bottleneck && result.parking_lot) {  // which hop the interval metrics follow
      const bool hop = std::any_of(s.links.begin(), s.links.end(),
                                   [&](const LinkSpec& l) { return l.link.id == *bottleneck && l.monitor; });
      if (!hop) {
        tr.error("bottleneck", fmt::format("no hop \"{}\": expected one of hop1 .. hop{}", *bottleneck,
                                           result.parking_lot->hop_delays.size()));
      } else {
        s.bottleneck = *bottleneck;
      }
    }
  } else if (nodes != nullptr && links != nullptr) {
    result.kind = TopologyRead::Kind::kExplicit;
    result.ok = true;
    read_nodes(tr, *nodes, s, result);
    read_links(tr, *links, s, result);
    if (bottleneck) {  // a link with errors of its own is named (those errors are reported)
      if (!result.link_ids.count(*bottleneck))
        tr.error("bottleneck", fmt::format("no link \"{}\" in /topology/links", *bottleneck));
      s.bottleneck = *bottleneck;
    }
  } else if (tr.is_object()) {
    tr.error("", "expected {\"dumbbell\": {...}}, {\"parking_lot\": {...}} or {\"nodes\": [...], \"links\": [...]}");
  }
  tr.finish();

  if (result.dumbbell) {
    const DumbbellShape& dumbbell = *result.dumbbell;
    s.nodes = {"r1", "r2"};
    net::LinkConfig rev = dumbbell.bottleneck;
    rev.id = "bottleneck_rev";
    rev.loss_rate = 0;  // random loss applies to the forward (data) direction only
    s.links.push_back({dumbbell.bottleneck, "r1", "r2", true});  // index 0
    s.links.push_back({rev, "r2", "r1", false});                 // index 1
    s.bottleneck = "bottleneck";
  }
  return result;
}

void resolve_routes(Scenario& s, Issues& issues) {
  const Adjacency adj = adjacency(s.links);
  std::set<std::string> reported;  // one message per entry of "flows", however many replicas
  auto resolve = [&](FlowSpec& f, const char* array, bool needs_ack_route) {
    auto report = [&](const std::string& sub, const std::string& message) {
      const std::string path = fmt::format("/{}/{}{}", array, f.json_index, sub);
      if (reported.insert(path + message).second)
        issues.push_back({path, message});
    };
    if (!f.data_links.empty())
      return;
    if (f.route.empty()) {
      auto path = shortest_path(s.links, adj, f.src, f.dst);
      if (!path) {
        report("", fmt::format("no route from \"{}\" to \"{}\"", f.src, f.dst));
        return;
      }
      f.data_links = *path;
      f.route = nodes_of(s.links, f.data_links);
    } else {
      const std::set<std::string> distinct(f.route.begin(), f.route.end());
      auto data = path_links(s.links, adj, f.route);
      if (!data || f.route.front() != f.src || f.route.back() != f.dst || distinct.size() != f.route.size()) {
        report("/route", fmt::format("route {} does not lead from \"{}\" to \"{}\" over existing links without a loop",
                                     json(f.route).dump(), f.src, f.dst));
        return;
      }
      f.data_links = *data;
    }
    if (!needs_ack_route)
      return;
    auto back = shortest_path(s.links, adj, f.dst, f.src);
    if (!back) {
      report("", fmt::format("no route for ACKs from \"{}\" back to \"{}\"", f.dst, f.src));
      return;
    }
    f.ack_links = *back;
  };
  for (auto& f : s.flows)
    resolve(f, "flows", true);
  for (auto& u : s.udp)
    resolve(u.path, "udp", false);
  for (auto& a : s.arrivals) {
    for (auto& p : a.paths)
      resolve(p, "arrivals", true);
  }
  // A route's propagation delays, summed in seconds (a long explicit chain of links of up to
  // 1e6 s each would pass the range of a time), must make a round trip fastsim can hold:
  // later sums over a route (a flow's base RTT for a BDP buffer, estimates) are then safe.
  auto check_round_trip = [&](const FlowSpec& f, const char* array) {
    double round_trip_s = 0;
    for (const auto* links : {&f.data_links, &f.ack_links}) {
      for (size_t li : *links)
        round_trip_s += s.links[li].link.delay.to_seconds();
    }
    if (round_trip_s <= kMaxDurationSeconds)
      return;
    const std::string path = fmt::format("/{}/{}", array, f.json_index);
    const std::string message =
        fmt::format("the propagation delays of its route ({} links) and of its ACKs' ({}) add up to {:.6g} s, longer "
                    "than {:.0e} s (the longest round trip fastsim takes)",
                    f.data_links.size(), f.ack_links.size(), round_trip_s, kMaxDurationSeconds);
    if (reported.insert(path + message).second)
      issues.push_back({path, message});
  };
  for (const auto& f : s.flows)
    check_round_trip(f, "flows");
  for (const auto& u : s.udp)
    check_round_trip(u.path, "udp");
  for (const auto& a : s.arrivals) {
    for (const auto& p : a.paths)
      check_round_trip(p, "arrivals");
  }
  // Local congestion asks the first hop whether it has room: a drop-tail FIFO only (an
  // AQM discipline drops at dequeue, so its admission says nothing of what it will drop).
  auto check_local_congestion = [&](const FlowSpec& f, const char* array) {
    if (!f.tcp.local_congestion || f.data_links.empty())
      return;
    const net::LinkConfig& nic = s.links[f.data_links.front()].link;
    if (!nic.red && !nic.aqm && nic.tick == Duration::zero())
      return;
    const char* kind = nic.red ? "a RED queue"
                       : nic.aqm ? (nic.aqm->kind == net::AqmKind::kCodel     ? "a CoDel queue"
                                    : nic.aqm->kind == net::AqmKind::kFqCodel ? "an FQ-CoDel queue"
                                                                              : "a PIE queue")
                                 : "a dummynet pipe";
    const std::string path = fmt::format("/{}/{}", array, f.json_index);
    const std::string message =
        fmt::format("local_congestion needs a drop-tail transmit queue at the first hop, but link \"{}\" is {}", nic.id,
                    kind);
    if (reported.insert(path + message).second)
      issues.push_back({path, message});
  };
  for (const auto& f : s.flows)
    check_local_congestion(f, "flows");
  for (const auto& a : s.arrivals) {
    for (const auto& p : a.paths)
      check_local_congestion(p, "arrivals");
  }
  if (s.bottleneck.empty()) {  // explicit topology: slowest monitored link, else slowest link
    const LinkSpec* best = nullptr;
    for (const auto& l : s.links) {
      const bool better = best == nullptr || (l.monitor && !best->monitor) ||
                          (l.monitor == best->monitor && l.link.rate.bps < best->link.rate.bps);
      if (better)
        best = &l;
    }
    if (best != nullptr)
      s.bottleneck = best->link.id;
  }
  for (auto& l : s.links) {  // interval metrics need the bottleneck's samples
    if (l.link.id == s.bottleneck)
      l.monitor = true;
  }
}

}  // namespace fastsim::config::detail
