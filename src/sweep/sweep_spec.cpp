// Sweep specs and their expansion into runs (see sweep_spec.hpp).
#include "fastsim/sweep/sweep_spec.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <variant>

#include <fmt/format.h>

#include "fastsim/config/parse.hpp"
#include "fastsim/config/units.hpp"
#include "fastsim/core/rng.hpp"
#include "fastsim/run/resource_estimate.hpp"

namespace fastsim::sweep {

using config::Issues;
using config::ScenarioError;
using nlohmann::json;

namespace {

void read_parameters(const json& obj, const std::string& path, std::vector<Parameter>& out, Issues& issues) {
  if (!obj.is_object()) {
    issues.push_back({path, fmt::format("expected an object {{\"/json/pointer\": [values...]}}, got {}", obj.dump())});
    return;
  }
  for (const auto& [pointer, values] : obj.items()) {
    const std::string p = path + "/" + config::escape_pointer_token(pointer);
    if (pointer.empty() || pointer[0] != '/') {
      issues.push_back({p, fmt::format("\"{}\" is not a JSON pointer (it must start with '/')", pointer)});
      continue;
    }
    if (!values.is_array() || values.empty()) {
      issues.push_back({p, fmt::format("expected a non-empty array of values, got {}", values.dump())});
      continue;
    }
    out.push_back({pointer, std::vector<json>(values.begin(), values.end())});
  }
}

}  // namespace

SweepSpec parse_sweep_spec(const json& doc, const std::string& spec_dir) {
  Issues issues;
  SweepSpec spec;
  if (!doc.is_object())
    throw ScenarioError(Issues{{"", fmt::format("a sweep spec is an object, got {}", doc.dump())}});
  static const std::vector<std::string> known = {"base", "grid", "zip", "replications", "seed", "description"};
  for (const auto& [key, value] : doc.items()) {
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      issues.push_back(
          {"/" + config::escape_pointer_token(key),
           fmt::format("unknown key \"{}\"; allowed: base, grid, zip, replications, seed, description", key)});
    }
  }
  const auto base = doc.find("base");
  if (base == doc.end()) {
    issues.push_back({"/base", "missing required key (a scenario file path or an inline scenario object)"});
  } else if (base->is_string()) {
    std::filesystem::path p = base->get<std::string>();
    if (p.is_relative())
      p = std::filesystem::path(spec_dir) / p;
    spec.base_origin = p.lexically_normal().string();
    try {
      spec.base = config::load_json_file(spec.base_origin);
    } catch (const ScenarioError& e) {
      for (const auto& i : e.issues())
        issues.push_back({"/base", i.message});
    }
  } else if (base->is_object()) {
    spec.base = *base;
    spec.base_origin = "inline";
  } else {
    issues.push_back({"/base", fmt::format("expected a scenario file path or object, got {}", base->dump())});
  }
  if (auto g = doc.find("grid"); g != doc.end())
    read_parameters(*g, "/grid", spec.grid, issues);
  if (auto z = doc.find("zip"); z != doc.end()) {
    read_parameters(*z, "/zip", spec.zip, issues);
    for (const auto& p : spec.zip) {
      if (p.values.size() != spec.zip.front().values.size()) {
        issues.push_back({"/zip/" + config::escape_pointer_token(p.pointer),
                          fmt::format("{} values, but {} has {}: zipped lists must have equal lengths", p.values.size(),
                                      spec.zip.front().pointer, spec.zip.front().values.size())});
      }
    }
  }
  for (const auto& g : spec.grid) {
    for (const auto& z : spec.zip) {
      if (g.pointer == z.pointer)
        issues.push_back({"/zip/" + config::escape_pointer_token(z.pointer), "also in /grid: give it in one place"});
    }
    if (g.pointer == "/seed")
      issues.push_back({"/grid/~1seed", "seeds come from \"seed\" and \"replications\", not from a parameter"});
  }
  for (const auto& z : spec.zip) {
    if (z.pointer == "/seed")
      issues.push_back({"/zip/~1seed", "seeds come from \"seed\" and \"replications\", not from a parameter"});
  }
  if (auto r = doc.find("replications"); r != doc.end()) {
    if (!r->is_number_integer() || r->get<int64_t>() < 1 || r->get<int64_t>() > 100000) {
      issues.push_back({"/replications", fmt::format("expected an integer in [1, 100000], got {}", r->dump())});
    } else {
      spec.replications = r->get<uint64_t>();
    }
  }
  // The seed is read as the scenario reader reads it (5.0 is 5; 5.5 is an error), so
  // that a sweep and `fastsim run` of the same scenario use the same seed.
  auto read_seed = [&](const json& v, const std::string& path) {
    auto parsed = config::parse_integer(v, 0, INT64_MAX);
    if (auto* err = std::get_if<std::string>(&parsed)) {
      issues.push_back({path, *err});
    } else {
      spec.base_seed = static_cast<uint64_t>(std::get<int64_t>(parsed));
    }
  };
  if (auto s = doc.find("seed"); s != doc.end()) {
    read_seed(*s, "/seed");
  } else if (spec.base.is_object() && spec.base.contains("seed")) {
    read_seed(spec.base["seed"], spec.base_origin == "inline" ? "/base/seed" : spec.base_origin + ": /seed");
  }
  if (!issues.empty())
    throw ScenarioError(issues);
  return spec;
}

