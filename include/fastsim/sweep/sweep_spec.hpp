// A sweep: a base scenario and parameters (JSON pointers with value lists) combined as a
// grid and/or zipped, times replications. Expansion gives every run its scenario, its
// seed and a content-hashed id, so the same spec always gives the same runs.
// Choices (docs/sweeps.md):
// - Replication r (0-based) runs with seed derive_seed(base seed, r) for every parameter
//   point: points are compared under common random numbers, replications differ.
// - A run's id hashes the canonical scenario JSON (keys sorted, seed included) and the
//   fastsim version: equal inputs share an id (and a folder), any change gives a new one.
// - Size: the run count is computed from the list lengths before anything is expanded,
//   and a sweep of more than `max_runs` runs (default 100 000) is refused. The estimated
//   output files and packets of all runs together are held to the limits sweep-output-bytes
//   and sweep-packets (docs/limits.md); validation stops after kMaxReportedIssues problems.
// - Two points that set a parameter to equal values after canonicalisation (1, 1.0;
//   "1s", 1, "1000ms" for a duration) are the same scenario: an error, like a repeated value.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fastsim/config/limits.hpp"

namespace fastsim::sweep {

struct Parameter {
  std::string pointer;
  std::vector<nlohmann::json> values;
};

struct SweepSpec {
  nlohmann::json base;          ///< the base scenario document
  std::string base_origin;      ///< its file, or "inline"
  std::vector<Parameter> grid;  ///< every combination (pointers in sorted order)
  std::vector<Parameter> zip;   ///< advanced together (equal lengths)
  uint64_t replications = 1;
  uint64_t base_seed = 1;  ///< the spec's "seed", else the base scenario's, else 1
  /// Every point is refused at validation if a run's estimated cost exceeds these
  /// (docs/limits.md; `fastsim sweep --limit` raises them).
  config::Limits limits;
};

/// The default limit on the runs of one sweep (`fastsim sweep --max-runs` raises it).
constexpr uint64_t kDefaultMaxRuns = 100000;

struct RunPlan {
  size_t index = 0;          ///< position in the sweep
  std::string id;            ///< content hash (16 hex digits)
  nlohmann::json params;     ///< {pointer: value} of this point
  uint64_t replication = 0;  ///< 0-based
  uint64_t seed = 0;
  nlohmann::json scenario;  ///< the base with the point's values and the seed
};

/// Reads a sweep spec; a relative "base" path is taken from `spec_dir`. Throws
/// config::ScenarioError naming the JSON path of every problem.
SweepSpec parse_sweep_spec(const nlohmann::json& doc, const std::string& spec_dir);

/// Runs of the spec (grid list lengths x zip length x replications), computed without
/// expanding anything; nullopt if the product does not fit in 64 bits.
std::optional<uint64_t> run_count(const SweepSpec& spec);

/// Throws config::ScenarioError naming the count, the limit and --max-runs if the spec
/// has more than `max_runs` runs.
void check_run_count(const SweepSpec& spec, uint64_t max_runs);

/// Validation stops at this many problems (a sweep whose every point is wrong would
/// otherwise print each point's errors, for up to max_runs points).
constexpr size_t kMaxReportedIssues = 100;

/// Validation reads every point's scenario, replicas included (about 7 us per flow): a sweep
/// whose points together make more TCP flows and UDP sources than this is refused before
/// the first point past it is read (about 2.5 minutes of validation, twice for --dry-run).
constexpr uint64_t kMaxValidatedReplicas = 20'000'000;

/// The estimated cost of all runs of a sweep together (run::ResourceEstimate per point,
/// times its replications; saturating): the runs' trace files and scenario documents, packets.
struct SweepEstimate {
  uint64_t runs = 0;
  uint64_t output_bytes = 0;
  uint64_t packets = 0;
};

/// Every run in order, one at a time: grid points (last pointer fastest) x zip
/// positions x replications. Memory holds one scenario at a time plus one id per point
/// (for duplicate detection). check_run_count() first; every point is validated, and a
/// point that does not give a valid scenario, or repeats another, or runs over the
/// sweep's total limits, throws config::ScenarioError naming the points after the last
/// run was passed to `fn` (or as soon as kMaxReportedIssues problems are found).
SweepEstimate for_each_run(const SweepSpec& spec, const std::string& version, uint64_t max_runs,
                           const std::function<void(RunPlan&&)>& fn);

/// All runs of for_each_run() in a vector; without `keep_documents`, each RunPlan's
/// `scenario` is left null (scenario_of() makes it again), so that memory holds no more
/// than the runs' parameters whatever the size of the base scenario.
std::vector<RunPlan> expand(const SweepSpec& spec, const std::string& version, uint64_t max_runs = kDefaultMaxRuns,
                            bool keep_documents = true, SweepEstimate* estimate = nullptr);

/// The scenario document of a run of `spec`: the base with the run's parameter values and
/// seed (the document for_each_run() passed with it).
nlohmann::json scenario_of(const SweepSpec& spec, const RunPlan& run);

uint64_t derive_seed(uint64_t base_seed, uint64_t replication);
std::string run_id(const nlohmann::json& scenario, const std::string& version);

}  // namespace fastsim::sweep
