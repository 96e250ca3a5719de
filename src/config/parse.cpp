// Scenario parsing and validation (see parse.hpp). Expands the dumbbell and `count`
// shorthands, fills defaults, resolves routes, and echoes the resolved scenario.
#include "fastsim/config/parse.hpp"

#include <algorithm>
#include <deque>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "fastsim/cc/registry.hpp"
#include "reader.hpp"

namespace fastsim::config {

ScenarioError::ScenarioError(Issues issues)
    : std::runtime_error([&] {
        std::string msg;
        for (const auto& i : issues)
          msg += (msg.empty() ? "" : "\n") + i.to_string();
        return msg;
      }()),
      issues_(std::move(issues)) {}

namespace {

using nlohmann::json;

bool valid_id(const std::string& s) {
  if (s.empty() || s.size() > 128)
    return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
  });
}

/// Reads TCP settings present in `r` on top of `cfg`; `rwnd_bytes` keeps the byte value.
void read_tcp(Reader& r, tcp::TcpConfig& cfg, std::optional<uint64_t>& rwnd_bytes) {
  if (auto v = r.integer("mss", 1, 65535))
    cfg.mss = static_cast<uint32_t>(*v);
  if (auto v = r.integer("packet_size", 1, 65535))
    cfg.packet_size = static_cast<uint32_t>(*v);
  if (auto v = r.integer("ack_size", 1, 65535))
    cfg.ack_size = static_cast<uint32_t>(*v);
  if (auto v = r.boolean("delayed_ack"))
    cfg.delayed_ack = *v;
  if (auto v = r.duration("delayed_ack_timeout", false, true))
    cfg.delayed_ack_timeout = *v;
  if (auto v = r.boolean("sack"))
    cfg.sack = *v;
  if (auto v = r.integer("dupack_threshold", 1, 1000))
    cfg.dupack_threshold = static_cast<uint32_t>(*v);
  if (auto v = r.duration("min_rto", false, true))
    cfg.min_rto = *v;
  if (auto v = r.duration("initial_rto", false, true))
    cfg.initial_rto = *v;
  if (auto v = r.duration("max_rto", false, true))
    cfg.max_rto = *v;
  if (auto v = r.number("initial_window", 1, 1e7))
    cfg.initial_window = *v;
  if (auto v = r.number("initial_ssthresh", 2, 1e18))
    cfg.initial_ssthresh = *v;
  if (auto v = r.size("receive_window"))
    rwnd_bytes = *v;
}

void check_tcp(Reader& r, const tcp::TcpConfig& cfg) {
  if (cfg.packet_size < cfg.mss) {
    r.error("packet_size", fmt::format("packet_size ({}) must be at least mss ({})", cfg.packet_size, cfg.mss));
  }
  if (cfg.max_rto < cfg.min_rto)
    r.error("max_rto", "max_rto must be at least min_rto");
}

json tcp_to_json(const tcp::TcpConfig& c, std::optional<uint64_t> rwnd_bytes) {
  json j = {{"mss", c.mss},
            {"packet_size", c.packet_size},
            {"ack_size", c.ack_size},
            {"delayed_ack", c.delayed_ack},
            {"delayed_ack_timeout", format_duration(c.delayed_ack_timeout)},
            {"sack", c.sack},
            {"dupack_threshold", c.dupack_threshold},
            {"min_rto", format_duration(c.min_rto)},
            {"initial_rto", format_duration(c.initial_rto)},
            {"max_rto", format_duration(c.max_rto)},
            {"initial_window", c.initial_window}};
  if (c.initial_ssthresh < 1e17)
    j["initial_ssthresh"] = c.initial_ssthresh;
  if (rwnd_bytes)
    j["receive_window"] = *rwnd_bytes;
  return j;
}

