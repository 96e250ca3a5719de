// Topologies for the scenario parser: the dumbbell shorthand (expanded into explicit
// routers, hosts and links) and explicit node/link lists; routes by hop count.
#include <algorithm>
#include <deque>
#include <map>

#include <fmt/format.h>

#include "parse_parts.hpp"

namespace fastsim::config::detail {

using nlohmann::json;

namespace {

std::optional<DumbbellShape> read_dumbbell(const json& j, const std::string& path, Issues& issues) {
  Reader r(j, path, issues);
  DumbbellShape d;
  bool ok = r.is_object();
  if (const json* b = r.get("bottleneck")) {
    Reader br(*b, r.path_of("bottleneck"), issues);
    auto rate = br.rate("rate", true);
    auto delay = br.duration("delay", true);
    auto buf = br.buffer("buffer", true);
    auto loss = br.number("loss_rate", 0, 1);
    br.finish();
    if (!rate || !delay || !buf)
      ok = false;
    if (ok)
      d.bottleneck = {"bottleneck", *rate, *delay, *buf, loss.value_or(0)};
  } else {
    if (r.is_object())
      r.error("bottleneck", "missing required key (expected an object with rate, delay, buffer)");
    ok = false;
  }
  if (const json* a = r.get("access")) {
    Reader ar(*a, r.path_of("access"), issues);
    auto rate = ar.rate("rate", true);
    auto buf = ar.buffer("buffer", true);
    auto loss = ar.number("loss_rate", 0, 1);
    ar.finish();
    if (!rate || !buf)
      ok = false;
    if (rate)
      d.access_rate = *rate;
    if (buf)
      d.access_buffer = *buf;
    d.access_loss = loss.value_or(0);
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

/// Shortest path by hop count (ties: links in declaration order); empty if none.
std::vector<std::string> shortest_path(const std::vector<LinkSpec>& links, const std::string& from,
                                       const std::string& to) {
  std::map<std::string, std::string> parent{{from, from}};
  std::deque<std::string> frontier{from};
  while (!frontier.empty() && !parent.count(to)) {
    const std::string at = frontier.front();
    frontier.pop_front();
    for (const auto& l : links) {
      if (l.from == at && !parent.count(l.to)) {
        parent[l.to] = at;
        frontier.push_back(l.to);
      }
    }
  }
  if (!parent.count(to))
    return {};
  std::vector<std::string> path{to};
  while (path.back() != from)
    path.push_back(parent[path.back()]);
  std::reverse(path.begin(), path.end());
  return path;
}

/// Indices of the links joining consecutive nodes (the first declared link of each
/// hop); nullopt if a hop has no link.
std::optional<std::vector<size_t>> path_links(const std::vector<LinkSpec>& links,
                                              const std::vector<std::string>& nodes) {
  std::vector<size_t> out;
  for (size_t k = 0; k + 1 < nodes.size(); ++k) {
    auto it = std::find_if(links.begin(), links.end(),
                           [&](const LinkSpec& l) { return l.from == nodes[k] && l.to == nodes[k + 1]; });
    if (it == links.end())
      return std::nullopt;
    out.push_back(static_cast<size_t>(it - links.begin()));
  }
  return out;
}

}  // namespace

TopologyRead read_topology(Reader& top, Scenario& s) {
  TopologyRead result;
  if (const json* t = top.get("topology")) {
    Reader tr(*t, "/topology", top.issues());
    const json* db = tr.get("dumbbell");
    const json* nodes = tr.get("nodes");
    const json* links = tr.get("links");
    auto bottleneck = tr.string("bottleneck");
    if (db != nullptr && (nodes != nullptr || links != nullptr)) {
      tr.error("", "give either \"dumbbell\" or \"nodes\" and \"links\", not both");
    } else if (db != nullptr) {
      result.dumbbell = read_dumbbell(*db, "/topology/dumbbell", top.issues());
      if (bottleneck)
        tr.error("bottleneck", "not used with a dumbbell (its bottleneck link is \"bottleneck\")");
      result.ok = result.dumbbell.has_value();
    } else if (nodes != nullptr && links != nullptr) {
      result.ok = true;
      if (!nodes->is_array() || nodes->empty()) {
        tr.error("nodes", fmt::format("expected a non-empty array of node ids, got {}", nodes->dump()));
        result.ok = false;
      } else {
        for (size_t i = 0; i < nodes->size(); ++i) {
          const std::string p = fmt::format("/topology/nodes/{}", i);
          const json& n = (*nodes)[i];
          std::string id;
          if (n.is_string()) {
            id = n.get<std::string>();
          } else if (n.is_object()) {
            Reader nr(n, p, top.issues());
            id = nr.string("id", true).value_or("");
            if (auto kind = nr.string("kind"); kind && *kind != "host" && *kind != "router") {
              nr.error("kind", fmt::format("expected \"host\" or \"router\", got \"{}\"", *kind));
            }
            nr.finish();
          } else {
            top.issues().push_back(
                {p, fmt::format("expected a node id string or {{\"id\", \"kind\"}}, got {}", n.dump())});
          }
          if (id.empty())
            continue;
          if (!valid_id(id)) {
            top.issues().push_back({p, fmt::format("invalid node id \"{}\" (letters, digits, '-', '_', '.')", id)});
          } else if (std::find(s.nodes.begin(), s.nodes.end(), id) != s.nodes.end()) {
            top.issues().push_back({p, fmt::format("duplicate node id \"{}\"", id)});
          } else {
            s.nodes.push_back(id);
          }
        }
      }
      if (!links->is_array() || links->empty()) {
        tr.error("links", fmt::format("expected a non-empty array of links, got {}", links->dump()));
        result.ok = false;
      } else {
        for (size_t i = 0; i < links->size(); ++i) {
          Reader lr((*links)[i], fmt::format("/topology/links/{}", i), top.issues());
          LinkSpec l;
          l.link.id = lr.string("id", true).value_or("");
          l.from = lr.string("from", true).value_or("");
          l.to = lr.string("to", true).value_or("");
          auto rate = lr.rate("rate", true);
          auto delay = lr.duration("delay", true);
          auto buf = lr.buffer("buffer", true);
          l.link.loss_rate = lr.number("loss_rate", 0, 1).value_or(0);
          l.monitor = lr.boolean("monitor").value_or(true);
          lr.finish();
          if (!lr.is_object())
            continue;
          bool ok = rate && delay && buf && !l.link.id.empty();
          if (!l.link.id.empty() && !valid_id(l.link.id)) {
            lr.error("id", fmt::format("invalid link id \"{}\" (letters, digits, '-', '_', '.')", l.link.id));
            ok = false;
          }
          for (const auto& other : s.links) {
            if (other.link.id == l.link.id) {
              lr.error("id", fmt::format("duplicate link id \"{}\"", l.link.id));
              ok = false;
            }
          }
          for (const char* end : {"from", "to"}) {
            const std::string& node = std::string(end) == "from" ? l.from : l.to;
            if (!node.empty() && std::find(s.nodes.begin(), s.nodes.end(), node) == s.nodes.end()) {
              lr.error(end, fmt::format("no node \"{}\" in /topology/nodes", node));
              ok = false;
            }
          }
          if (!l.from.empty() && l.from == l.to) {
            lr.error("to", "a link must join two different nodes");
            ok = false;
          }
          if (ok) {
            l.link.rate = *rate;
            l.link.delay = *delay;
            l.link.buffer = *buf;
            s.links.push_back(l);
          } else {
            result.ok = false;
          }
        }
      }
      if (bottleneck) {
        const bool found =
            std::any_of(s.links.begin(), s.links.end(), [&](const LinkSpec& l) { return l.link.id == *bottleneck; });
        if (!found)
          tr.error("bottleneck", fmt::format("no link \"{}\" in /topology/links", *bottleneck));
        s.bottleneck = *bottleneck;
      }
    } else {
      tr.error("", "expected {\"dumbbell\": {...}} or {\"nodes\": [...], \"links\": [...]}");
    }
    tr.finish();
  } else {
    top.error("topology", "missing required key (expected {\"dumbbell\": {...}} or {\"nodes\", \"links\"})");
  }

  if (result.dumbbell) {
    const DumbbellShape& dumbbell = *result.dumbbell;
    s.nodes = {"r1", "r2"};
    net::LinkConfig rev = dumbbell.bottleneck;
    rev.id = "bottleneck_rev";
    rev.loss_rate = 0;  // random loss applies to the forward (data) direction only
    s.links.push_back({dumbbell.bottleneck, "r1", "r2", true});
    s.links.push_back({rev, "r2", "r1", false});
    s.bottleneck = "bottleneck";
  }
  return result;
}

void add_dumbbell_hosts(Scenario& s, const DumbbellShape& d, FlowSpec& f, Duration rtt) {
  const Duration access = (rtt / 2 - d.bottleneck.delay) / 2;
  const std::string src = f.id + ".src";
  const std::string dst = f.id + ".dst";
  s.nodes.push_back(src);
  s.nodes.push_back(dst);
  auto access_link = [&](const std::string& id, bool data_direction) {
    return net::LinkConfig{id, d.access_rate, access, d.access_buffer, data_direction ? d.access_loss : 0.0};
  };
  s.links.push_back({access_link(f.id + ".access_src", true), src, "r1", false});
  s.links.push_back({access_link(f.id + ".access_src_rev", false), "r1", src, false});
  s.links.push_back({access_link(f.id + ".access_dst", true), "r2", dst, false});
  s.links.push_back({access_link(f.id + ".access_dst_rev", false), dst, "r2", false});
  f.src = src;
  f.dst = dst;
}

void resolve_routes(Scenario& s, Issues& issues) {
  for (size_t i = 0; i < s.flows.size(); ++i) {
    FlowSpec& f = s.flows[i];
    const std::string fp = fmt::format("/flows/{}", i);
    if (f.route.empty()) {
      f.route = shortest_path(s.links, f.src, f.dst);
      if (f.route.empty()) {
        issues.push_back({fp, fmt::format("no route from \"{}\" to \"{}\"", f.src, f.dst)});
        continue;
      }
    }
    auto data = path_links(s.links, f.route);
    if (!data || f.route.front() != f.src || f.route.back() != f.dst) {
      issues.push_back({fp + "/route", fmt::format("route {} does not lead from \"{}\" to \"{}\" over existing links",
                                                   json(f.route).dump(), f.src, f.dst)});
      continue;
    }
    f.data_links = *data;
    const auto back = shortest_path(s.links, f.dst, f.src);
    if (back.empty()) {
      issues.push_back({fp, fmt::format("no route for ACKs from \"{}\" back to \"{}\"", f.dst, f.src)});
      continue;
    }
    f.ack_links = *path_links(s.links, back);
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
}

}  // namespace fastsim::config::detail
