// Scenario parsing and validation (see parse.hpp): the run's own keys, then one reader
// per entity (parse_parts.hpp: topology, flows, UDP sources, arrivals), the checks that
// need the whole scenario (link names, routes, arrival loads), and the resolved-scenario
// echo. Also JSON loading and --set overrides.
#include "fastsim/config/parse.hpp"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>

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

namespace {

/// name, description, seed, duration, sample_interval, warmup, metrics; returns the
/// duration if it is valid.
std::optional<Duration> read_run(Reader& top, Scenario& s, json& resolved) {
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
    Reader mr(*m, "/metrics", top.issues());
    if (auto v = mr.number("convergence_tolerance", 0.001, 1))
      s.convergence_tolerance = *v;
    mr.finish();
  }
  resolved["metrics"] = {{"convergence_tolerance", s.convergence_tolerance}};
  resolved["seed"] = s.seed;
  resolved["sample_interval"] = format_duration(s.sample_interval);
  resolved["warmup"] = format_duration(s.warmup);
  return duration;
}

/// "/defaults": the TCP settings every flow starts from.
TcpSettings read_defaults(Reader& top, json& resolved) {
  TcpSettings defaults;
  if (const json* d = top.get("defaults")) {
    Reader dr(*d, "/defaults", top.issues());
    read_tcp(dr, defaults);
    dr.finish();
  }
  resolved["defaults"] = tcp_to_json(defaults);
  return defaults;
}

/// "/monitor": extra links to trace.
void read_monitor(Reader& top, Scenario& s) {
  const json* mon = top.get("monitor");
  if (mon == nullptr)
    return;
  if (!mon->is_array() || !std::all_of(mon->begin(), mon->end(), [](const json& m) { return m.is_string(); })) {
    top.error("monitor", fmt::format("expected an array of link ids, got {}", mon->dump()));
    return;
  }
  for (size_t i = 0; i < mon->size(); ++i) {
    const std::string id = (*mon)[i].get<std::string>();
    auto it = std::find_if(s.links.begin(), s.links.end(), [&](const LinkSpec& l) { return l.link.id == id; });
    if (it == s.links.end()) {
      top.issues().push_back({fmt::format("/monitor/{}", i), fmt::format("no link \"{}\"", id)});
    } else {
      it->monitor = true;
    }
  }
}

/// Generated names (hosts and access links of the shorthand topologies) must not collide
/// with each other or with the scenario's own.
void check_link_ids(const Scenario& s, Issues& issues) {
  std::set<std::string> link_ids;
  for (const auto& l : s.links) {
    if (!link_ids.insert(l.link.id).second)
      issues.push_back({"/flows", fmt::format("two links are named \"{}\": rename the flow, UDP source or arrival "
                                              "whose id makes it",
                                              l.link.id)});
  }
}

}  // namespace

Scenario parse_scenario(const json& doc) {
  Issues issues;
  Scenario s;
  Reader top(doc, "", issues);
  if (!top.is_object())
    throw ScenarioError(issues);
  json resolved = doc;
  const std::optional<Duration> duration = read_run(top, s, resolved);
  TcpSettings defaults = read_defaults(top, resolved);
  const TopologyRead topology = read_topology(top, s);
  TrafficContext traffic{.topology = topology,
                         .node_ids = {s.nodes.begin(), s.nodes.end()},
                         .duration = duration,
                         .seed = s.seed,
                         .defaults = std::move(defaults),
                         .ids = {}};
  read_flows(top, s, traffic, resolved);
  read_udp(top, s, traffic);
  read_arrivals(top, s, traffic);
  read_monitor(top, s);
  top.finish();
  if (issues.empty() && s.flows.empty() && s.udp.empty() && s.arrivals.empty())
    issues.push_back({"", "the scenario has no traffic: give at least one of \"flows\", \"udp\" or \"arrivals\""});
  if (issues.empty())
    check_link_ids(s, issues);
  if (issues.empty())  // routes only once the topology and flows are sound
    resolve_routes(s, issues);
  if (issues.empty())  // an arrival "load" gives a rate only once the bottleneck is known
    check_arrival_loads(s, issues);
  if (!issues.empty())
    throw ScenarioError(issues);
  s.resolved = std::move(resolved);
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
