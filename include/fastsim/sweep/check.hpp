// Regression of metrics against a baseline (`fastsim check BASELINE.json`): the baseline
// lists scenarios (a file, --set overrides, a seed) and per scenario metrics with an
// expected value, a tolerance (absolute, or relative to the expected value) and a
// direction: ">=" (no worse than expected - tolerance), "<=" (no more than expected +
// tolerance) or "~" (within the band either way). A metric is a JSON pointer into the
// scenario's summary.json whose array steps may name an element by its "id"
// ("/links/bottleneck/utilization", "/flows/a/goodput_bps", "/intervals/0/jain").
//
// Replications: a scenario runs `replications` times (the file's "replications", a
// scenario's own, or --replications N; default 1); replication r uses seed
// derive_seed(seed, r) as a sweep does (r = 0 runs the seed itself). A metric's n values
// give a mean and, for n >= 2, its two-sided 95 % Student-t confidence interval; the
// metric passes if that interval overlaps the band (it fails only when the whole
// interval is outside: the departure is significant at the 5 % level), and with n = 1 if
// the one value is inside the band. --update writes the mean.
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
  std::optional<uint64_t> replications;  ///< this scenario's own count
  std::vector<MetricCheck> metrics;
};

struct Baseline {
  std::vector<BaselineScenario> scenarios;
  uint64_t replications = 1;  ///< the file's "replications" (default of every scenario)
  nlohmann::json doc;         ///< as read
};

/// The most replications a baseline or --replications may ask for.
constexpr uint64_t kMaxCheckReplications = 1000;

/// A scenario's replication count: `forced` (--replications) if given, else its own, else the file's.
uint64_t replications_of(const Baseline& b, const BaselineScenario& s, std::optional<uint64_t> forced);

/// The run folder name of replication r: the scenario's name for r = 0 (so that results
/// of a single-replication check are reused), "NAME~rR" after (a name never holds '~').
std::string replication_id(const std::string& name, uint64_t r);

/// One metric over the replications of its scenario.
struct MetricOutcome {
  size_t n = 0;                      ///< replications that measured it
  double mean = 0;                   ///< meaningful when n > 0
  std::optional<double> half_width;  ///< of the 95 % confidence interval of the mean (n >= 2)
  bool complete = false;             ///< every replication measured a finite value
  bool pass = false;
};

/// Evaluates `m` over one optional value per replication (nullopt: not measured).
MetricOutcome evaluate(const MetricCheck& m, const std::vector<std::optional<double>>& values);

/// A new expected value for metric `metric` of scenario `scenario` (0-based indices).
struct ExpectedUpdate {
  size_t scenario = 0;
  size_t metric = 0;
  double value = 0;
};

/// The baseline text with only the given "expected" values changed: key order, scenario
/// order, the description and the indentation width are kept (the text is read into an
/// ordered JSON tree and written back with the indentation of its first indented line).
/// Throws nlohmann::json::exception if `text` is not JSON.
std::string update_expected(const std::string& text, const std::vector<ExpectedUpdate>& updates);

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
