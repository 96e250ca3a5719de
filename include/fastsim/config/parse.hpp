// Scenario file -> typed Scenario, reporting every problem with its JSON pointer.
// Unknown keys are errors (a typo must not be silently ignored), as are unknown
// algorithms and parameters (the message lists the valid ones).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fastsim/config/errors.hpp"
#include "fastsim/config/scenario.hpp"

namespace fastsim::config {

/// Parses and validates; throws ScenarioError listing all issues.
Scenario parse_scenario(const nlohmann::json& doc);

/// Reads a JSON file; throws ScenarioError on I/O or syntax errors.
nlohmann::json load_json_file(const std::string& path);

/// Applies "--set /json/pointer=value" overrides (value parsed as JSON, else taken as a string).
void apply_overrides(nlohmann::json& doc, const std::vector<std::string>& assignments);

/// Sets `value` at `pointer` in `doc`, creating missing objects (as --set does). An
/// array index may be at most the array's size (== size appends); returns a message
/// instead of padding an array with nulls, or when the path cannot be set.
std::optional<std::string> set_at_pointer(nlohmann::json& doc, const std::string& pointer, const nlohmann::json& value);

}  // namespace fastsim::config