uint64_t derive_seed(uint64_t base_seed, uint64_t replication) {
  if (replication == 0)
    return base_seed;                                             // the first replication runs the scenario's own seed
  return mix64(base_seed ^ mix64(0x5eedULL + replication)) >> 1;  // >= 0 as a JSON integer
}

std::string run_id(const json& scenario, const std::string& version) {
  const std::string canonical = scenario.dump() + "\n" + version;  // dump() sorts object keys
  const uint64_t a = hash_name(canonical);
  const uint64_t b = mix64(a ^ hash_name(std::string(canonical.rbegin(), canonical.rend())));
  return fmt::format("{:016x}", a ^ (b >> 1));
}

std::optional<uint64_t> run_count(const SweepSpec& spec) {
  uint64_t n = spec.replications;
  for (const auto& g : spec.grid) {
    if (__builtin_mul_overflow(n, static_cast<uint64_t>(g.values.size()), &n))
      return std::nullopt;
  }
  if (!spec.zip.empty() && __builtin_mul_overflow(n, static_cast<uint64_t>(spec.zip.front().values.size()), &n))
    return std::nullopt;
  return n;
}

void check_run_count(const SweepSpec& spec, uint64_t max_runs) {
  const auto n = run_count(spec);
  if (n && *n <= max_runs)
    return;
  std::string shape;
  for (const auto& g : spec.grid)
    shape += fmt::format("{} {} x ", g.values.size(), g.pointer);
  if (!spec.zip.empty())
    shape += fmt::format("{} zipped x ", spec.zip.front().values.size());
  shape += fmt::format("{} replications", spec.replications);
  throw ScenarioError(Issues{
      {"", fmt::format("the sweep has {} runs ({}), more than the limit of {} runs: narrow the grid, or raise the "
                       "limit with --max-runs N",
                       n ? std::to_string(*n) : std::string("more than 18446744073709551615"), shape, max_runs)}});
}

namespace {

/// The parameter values of point `i` (grid points, the last pointer fastest, x zip positions).
json point_at(const SweepSpec& spec, uint64_t i) {
  json p = json::object();
  const uint64_t zip_len = spec.zip.empty() ? 1 : spec.zip.front().values.size();
  const uint64_t z = i % zip_len;
  uint64_t g = i / zip_len;
  for (size_t k = spec.grid.size(); k-- > 0;) {
    const auto n = spec.grid[k].values.size();
    p[spec.grid[k].pointer] = spec.grid[k].values[g % n];
    g /= n;
  }
  for (const auto& zp : spec.zip)
    p[zp.pointer] = zp.values[z];
  return p;
}

/// A number with an integral value as an integer (1.0 -> 1): the scenario reader does not
/// tell them apart.
json canonical_number(const json& v) {
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9e15)
      return static_cast<int64_t>(d);
  }
  return v;
}

/// The quantity kinds of the scenario reader: a value of such a parameter is compared
/// by what the reader makes of it ("1s", 1 and "1000ms" are one duration).
enum class Kind { kDuration, kRate, kSize };

std::optional<std::pair<std::string, double>> as_quantity(Kind k, const json& v) {  // exact key, SI value
  if (k == Kind::kDuration) {
    auto d = config::parse_duration(v);
    if (const auto* x = std::get_if<Duration>(&d))
      return std::make_pair(fmt::format("duration {}ps", x->ps()), static_cast<double>(x->ps()) / 1e12);
  } else if (k == Kind::kRate) {
    auto r = config::parse_rate(v);
    if (const auto* x = std::get_if<Rate>(&r))
      return std::make_pair(fmt::format("rate {}bps", x->bps), x->to_double());
  } else {
    auto b = config::parse_size(v);
    if (const auto* x = std::get_if<uint64_t>(&b))
      return std::make_pair(fmt::format("size {}B", *x), static_cast<double>(*x));
  }
  return std::nullopt;
}

