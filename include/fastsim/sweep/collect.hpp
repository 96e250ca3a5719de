// Tables of a sweep's results (`fastsim collect DIR`):
// - runs.csv: one row per run: id, parameters, replication, seed, status, exit code and
//   every scalar metric of summary.json, flattened to names like "links.bottleneck.
//   utilization" or "intervals.0.jain" (machine-dependent fields -- wall time, peak RSS --
//   are left out, so every backend gives the same file);
// - flows.csv: per-flow metrics in long form (one row per run and flow);
// - aggregate.csv: per parameter point and metric: n, mean, sample standard deviation
//   and the Student-t 95 % confidence interval of the mean (Boost.Math quantiles);
// - aggregate_flows.csv: the same per parameter point, flow and numeric flow metric.
// Every table also carries the numeric parameter columns of param_columns.hpp
// ("/flows/0/rtt": "20ms" -> flows.0.rtt_s = 0.02): in runs.csv after exit_code, in
// flows.csv after seed, in the aggregates last (the earlier columns keep their places).
// A run whose status says success but whose summary.json is missing, not JSON or without
// its metrics is "unusable": listed, left out of flows.csv and the aggregates.
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace fastsim::sweep {

struct Aggregate {
  size_t n = 0;
  double mean = 0;
  std::optional<double> sd;               ///< n >= 2
  std::optional<double> ci_low, ci_high;  ///< n >= 2
};

/// Mean, standard deviation and Student-t confidence interval (two-sided, `level`).
Aggregate aggregate(const std::vector<double>& x, double level = 0.95);

struct CollectResult {
  size_t runs = 0;
  size_t ok = 0;
  size_t failed = 0;                  ///< non-zero exit code
  size_t missing = 0;                 ///< no status yet
  std::vector<std::string> unusable;  ///< "run <id> ...: <why>": status ok, summary.json unusable
  std::vector<std::string> points_without_runs;  ///< params JSON of points no run of which is ok: no aggregate row
};

/// `dir` is not a sweep folder (no or an unreadable sweep.json): bad input, not a failure.
class NotASweep : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Writes runs.csv, flows.csv, aggregate.csv and aggregate_flows.csv into `dir` (a sweep folder). Throws
/// NotASweep, or std::system_error naming the file when a table cannot be written.
CollectResult collect(const std::filesystem::path& dir);

}  // namespace fastsim::sweep
