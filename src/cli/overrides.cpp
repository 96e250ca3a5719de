// --set and --unset on scenarios and on a sweep's base scenario (see overrides.hpp).
#include "overrides.hpp"

#include <iostream>

#include <fmt/format.h>

#include "fastsim/config/parse.hpp"
#include "fastsim/sweep/sweep_spec.hpp"

namespace fastsim::cli {

bool overrides_ok(const std::string& cmd, const std::vector<std::string>& sets,
                  const std::vector<std::string>& unsets) {
  for (const auto& a : sets) {
    if (a.size() < 2 || a[0] != '/' || a.find('=') == std::string::npos) {
      std::cerr << fmt::format(
          "fastsim {}: --set expects /json/pointer=value, like /duration=10s or /flows/0/algorithm=cubic, got "
          "\"{}\"\n",
          cmd, a);
      return false;
    }
  }
  for (const auto& p : unsets) {
    if (p.size() < 2 || p[0] != '/') {
      std::cerr << fmt::format(
          "fastsim {}: --unset expects a JSON pointer below the root, like /flows/0/start_jitter, got \"{}\"\n", cmd,
          p);
      return false;
    }
  }
  return true;
}

void apply_cli_overrides(nlohmann::json& scenario, const std::vector<std::string>& sets,
                         const std::vector<std::string>& unsets) {
  config::apply_unsets(scenario, unsets);
  config::apply_overrides(scenario, sets);
}

void override_base(nlohmann::json& spec_doc, const std::filesystem::path& spec_dir,
                   const std::vector<std::string>& sets, const std::vector<std::string>& unsets) {
  if (sets.empty() && unsets.empty())
    return;
  nlohmann::json base = sweep::parse_sweep_spec(spec_doc, spec_dir.string()).base;  // the spec's own problems first
  try {
    apply_cli_overrides(base, sets, unsets);
  } catch (const config::ScenarioError& e) {
    config::Issues located;
    for (const auto& i : e.issues())
      located.push_back({i.path.starts_with("/") ? "/base" + i.path : i.path, i.message});
    throw config::ScenarioError(located);
  }
  spec_doc["base"] = std::move(base);
}

}  // namespace fastsim::cli