/// Canonical parameter values for duplicate detection. A parameter is a quantity of kind
/// K when one of its values is a string with a unit of K and the scenario reader accepts
/// the same quantity written as a plain number (in SI base units) at its pointer; then
/// every value is compared as that quantity. Decided once per pointer.
class Canonicaliser {
 public:
  explicit Canonicaliser(const SweepSpec& spec) : limits_(spec.limits) {
    for (const auto* list : {&spec.grid, &spec.zip}) {
      for (const auto& p : *list)
        values_[p.pointer] = &p.values;
    }
  }

  json value(const std::string& pointer, const json& v, const json& scenario) {
    auto it = kinds_.find(pointer);
    if (it == kinds_.end())
      it = kinds_.emplace(pointer, kind_of(pointer, scenario)).first;
    if (it->second) {
      if (auto q = as_quantity(*it->second, v))
        return q->first;
    }
    return canonical_number(v);
  }

 private:
  std::optional<Kind> kind_of(const std::string& pointer, const json& scenario) const {
    for (const auto& v : *values_.at(pointer)) {
      if (!v.is_string())
        continue;
      for (Kind k : {Kind::kDuration, Kind::kRate, Kind::kSize}) {
        const auto q = as_quantity(k, v);
        if (!q)
          continue;
        json probe = scenario;
        if (config::set_at_pointer(probe, pointer, canonical_number(q->second)))
          return std::nullopt;
        try {
          (void)config::parse_scenario(probe, limits_);  // as the point was read
        } catch (const ScenarioError& e) {
          for (const auto& issue : e.issues()) {
            if (issue.path.rfind(pointer, 0) == 0)
              return std::nullopt;  // the field takes no plain number: not a quantity (a name, an id)
          }
        }
        return k;
      }
    }
    return std::nullopt;
  }

  config::Limits limits_;
  std::map<std::string, const std::vector<json>*> values_;
  std::map<std::string, std::optional<Kind>> kinds_;
};

}  // namespace

