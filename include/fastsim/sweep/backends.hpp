// Where a sweep's runs execute. Both backends run exactly the runs they are given (the
// caller leaves out those with a successful status for --resume) and leave one
// status.json per run (run_store.hpp); both end by listing the runs that failed.
// - Local: a pool of worker processes (fork per run, so a crash takes down one run only).
// - SLURM: job-array batch scripts (runs packed K per task, arrays split at the
//   cluster's MaxArraySize), submitted with sbatch and followed by polling squeue;
//   each task runs `fastsim sweep-task`. Facts about SLURM: docs/sweeps.md, "SLURM notes".
#pragma once

#include <cstddef>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "fastsim/sweep/sweep_spec.hpp"

namespace fastsim::sweep {

/// Where a backend reports what it is doing. Backends never write to the terminal
/// themselves: the CLI decides how reports look (a progress line redrawn in place on a
/// terminal, plain lines in a log file, nothing with --quiet). This base reports nothing.
class Reporter {
 public:
  virtual ~Reporter() = default;
  /// The current progress; replaces the previous progress line.
  virtual void progress(std::string_view /*line*/) {}
  /// A message that stays: a submission, a stop by signal, a task's run and failure.
  virtual void note(std::string_view /*line*/) {}
  /// Text for standard output (the batch scripts of a dry run).
  virtual void output(std::string_view /*text*/) {}
  /// No more progress follows (ends a progress line left open).
  virtual void finish() {}
};

/// Default of --run-timeout: a run of the local backend still running after this many
/// seconds of wall time is killed and recorded as failed ("timeout").
constexpr unsigned kDefaultRunTimeoutS = 3600;

/// SIGINT or SIGTERM stopped run_local (its workers stopped too, their runs left without a
/// status): thrown so that the caller's folders and locks are cleaned up on the way out; the
/// command then ends by that signal (cli::reraise_after_exit).
class StoppedBySignal : public std::runtime_error {
 public:
  StoppedBySignal(int sig, size_t unfinished)
      : std::runtime_error("stopped by a signal"), signal(sig), unfinished_runs(unfinished) {}
  int signal;
  size_t unfinished_runs;
};

/// Runs `todo` with `jobs` worker processes, each killed after `run_timeout_s` seconds;
/// returns the number of failed runs. Workers die with the calling process (even by
/// SIGKILL). Throws (after stopping the workers) if a status cannot be written, and
/// StoppedBySignal on SIGINT or SIGTERM. A run's previous status (a failure that --resume
/// runs again) is removed before it starts; a worker that ends without writing one gets
/// one naming its exit code or signal.
size_t run_local(const std::filesystem::path& out, const std::vector<RunPlan>& todo, size_t jobs, Reporter& reporter,
                 unsigned run_timeout_s = kDefaultRunTimeoutS);

struct SlurmOptions {
  size_t pack = 1;            ///< runs per array task
  size_t throttle = 0;        ///< at most this many tasks at once (%throttle); 0: no limit
  size_t max_array_size = 0;  ///< 0: ask the cluster (scontrol show config), 1001 if unknown
  size_t run_timeout_s = 0;   ///< with no `time`: the task's time limit is pack x this (0: none)
  std::string partition, time, mem, account;
  std::vector<std::string> extra_sbatch;  ///< further "#SBATCH ..." lines (without the prefix)
  double poll_seconds = 0.5;
  bool dry_run = false;  ///< write and print the scripts, do not submit
};

/// One job array: its batch script and the run ids its tasks execute.
struct ArrayJob {
  std::filesystem::path script;
  std::filesystem::path list;  ///< run ids, one per line; task t runs lines [t K, t K + K)
  std::string text;            ///< the script
  std::vector<std::string> run_ids;
  size_t tasks = 0;
};

/// The job arrays for `todo` (K runs per task, at most max_array_size tasks per array).
std::vector<ArrayJob> plan_arrays(const std::filesystem::path& out, const std::vector<RunPlan>& todo,
                                  const SlurmOptions& o, size_t max_array_size, const std::string& binary);

/// Writes the scripts, submits them (unless dry_run) and waits; returns the number of
/// failed runs (no status or a non-zero exit code), or throws std::runtime_error when
/// SLURM itself fails (sbatch missing, submission refused).
size_t run_slurm(const std::filesystem::path& out, const std::vector<RunPlan>& todo, const SlurmOptions& o,
                 const std::string& binary, Reporter& reporter);

/// Body of one array task: runs lines [task K, task K + K) of `list`, each after removing
/// its previous status (a failure of an earlier attempt must not stand for this one's);
/// returns non-zero if any of them failed. `planned_by`: the build_identity() that planned
/// the sweep (its run ids hold it); a task run by another build (fastsim rebuilt while the
/// jobs were queued) runs nothing and records each run as failed, saying so.
int run_task(const std::filesystem::path& out, const std::filesystem::path& list, size_t task, size_t pack,
             const std::string& planned_by, Reporter& reporter);

}  // namespace fastsim::sweep
