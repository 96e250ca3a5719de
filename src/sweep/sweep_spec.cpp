// Sweep specs and their expansion into runs (see sweep_spec.hpp).
#include "fastsim/sweep/sweep_spec.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "fastsim/config/parse.hpp"
#include "fastsim/core/rng.hpp"

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
  if (auto s = doc.find("seed"); s != doc.end()) {
    if (!s->is_number_integer() || s->get<int64_t>() < 0) {
      issues.push_back({"/seed", fmt::format("expected an integer >= 0, got {}", s->dump())});
    } else {
      spec.base_seed = s->get<uint64_t>();
    }
  } else if (spec.base.is_object() && spec.base.contains("seed") && spec.base["seed"].is_number_integer() &&
             spec.base["seed"].get<int64_t>() >= 0) {
    spec.base_seed = spec.base["seed"].get<uint64_t>();
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

std::vector<RunPlan> expand(const SweepSpec& spec, const std::string& version) {
  // Grid points: mixed-radix counter, the last pointer varying fastest.
  std::vector<json> points;
  std::vector<size_t> digit(spec.grid.size(), 0);
  for (;;) {
    const size_t zip_len = spec.zip.empty() ? 1 : spec.zip.front().values.size();
    for (size_t z = 0; z < zip_len; ++z) {
      json p = json::object();
      for (size_t g = 0; g < spec.grid.size(); ++g)
        p[spec.grid[g].pointer] = spec.grid[g].values[digit[g]];
      for (const auto& zp : spec.zip)
        p[zp.pointer] = zp.values[z];
      points.push_back(std::move(p));
    }
    size_t k = spec.grid.size();
    while (k > 0 && ++digit[k - 1] == spec.grid[k - 1].values.size()) {
      digit[k - 1] = 0;
      --k;
    }
    if (k == 0)
      break;
  }
  std::vector<RunPlan> runs;
  Issues issues;
  std::map<std::string, size_t> first_point_of;  // run id -> point index
  for (size_t i = 0; i < points.size(); ++i) {
    for (uint64_t r = 0; r < spec.replications; ++r) {
      RunPlan run;
      run.index = runs.size();
      run.params = points[i];
      run.replication = r;
      run.seed = derive_seed(spec.base_seed, r);
      run.scenario = spec.base;
      for (const auto& [pointer, value] : points[i].items()) {
        if (auto error = config::set_at_pointer(run.scenario, pointer, value))
          issues.push_back({pointer, fmt::format("point {}: {}", points[i].dump(), *error)});
      }
      run.scenario["seed"] = run.seed;
      if (r == 0) {  // one validation per point: replications differ only in the seed
        try {
          (void)config::parse_scenario(run.scenario);
        } catch (const ScenarioError& e) {
          for (const auto& issue : e.issues())
            issues.push_back({issue.path, fmt::format("point {}: {}", points[i].dump(), issue.message)});
        }
      }
      run.id = run_id(run.scenario, version);
      if (r == 0 && !first_point_of.emplace(run.id, i).second) {  // two points, one scenario: one folder
        issues.push_back({spec.grid.empty() ? "/zip" : "/grid",
                          fmt::format("points {} and {} give the same scenario: remove the repeated value",
                                      points[first_point_of[run.id]].dump(), points[i].dump())});
      }
      runs.push_back(std::move(run));
    }
  }
  if (!issues.empty())
    throw ScenarioError(issues);
  return runs;
}

}  // namespace fastsim::sweep