cc::ParamValues read_params(Reader& flow, const cc::AlgorithmInfo* algo, json& echo) {
  cc::ParamValues values;
  if (algo == nullptr) {
    flow.allow("params");
    return values;
  }
  for (const auto& spec : algo->params)
    values.set(spec.name, spec.default_value);
  const json* p = flow.get("params");
  if (p != nullptr) {
    Reader pr(*p, flow.path_of("params"), flow.issues());
    for (const auto& spec : algo->params) {
      if (auto v = pr.number(spec.name, spec.min, spec.max))
        values.set(spec.name, *v);
    }
    if (pr.is_object()) {
      for (const auto& [key, value] : p->items()) {
        const bool known = std::any_of(algo->params.begin(), algo->params.end(),
                                       [&](const cc::ParamSpec& s) { return s.name == key; });
        if (!known) {
          std::vector<std::string> names;
          for (const auto& s : algo->params)
            names.push_back(s.name);
          pr.error(key, fmt::format("unknown parameter \"{}\" for algorithm \"{}\"; allowed: {}", key, algo->name,
                                    names.empty() ? "(none)" : fmt::format("{}", fmt::join(names, ", "))));
        }
      }
    }
  }
  json e = json::object();
  for (const auto& [k, v] : values.all())
    e[k] = v;
  echo = e;
  return values;
}

