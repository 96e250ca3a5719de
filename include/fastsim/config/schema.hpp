// The JSON Schema (draft 2020-12) of scenario files, generated from the tables the
// parser reads: the scenario objects and keys (scenario_keys.hpp), the units
// (units.hpp), the TCP settings (tcp/tcp_settings.hpp) and every algorithm's parameters
// (cc/registry.hpp), keyed on the algorithm's name. For editors: completion, and errors
// while typing. The schema checks each value on its own; what depends on other values
// (rtt required on a dumbbell, stop after start, routes, a rate given as "load" or
// "rate") is checked by `fastsim validate` only.
#pragma once

#include <nlohmann/json.hpp>

namespace fastsim::config {

/// The schema, as `fastsim schema` prints it.
nlohmann::json scenario_schema();

}  // namespace fastsim::config
