// Regression of metrics against a baseline (`fastsim check BASELINE.json`): the baseline
// lists scenarios (a file, --set overrides, a seed) and per scenario metrics with an
// expected value, a tolerance (absolute, or relative to the expected value) and a
// direction: ">=" (no worse than expected - tolerance), "<=" (no more than expected +
// tolerance) or "~" (within the band either way). A metric is a JSON pointer into the
// scenario's summary.json whose array steps may name an element by its "id"
// ("/links/bottleneck/utilization", "/flows/a/goodput_bps", "/intervals/0/jain").
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace fastsim::sweep {

struct MetricCheck {
  std::string metric;
  double expected = 0;
  double tolerance = 0;
  bool relative = false;
  std::string direction = "~";
};

struct BaselineScenario {
  std::string name;
  std::string file;  ///< resolved path
  std::vector<std::string> sets;
  std::optional<uint64_t> seed;
  std::vector<MetricCheck> metrics;
};

struct Baseline {
  std::vector<BaselineScenario> scenarios;
  nlohmann::json doc;  ///< as read (for --update)
};

/// Reads a baseline; relative scenario files are taken from the baseline's folder.
/// Throws config::ScenarioError with paths.
Baseline parse_baseline(const nlohmann::json& doc, const std::string& baseline_dir);

/// The array index a pointer step names (decimal digits that fit in 64 bits), if any.
std::optional<uint64_t> array_index(const std::string& token);

/// Why `pointer` cannot be a metric (not a JSON pointer, a bad '~' escape, an array index
/// past 2^64 - 1), or nullopt.
std::optional<std::string> metric_pointer_error(const std::string& pointer);

/// The number at `pointer` in a summary (array steps may be element ids); nullopt if absent.
/// Never throws.
std::optional<double> metric_value(const nlohmann::json& summary, const std::string& pointer);

/// The band [low, high] a measured value must lie in.
std::pair<double, double> band(const MetricCheck& m);
bool passes(const MetricCheck& m, std::optional<double> measured);

}  // namespace fastsim::sweep