struct DumbbellShape {
  net::LinkConfig bottleneck;
  Rate access_rate;
  net::BufferLimit access_buffer;
  double access_loss = 0;
};

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
std::vector<std::string> bfs_route(const Scenario& s, const std::string& from, const std::string& to) {
  std::map<std::string, std::string> parent;
  std::deque<std::string> frontier{from};
  parent[from] = from;
  while (!frontier.empty()) {
    const std::string at = frontier.front();
    frontier.pop_front();
    if (at == to)
      break;
    for (const auto& l : s.links) {
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

bool has_link(const Scenario& s, const std::string& a, const std::string& b) {
  return std::any_of(s.links.begin(), s.links.end(), [&](const LinkSpec& l) { return l.from == a && l.to == b; });
}

}  // namespace

Scenario parse_scenario(const json& doc) {
  Issues issues;
  Scenario s;
  Reader top(doc, "", issues);
  if (!top.is_object())
    throw ScenarioError(issues);
  json resolved = doc;

  s.name = top.string("name").value_or("scenario");
  s.description = top.string("description").value_or("");
  if (auto v = top.integer("seed", 0, INT64_MAX))
    s.seed = static_cast<uint64_t>(*v);
  auto duration = top.duration("duration", true, true);
  if (duration)
    s.duration = *duration;
  if (auto v = top.duration("sample_interval", false, true))
    s.sample_interval = *v;
  if (auto v = top.duration("warmup"))
    s.warmup = *v;
  if (duration && s.sample_interval > s.duration) {
    top.error("sample_interval", "sample_interval must not exceed duration");
  }
  resolved["seed"] = s.seed;
  resolved["sample_interval"] = format_duration(s.sample_interval);
  resolved["warmup"] = format_duration(s.warmup);

  tcp::TcpConfig base_tcp;
  std::optional<uint64_t> base_rwnd;
  if (const json* d = top.get("defaults")) {
    Reader dr(*d, "/defaults", issues);
    read_tcp(dr, base_tcp, base_rwnd);
    check_tcp(dr, base_tcp);
    dr.finish();
  }
  resolved["defaults"] = tcp_to_json(base_tcp, base_rwnd);

  // Topology.
  std::optional<DumbbellShape> dumbbell;
  bool topology_ok = false;
  if (const json* t = top.get("topology")) {
    Reader tr(*t, "/topology", issues);
    const json* db = tr.get("dumbbell");
    const json* nodes = tr.get("nodes");
    const json* links = tr.get("links");
    auto bottleneck = tr.string("bottleneck");
    if (db != nullptr && (nodes != nullptr || links != nullptr)) {
      tr.error("", "give either \"dumbbell\" or \"nodes\" and \"links\", not both");
    } else if (db != nullptr) {
      dumbbell = read_dumbbell(*db, "/topology/dumbbell", issues);
      if (bottleneck)
        tr.error("bottleneck", "not used with a dumbbell (its bottleneck link is \"bottleneck\")");
      topology_ok = dumbbell.has_value();
    } else if (nodes != nullptr && links != nullptr) {
      topology_ok = true;
      if (!nodes->is_array() || nodes->empty()) {
        tr.error("nodes", fmt::format("expected a non-empty array of node ids, got {}", nodes->dump()));
        topology_ok = false;
      } else {
        for (size_t i = 0; i < nodes->size(); ++i) {
          const std::string p = fmt::format("/topology/nodes/{}", i);
          const json& n = (*nodes)[i];
          std::string id;
          if (n.is_string()) {
            id = n.get<std::string>();
          } else if (n.is_object()) {
            Reader nr(n, p, issues);
            id = nr.string("id", true).value_or("");
            if (auto kind = nr.string("kind"); kind && *kind != "host" && *kind != "router") {
              nr.error("kind", fmt::format("expected \"host\" or \"router\", got \"{}\"", *kind));
            }
            nr.finish();
          } else {
            issues.push_back({p, fmt::format("expected a node id string or {{\"id\", \"kind\"}}, got {}", n.dump())});
          }
          if (id.empty())
            continue;
          if (!valid_id(id)) {
            issues.push_back({p, fmt::format("invalid node id \"{}\" (letters, digits, '-', '_', '.')", id)});
          } else if (std::find(s.nodes.begin(), s.nodes.end(), id) != s.nodes.end()) {
            issues.push_back({p, fmt::format("duplicate node id \"{}\"", id)});
          } else {
            s.nodes.push_back(id);
          }
        }
      }
      if (!links->is_array() || links->empty()) {
        tr.error("links", fmt::format("expected a non-empty array of links, got {}", links->dump()));
        topology_ok = false;
      } else {
        for (size_t i = 0; i < links->size(); ++i) {
          Reader lr((*links)[i], fmt::format("/topology/links/{}", i), issues);
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
            topology_ok = false;
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

  if (dumbbell) {
    s.nodes = {"r1", "r2"};
    net::LinkConfig rev = dumbbell->bottleneck;
    rev.id = "bottleneck_rev";
    rev.loss_rate = 0;  // random loss applies to the forward (data) direction only
    s.links.push_back({dumbbell->bottleneck, "r1", "r2", true});
    s.links.push_back({rev, "r2", "r1", false});
    s.bottleneck = "bottleneck";
  }

  // Flows.
  const json* flows = top.get("flows");
  if (flows == nullptr) {
    top.error("flows", "missing required key (expected a non-empty array of flows)");
  } else if (!flows->is_array() || flows->empty()) {
    top.error("flows", fmt::format("expected a non-empty array of flows, got {}", flows->dump()));
  } else {
    std::set<std::string> flow_ids;
    for (size_t i = 0; i < flows->size(); ++i) {
      const std::string fp = fmt::format("/flows/{}", i);
      Reader fr((*flows)[i], fp, issues);
      FlowSpec f;
      f.tcp = base_tcp;
      std::optional<uint64_t> rwnd = base_rwnd;
      f.id = fr.string("id", true).value_or("");
      if (!f.id.empty() && !valid_id(f.id)) {
        fr.error("id", fmt::format("invalid flow id \"{}\" (letters, digits, '-', '_', '.')", f.id));
      }
      f.algorithm = fr.string("algorithm").value_or("reno");
      const cc::AlgorithmInfo* algo = cc::find_algorithm(f.algorithm);
      if (algo == nullptr) {
        fr.error("algorithm", fmt::format("unknown algorithm \"{}\"; allowed: {}", f.algorithm, cc::algorithm_names()));
      }
      json params_echo;
      f.params = read_params(fr, algo, params_echo);
      f.start = fr.duration("start").value_or(Duration::zero());
      f.stop = fr.duration("stop");
      f.size_bytes = fr.size("size");
      auto count = fr.integer("count", 1, 100000);
      Duration rtt = Duration::zero();  // zero: not usable
      if (dumbbell) {
        rtt = fr.duration("rtt", true, true).value_or(Duration::zero());
        if (rtt > Duration::zero() && rtt < dumbbell->bottleneck.delay * 2) {
          fr.error("rtt", fmt::format("rtt {} is shorter than the round trip over the bottleneck alone ({})",
                                      format_duration(rtt), format_duration(dumbbell->bottleneck.delay * 2)));
          rtt = Duration::zero();
        }
      } else {
        f.src = fr.string("src", true).value_or("");
        f.dst = fr.string("dst", true).value_or("");
        if (const json* route = fr.get("route")) {
          if (!route->is_array() || route->size() < 2 ||
              !std::all_of(route->begin(), route->end(), [](const json& n) { return n.is_string(); })) {
            fr.error("route", fmt::format("expected an array of at least two node ids, got {}", route->dump()));
          } else {
            for (const auto& n : *route)
              f.route.push_back(n.get<std::string>());
          }
        }
      }
      read_tcp(fr, f.tcp, rwnd);
      check_tcp(fr, f.tcp);
      if (rwnd)
        f.tcp.receive_window = std::max<uint64_t>(1, *rwnd / f.tcp.mss);
      fr.finish();
      if (!fr.is_object())
        continue;

      if (duration && f.start >= s.duration) {
        fr.error("start", fmt::format("start {} is not before the end of the run ({})", format_duration(f.start),
                                      format_duration(s.duration)));
      }
      if (f.stop && *f.stop <= f.start) {
        fr.error("stop",
                 fmt::format("stop {} must be after start {}", format_duration(*f.stop), format_duration(f.start)));
      }
      if (!dumbbell && topology_ok) {
        for (const char* key : {"src", "dst"}) {
          const std::string& node = std::string(key) == "src" ? f.src : f.dst;
          if (!node.empty() && std::find(s.nodes.begin(), s.nodes.end(), node) == s.nodes.end()) {
            fr.error(key, fmt::format("no node \"{}\" in /topology/nodes", node));
          }
        }
        if (!f.src.empty() && f.src == f.dst)
          fr.error("dst", "a flow needs different src and dst");
      }

      json& echo = resolved["flows"][i];
      echo["algorithm"] = f.algorithm;
      if (algo != nullptr)
        echo["params"] = params_echo;

      const int64_t n = count.value_or(1);
      for (int64_t k = 0; k < n; ++k) {
        FlowSpec copy = f;
        if (count)
          copy.id = fmt::format("{}-{}", f.id, k);
        if (!copy.id.empty() && !flow_ids.insert(copy.id).second) {
          fr.error("id", fmt::format("duplicate flow id \"{}\"", copy.id));
          break;
        }
        if (dumbbell && rtt > Duration::zero()) {
          const Duration access = (rtt / 2 - dumbbell->bottleneck.delay) / 2;
          const std::string src = copy.id + ".src";
          const std::string dst = copy.id + ".dst";
          s.nodes.push_back(src);
          s.nodes.push_back(dst);
          auto access_link = [&](const std::string& id, bool data_direction) {
            return net::LinkConfig{id, dumbbell->access_rate, access, dumbbell->access_buffer,
                                   data_direction ? dumbbell->access_loss : 0.0};
          };
          s.links.push_back({access_link(copy.id + ".access_src", true), src, "r1", false});
          s.links.push_back({access_link(copy.id + ".access_src_rev", false), "r1", src, false});
          s.links.push_back({access_link(copy.id + ".access_dst", true), "r2", dst, false});
          s.links.push_back({access_link(copy.id + ".access_dst_rev", false), dst, "r2", false});
          copy.src = src;
          copy.dst = dst;
        }
        s.flows.push_back(std::move(copy));
      }
    }
  }

  // Extra monitored links.
  if (const json* mon = top.get("monitor")) {
    if (!mon->is_array() || !std::all_of(mon->begin(), mon->end(), [](const json& m) { return m.is_string(); })) {
      top.error("monitor", fmt::format("expected an array of link ids, got {}", mon->dump()));
    } else {
      for (size_t i = 0; i < mon->size(); ++i) {
        const std::string id = (*mon)[i].get<std::string>();
        auto it = std::find_if(s.links.begin(), s.links.end(), [&](const LinkSpec& l) { return l.link.id == id; });
        if (it == s.links.end()) {
          issues.push_back({fmt::format("/monitor/{}", i), fmt::format("no link \"{}\"", id)});
        } else {
          it->monitor = true;
        }
      }
    }
  }
  top.finish();

  // Routes (only once the topology and flows are sound).
  if (issues.empty()) {
    for (size_t i = 0; i < s.flows.size(); ++i) {
      FlowSpec& f = s.flows[i];
      const std::string fp = fmt::format("/flows/{}", i);
      if (!f.route.empty()) {
        bool ok = f.route.front() == f.src && f.route.back() == f.dst;
        for (size_t k = 0; ok && k + 1 < f.route.size(); ++k)
          ok = has_link(s, f.route[k], f.route[k + 1]);
        if (!ok) {
          issues.push_back(
              {fp + "/route", fmt::format("route {} does not lead from \"{}\" to \"{}\" over existing links",
                                          json(f.route).dump(), f.src, f.dst)});
        }
      } else if (!dumbbell) {
        f.route = bfs_route(s, f.src, f.dst);
        if (f.route.empty())
          issues.push_back({fp, fmt::format("no route from \"{}\" to \"{}\"", f.src, f.dst)});
      } else {
        f.route = {f.src, "r1", "r2", f.dst};
      }
      if (!dumbbell && bfs_route(s, f.dst, f.src).empty()) {
        issues.push_back({fp, fmt::format("no route for ACKs from \"{}\" back to \"{}\"", f.dst, f.src)});
      }
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
  if (!issues.empty())
    throw ScenarioError(issues);
  s.resolved = resolved;
  return s;
}

json load_json_file(const std::string& path) {
  std::ifstream in(path);
  if (!in)
    throw ScenarioError({{"", fmt::format("cannot open scenario file \"{}\"", path)}});
  std::stringstream buf;
  buf << in.rdbuf();
  try {
    return json::parse(buf.str());
  } catch (const json::parse_error& e) {
    throw ScenarioError({{"", fmt::format("\"{}\" is not valid JSON: {}", path, e.what())}});
  }
}

void apply_overrides(json& doc, const std::vector<std::string>& assignments) {
  Issues issues;
  for (const auto& a : assignments) {
    const auto eq = a.find('=');
    if (eq == std::string::npos || a.empty() || a[0] != '/') {
      issues.push_back({"", fmt::format("--set expects /json/pointer=value, got \"{}\"", a)});
      continue;
    }
    const std::string pointer = a.substr(0, eq);
    const std::string text = a.substr(eq + 1);
    json value;
    try {
      value = json::parse(text);
    } catch (const json::parse_error&) {
      value = text;
    }
    try {
      const json::json_pointer ptr(pointer);
      if (!ptr.parent_pointer().empty() && !doc.contains(ptr.parent_pointer())) {
        issues.push_back({pointer, "--set: the parent of this path does not exist in the scenario"});
        continue;
      }
      doc[ptr] = value;
    } catch (const json::exception& e) {
      issues.push_back({pointer, fmt::format("--set: cannot set this path: {}", e.what())});
    }
  }
  if (!issues.empty())
    throw ScenarioError(issues);
}

}  // namespace fastsim::config
