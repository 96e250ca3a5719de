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

/// Parses and validates; throws ScenarioError listing all issues. Before the flows and UDP
/// sources are replicated ("count"), their number is checked against `limits.memory_bytes`
/// at kMemoryPerTrafficReplica each (the run would need at least that; the replicas
/// themselves cost less to make), so a small file cannot make gigabytes of replicas only
/// to be refused by the resource estimate afterwards. The result carries `limits`.
Scenario parse_scenario(const nlohmann::json& doc, const Limits& limits = Limits{});

/// The TCP flows and UDP sources the document's "count"s make (an entry without a valid
/// count makes one), counted on the document before anything is replicated.
uint64_t traffic_replicas(const nlohmann::json& doc);

/// The least memory a run needs per TCP flow or UDP source (run::estimate_resources counts
/// this much per flow, plus its samples).
inline constexpr uint64_t kMemoryPerTrafficReplica = 16 * 1024;

/// The deepest nesting of arrays and objects any JSON input may have (scenarios, sweep
/// specs, baselines, --set values, summaries read back). nlohmann's copy, compare and
/// dump recurse once per level, so a 100 000-level file would overflow the stack: the
/// parser rejects the 65th level as it opens, before any of that runs.
inline constexpr int kMaxJsonDepth = 64;

/// Parses JSON text (json_input.cpp): at most kMaxJsonDepth levels, no key twice in one
/// object. Throws ScenarioError naming `source` on any problem (syntax, depth, duplicate).
nlohmann::json parse_json_text(const std::string& text, const std::string& source);

/// The largest JSON file fastsim reads (256 MiB: a summary.json of 10 000 flows is ~10 MB);
/// a larger file, or an endless one such as /dev/zero, is refused after reading this much.
inline constexpr size_t kMaxJsonFileBytes = size_t{256} << 20;

/// Reads a JSON file as parse_json_text does; throws ScenarioError on I/O or syntax errors
/// and for files over kMaxJsonFileBytes.
nlohmann::json load_json_file(const std::string& path);

/// Levels of nested arrays/objects in `j` (a scalar: 0, {} or []: 1).
int json_depth(const nlohmann::json& j);

/// Applies "--set /json/pointer=value" overrides (value parsed as JSON, else taken as a
/// string). Throws ScenarioError naming the option: not valid UTF-8, a pointer to the
/// root or with an empty key, a value or path deeper than kMaxJsonDepth, or a path that
/// set_at_pointer refuses.
void apply_overrides(nlohmann::json& doc, const std::vector<std::string>& assignments);

/// Applies "--unset /json/pointer" deletions (an object key, or an array element: later
/// elements move up). Throws ScenarioError naming every pointer that is not a valid path
/// to an existing value below the root (with a suggestion for a misspelt key).
void apply_unsets(nlohmann::json& doc, const std::vector<std::string>& pointers);

/// Sets `value` at `pointer` in `doc`, creating missing objects (as --set does). An
/// array index may be at most the array's size (== size appends); returns a message
/// instead of padding an array with nulls, or when the path cannot be set: an empty
/// key ("/" names the key "", not the root, which cannot be replaced), or a result
/// deeper than kMaxJsonDepth.
std::optional<std::string> set_at_pointer(nlohmann::json& doc, const std::string& pointer, const nlohmann::json& value);

}  // namespace fastsim::config