SweepEstimate for_each_run(const SweepSpec& spec, const std::string& version, uint64_t max_runs,
                           const std::function<void(RunPlan&&)>& fn) {
  check_run_count(spec, max_runs);
  const uint64_t points = *run_count(spec) / spec.replications;
  Issues issues;
  SweepEstimate total;
  auto add = [&](uint64_t& sum, uint64_t per_run) {
    uint64_t all = 0;
    if (__builtin_mul_overflow(per_run, spec.replications, &all) || __builtin_add_overflow(sum, all, &sum))
      sum = UINT64_MAX;
  };
  // The flows all points make, counted before any point is parsed: 500 points of 50 000
  // flows each took 88 s of validation to be refused.
  uint64_t all_replicas = 0;
  for (uint64_t i = 0; i < points; ++i) {
    const json params = point_at(spec, i);
    json scenario = spec.base;
    for (const auto& [pointer, value] : params.items())
      (void)config::set_at_pointer(scenario, pointer, value);  // (a bad pointer is reported below)
    all_replicas += config::traffic_replicas(scenario);
  }
  if (all_replicas > kMaxValidatedReplicas) {
    throw ScenarioError(Issues{{"", fmt::format("the {} points make {} TCP flows and UDP sources together, more than {} "
                                                "a sweep may validate: split the sweep, or narrow its grid",
                                                points, all_replicas, kMaxValidatedReplicas)}});
  }
  Canonicaliser canonical(spec);
  std::map<std::string, uint64_t> first_point_of;  // canonical scenario id -> point index
  size_t index = 0;
  for (uint64_t i = 0; i < points; ++i) {
    const json params = point_at(spec, i);
    json scenario = spec.base;
    for (const auto& [pointer, value] : params.items()) {
      if (auto error = config::set_at_pointer(scenario, pointer, value))
        issues.push_back({pointer, fmt::format("point {}: {}", params.dump(), *error)});
    }
    // One validation per point: replications differ only in the seed.
    scenario["seed"] = derive_seed(spec.base_seed, 0);
    bool valid = true;
    try {
      auto parsed = config::parse_scenario(scenario, spec.limits);
      const run::ResourceEstimate estimate = run::estimate_resources(parsed);
      if (auto over = run::check_limits(parsed, estimate); !over.empty())
        throw ScenarioError(std::move(over));
      add(total.output_bytes, estimate.trace_bytes);
      add(total.packets, estimate.packets);
    } catch (const ScenarioError& e) {
      valid = false;
      for (const auto& issue : e.issues())
        issues.push_back({issue.path, fmt::format("point {}: {}", params.dump(), issue.message)});
    }
    if (valid) {  // two points, one scenario: one folder, or the same run twice
      json canon = spec.base;
      for (const auto& [pointer, value] : params.items())
        (void)config::set_at_pointer(canon, pointer, canonical.value(pointer, value, scenario));
      canon["seed"] = scenario["seed"];
      const auto [first, fresh] = first_point_of.emplace(run_id(canon, version), i);
      if (!fresh) {
        const json earlier = point_at(spec, first->second);
        std::string same;  // the values that differ only in how they are written
        for (const auto& [pointer, value] : params.items()) {
          if (earlier[pointer] != value)
            same += fmt::format("{}{}: {} and {} are one value", same.empty() ? " (" : "; ", pointer,
                                earlier[pointer].dump(), value.dump());
        }
        issues.push_back({spec.grid.empty() ? "/zip" : "/grid",
                          fmt::format("points {} and {} give the same scenario{}: remove the repeated value",
                                      earlier.dump(), params.dump(), same.empty() ? "" : same + ")")});
      }
    }
    for (uint64_t r = 0; r < spec.replications; ++r) {
      RunPlan run;
      run.index = index++;
      run.params = params;
      run.replication = r;
      run.seed = derive_seed(spec.base_seed, r);
      run.scenario = scenario;
      run.scenario["seed"] = run.seed;
      // Each run's folder holds its scenario document too (a base listing many flows is large).
      const uint64_t document_bytes = run.scenario.dump(2).size() + 1;
      if (__builtin_add_overflow(total.output_bytes, document_bytes, &total.output_bytes))
        total.output_bytes = UINT64_MAX;
      run.id = run_id(run.scenario, version);
      fn(std::move(run));
    }
    if (issues.size() >= kMaxReportedIssues && i + 1 < points) {
      issues.push_back({"", fmt::format("validation stopped after {} problems, at point {} of {}: correct these and "
                                        "validate again",
                                        issues.size(), i + 1, points)});
      throw ScenarioError(issues);
    }
  }
  total.runs = *run_count(spec);
  const config::Limits& l = spec.limits;
  if (total.output_bytes > l.sweep_output_bytes) {
    issues.push_back({"", fmt::format("the files of all {} runs together (traces, scenario documents) are estimated "
                                      "at {}, over the "
                                      "sweep-output-bytes limit of {} (docs/limits.md; raise it with --limit "
                                      "sweep-output-bytes=VALUE or --limit sweep-output-bytes=none)",
                                      total.runs, config::format_bytes(total.output_bytes),
                                      config::format_bytes(l.sweep_output_bytes))});
  }
  if (total.packets > l.sweep_packets) {
    issues.push_back({"", fmt::format("the packets of all {} runs together are estimated at {:.3g}, over the "
                                      "sweep-packets limit of {:.3g} (docs/limits.md; raise it with --limit "
                                      "sweep-packets=VALUE or --limit sweep-packets=none)",
                                      total.runs, static_cast<double>(total.packets),
                                      static_cast<double>(l.sweep_packets))});
  }
  if (!issues.empty())
    throw ScenarioError(issues);
  return total;
}

std::vector<RunPlan> expand(const SweepSpec& spec, const std::string& version, uint64_t max_runs, bool keep_documents,
                            SweepEstimate* estimate) {
  std::vector<RunPlan> runs;
  const SweepEstimate total = for_each_run(spec, version, max_runs, [&](RunPlan&& r) {
    if (!keep_documents)
      r.scenario = json();
    runs.push_back(std::move(r));
  });
  if (estimate != nullptr)
    *estimate = total;
  return runs;
}

json scenario_of(const SweepSpec& spec, const RunPlan& run) {
  json scenario = spec.base;
  for (const auto& [pointer, value] : run.params.items())
    (void)config::set_at_pointer(scenario, pointer, value);  // each was applied when the sweep was validated
  scenario["seed"] = run.seed;
  return scenario;
}

}  // namespace fastsim::sweep
