// The scenario overrides of the command line: --unset /json/pointer (delete) and
// --set /json/pointer=value, for run and validate (on the scenario) and sweep (on the
// sweep's base scenario, before the grid and zip values are set). Deletions come first,
// then the --set values in the order given.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace fastsim::cli {

/// Checks the form of every --set (/json/pointer=value) and --unset (/json/pointer);
/// prints the problem for `cmd` and returns false on a bad one (a usage error).
bool overrides_ok(const std::string& cmd, const std::vector<std::string>& sets, const std::vector<std::string>& unsets);

/// Applies the --unset deletions, then the --set values, to a scenario document; throws
/// config::ScenarioError naming the pointer of every problem.
void apply_cli_overrides(nlohmann::json& scenario, const std::vector<std::string>& sets,
                         const std::vector<std::string>& unsets);

/// A sweep spec whose base scenario gets the overrides: the base (read from its file,
/// relative to `spec_dir`, if "base" names one) changed by apply_cli_overrides and put
/// inline into the spec, so that the plan (sweep.json) records the scenario the runs
/// used. Problems are reported under /base. No overrides: the spec unchanged.
void override_base(nlohmann::json& spec_doc, const std::filesystem::path& spec_dir,
                   const std::vector<std::string>& sets, const std::vector<std::string>& unsets);

}  // namespace fastsim::cli
