// The on-disk layout of a sweep, shared by every backend:
//   OUT/sweep.json            the plan: spec, version, and every run (id, params, seed)
//   OUT/runs/<id>/scenario.json  the run's full scenario
//   OUT/runs/<id>/summary.json, flows/, links/, arrivals/   its outputs
//   OUT/runs/<id>/log.txt     what the run printed
//   OUT/runs/<id>/status.json exit code, wall time, error: written last and atomically,
//                             so a run without it (crashed, killed) never looks complete.
#pragma once

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fastsim/sweep/sweep_spec.hpp"

namespace fastsim::sweep {

struct RunStatus {
  int exit_code = 0;  ///< 0 ok, 1 invalid scenario, 3 failed while running or writing, 128+n killed by signal n
  double wall_time_s = 0;
  std::string error;
  std::string build;  ///< the build_identity() of the worker that ran it ("" when the driver wrote it)
};

/// Runs that are still to do, done (ok) or failed (a status with a non-zero exit code,
/// or no status after the backend finished).
enum class RunState { kMissing, kOk, kFailed };

std::filesystem::path run_dir(const std::filesystem::path& out, const std::string& id);
std::optional<RunStatus> read_status(const std::filesystem::path& dir);
void write_status(const std::filesystem::path& dir, const RunStatus& status);
/// Removes a run's status (before it runs again); throws std::system_error if it cannot.
void remove_status(const std::filesystem::path& dir);
RunState run_state(const std::filesystem::path& out, const std::string& id);

/// Writes OUT/sweep.json and every run's scenario.json (atomically). A run whose
/// `scenario` is null (expand() without its documents) gets scenario_of(*spec, run), made
/// and written one at a time.
void write_plan(const std::filesystem::path& out, const nlohmann::json& spec_doc, const std::vector<RunPlan>& runs,
                const std::string& version, const SweepSpec* spec = nullptr);
/// The runs of OUT/sweep.json (scenarios not loaded), and the build that made the plan
/// (`fastsim_version`: build_identity()) if asked. Throws std::runtime_error.
std::vector<RunPlan> read_plan(const std::filesystem::path& out, std::string* fastsim_version = nullptr);

/// Frees the runs' scenario documents once write_plan() has put each in its run folder
/// (where a worker reads it), and hands the freed memory back to the system, so that
/// the forked workers do not start with every run's document in their resident memory.
void release_documents(std::vector<RunPlan>& runs);

/// Simulates dir/scenario.json into dir and writes dir/status.json last; messages go to
/// `log`. Returns the exit code.
int execute_run(const std::filesystem::path& dir, std::ostream& log);

}  // namespace fastsim::sweep
