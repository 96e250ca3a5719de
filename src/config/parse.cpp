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

#include "fastsim/core/rng.hpp"
#include "parse_parts.hpp"

namespace fastsim::config {

ScenarioError::ScenarioError(Issues issues)
    : std::runtime_error([&] {
        std::string msg;
        for (const auto& i : issues)
          msg += (msg.empty() ? "" : "\n") + i.to_string();
        return msg;
      }()),
      issues_(std::move(issues)) {}

using nlohmann::json;
using namespace detail;

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
  } else if (duration && s.duration.ps() / s.sample_interval.ps() > 10'000'000) {
    top.error("sample_interval", fmt::format("sample_interval {} gives more than 10^7 samples over {}",
                                             format_duration(s.sample_interval), format_duration(s.duration)));
  }
  if (duration && s.warmup >= s.duration)
    top.error("warmup", "warmup must be shorter than duration");
  if (const json* m = top.get("metrics")) {
    Reader mr(*m, "/metrics", issues);
    if (auto v = mr.number("convergence_tolerance", 0.001, 1))
      s.convergence_tolerance = *v;
    mr.finish();
  }
  resolved["metrics"] = {{"convergence_tolerance", s.convergence_tolerance}};
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
  const TopologyRead topology = read_topology(top, s);
  std::set<std::string> node_ids(s.nodes.begin(), s.nodes.end());

  // Flows.
  std::set<std::string> flow_ids;
  const json* flows = top.get("flows");
  // Flows may be left out when other traffic (UDP sources, arrivals) is given.
  const bool other_traffic = top.get("arrivals") != nullptr || top.get("udp") != nullptr;
  if (flows == nullptr) {
    if (!other_traffic)
      top.error("flows", "missing required key (expected a non-empty array of flows, \"udp\" or \"arrivals\")");
  } else if (!flows->is_array() || (flows->empty() && !other_traffic)) {
    top.error("flows", fmt::format("expected a non-empty array of flows, got {}", flows->dump()));
  } else {
    for (size_t i = 0; i < flows->size(); ++i) {
      const std::string fp = fmt::format("/flows/{}", i);
      Reader fr((*flows)[i], fp, issues);
      FlowSpec f;
      f.tcp = base_tcp;
      std::optional<uint64_t> rwnd = base_rwnd;
      f.id = fr.id("id", true).value_or("");
      f.json_index = i;
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
      const std::optional<Duration> jitter = fr.duration("start_jitter");
      const std::optional<uint64_t> max_window = fr.size("max_window");
      if (const json* oo = fr.get("on_off")) {
        Reader onr(*oo, fr.path_of("on_off"), issues);
        auto on = onr.duration("on", true, true);
        auto off = onr.duration("off", true, true);
        onr.finish();
        if (on && off)
          f.on_off = OnOffPeriods{*on, *off};
      }
      const std::optional<Placement> placement = read_placement(fr, topology, node_ids, "flow");
      read_tcp(fr, f.tcp, rwnd);
      check_tcp(fr, f.tcp);
      if (rwnd)
        f.tcp.receive_window = std::max<uint64_t>(1, *rwnd / f.tcp.mss);
      if (max_window) {  // a cap on data in flight: the smaller of it and the receive window applies
        const uint64_t segs = std::max<uint64_t>(1, *max_window / f.tcp.mss);
        f.tcp.receive_window = f.tcp.receive_window == 0 ? segs : std::min(f.tcp.receive_window, segs);
      }
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
      if (duration && jitter && f.start + *jitter >= s.duration) {
        fr.error("start_jitter",
                 fmt::format("start {} + start_jitter {} reaches the end of the run ({})", format_duration(f.start),
                             format_duration(*jitter), format_duration(s.duration)));
      }
      if (f.stop && jitter && *f.stop <= f.start + *jitter) {
        fr.error("start_jitter", fmt::format("start {} + start_jitter {} reaches stop {}", format_duration(f.start),
                                             format_duration(*jitter), format_duration(*f.stop)));
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
        if (jitter && *jitter > Duration::zero()) {  // seeded per flow id: replicas differ, reruns do not
          RandomStream rng(s.seed, "start_jitter/" + copy.id);
          copy.start += Duration::picoseconds(static_cast<int64_t>(rng.uniform() * static_cast<double>(jitter->ps())));
        }
        if (placement)
          place(s, topology, *placement, copy);
        s.flows.push_back(std::move(copy));
      }
    }
  }

  read_udp(top, s, topology, node_ids, duration, flow_ids);
  read_arrivals(top, s, topology, node_ids, duration, flow_ids, base_tcp, base_rwnd);

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

  // Generated names (hosts and access links of the shorthand topologies) must not
  // collide with each other or with the scenario's own.
  if (issues.empty()) {
    std::set<std::string> link_ids;
    for (const auto& l : s.links) {
      if (!link_ids.insert(l.link.id).second)
        issues.push_back({"/flows", fmt::format("two links are named \"{}\": rename the flow, UDP source or arrival "
                                                "whose id makes it",
                                                l.link.id)});
    }
  }
  // Routes (only once the topology and flows are sound).
  if (issues.empty())
    resolve_routes(s, issues);
  // An arrival "load" gives a rate only once the bottleneck is known.
  for (size_t i = 0; issues.empty() && i < s.arrivals.size(); ++i) {
    const ArrivalSpec& a = s.arrivals[i];
    if (!a.load)
      continue;
    const auto it =
        std::find_if(s.links.begin(), s.links.end(), [&](const LinkSpec& l) { return l.link.id == s.bottleneck; });
    const double rate = *a.load * it->link.rate.to_double() / (8.0 * a.size.mean_bytes());
    if (rate > 1e5) {
      issues.push_back({fmt::format("/arrivals/{}/load", a.json_index),
                        fmt::format("load {} of {} with a mean size of {:.6g} B is {:.3g} arrivals per second; at most "
                                    "1e5 are allowed",
                                    *a.load, format_rate(it->link.rate), a.size.mean_bytes(), rate)});
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
  // Duplicate keys would silently keep the last value: track the keys of every open object.
  std::vector<std::set<std::string>> open_objects;
  std::string duplicate;
  auto check_keys = [&](int /*depth*/, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start) {
      open_objects.emplace_back();
    } else if (event == json::parse_event_t::object_end && !open_objects.empty()) {
      open_objects.pop_back();
    } else if (event == json::parse_event_t::key && !open_objects.empty() &&
               !open_objects.back().insert(parsed.get<std::string>()).second && duplicate.empty()) {
      duplicate = parsed.get<std::string>();
    }
    return true;
  };
  json doc;
  try {
    doc = json::parse(buf.str(), check_keys);
  } catch (const json::exception& e) {  // syntax errors and numbers out of range (1e400)
    throw ScenarioError({{"", fmt::format("\"{}\" is not valid JSON: {}", path, e.what())}});
  }
  if (!duplicate.empty()) {
    throw ScenarioError({{"", fmt::format("the key \"{}\" appears twice in one object", duplicate)}});
  }
  return doc;
}

