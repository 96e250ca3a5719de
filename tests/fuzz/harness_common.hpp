// Shared by the fuzz harnesses: bytes to a bounded JSON document, the invariants of a
// clean rejection, and a small valid scenario to apply edits to.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "fastsim/config/errors.hpp"
#include "harnesses.hpp"

namespace fastsim::fuzz {

/// The document in `data` (parsed as fastsim reads files), or nullopt if rejected cleanly.
std::optional<nlohmann::json> to_json(const uint8_t* data, size_t size);

/// A rejection must say where and what: at least one issue, none with an empty message.
void check_rejection(const config::ScenarioError& e);

/// Throws HarnessFailure with `what` unless `ok`.
inline void require(bool ok, const std::string& what) {
  if (!ok)
    throw HarnessFailure(what);
}

/// A valid one-flow dumbbell scenario (1 s, 10 Mbps).
const nlohmann::json& small_scenario();

}  // namespace fastsim::fuzz