std::optional<std::string> set_at_pointer(json& doc, const std::string& pointer, const json& value) {
  try {
    const json::json_pointer ptr(pointer);
    // Walk the existing part: an array index past the end would pad with nulls.
    const json* node = &doc;
    std::string walked;
    size_t pos = 1;
    while (node != nullptr && pos <= pointer.size()) {
      const size_t next = pointer.find('/', pos);
      const std::string token = pointer.substr(pos, next == std::string::npos ? std::string::npos : next - pos);
      if (node->is_array()) {
        const bool digits = !token.empty() && token.find_first_not_of("0123456789") == std::string::npos;
        if (digits && std::stoull(token) > node->size()) {
          return fmt::format("{} has {} elements: index {} is past the end (use {} to append)",
                             walked.empty() ? "/" : walked, node->size(), token, node->size());
        }
        node = digits && std::stoull(token) < node->size() ? &(*node)[std::stoull(token)] : nullptr;
      } else if (node->is_object()) {
        auto it = node->find(json::json_pointer("/" + token).back());
        node = it == node->end() ? nullptr : &*it;
      } else {
        node = nullptr;
      }
      walked += "/" + token;
      if (next == std::string::npos)
        break;
      pos = next + 1;
    }
    doc[ptr] = value;
  } catch (const json::exception& e) {
    return fmt::format("cannot set this path: {}", e.what());
  } catch (const std::exception& e) {
    return fmt::format("cannot set this path: {}", e.what());
  }
  return std::nullopt;
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
    } catch (const json::exception&) {
      value = text;
    }
    // Missing parent objects are created ("/defaults/sack=true" works without "defaults");
    // a key nobody asked for is then reported by the parser like any unknown key.
    if (auto error = set_at_pointer(doc, pointer, value))
      issues.push_back({pointer, "--set: " + *error});
  }
  if (!issues.empty())
    throw ScenarioError(issues);
}

}  // namespace fastsim::config
