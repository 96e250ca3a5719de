// fastsim sweep, collect, check and the internal sweep-task (see docs/sweeps.md).
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <system_error>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <boost/program_options.hpp>

#include "commands.hpp"
#include "fastsim/config/limits.hpp"
#include "fastsim/config/parse.hpp"
#include "fastsim/config/units.hpp"
#include "fastsim/core/build_identity.hpp"
#include "fastsim/run/resource_estimate.hpp"
#include "fastsim/sweep/backends.hpp"
#include "fastsim/sweep/check.hpp"
#include "fastsim/sweep/collect.hpp"
#include "fastsim/sweep/folder_lock.hpp"
#include "fastsim/sweep/run_store.hpp"
#include "fastsim/sweep/sweep_spec.hpp"
#include "fastsim/trace/atomic_file.hpp"
#include "int_option.hpp"
#include "overrides.hpp"
#include "terminal_reporter.hpp"

namespace fastsim::cli {

namespace po = boost::program_options;
namespace fs = std::filesystem;
using config::ScenarioError;
using nlohmann::json;

namespace {

std::string self_binary() {
  std::error_code ec;
  const auto p = fs::canonical("/proc/self/exe", ec);
  return ec ? std::string("fastsim") : p.string();
}

// The allowed ranges of the integer options (docs/sweeps.md, "Option ranges").
constexpr int64_t kMaxJobs = 4096;           // worker processes of one machine
constexpr int64_t kMaxPack = 100000;         // runs per array task
constexpr int64_t kMaxArrayTasks = 4000001;  // SLURM's largest MaxArraySize
constexpr int64_t kMaxRunTimeoutS = 7 * 24 * 3600;

size_t default_jobs() {
  return std::max(1u, std::thread::hardware_concurrency());
}

/// A fresh folder under the system's temporary folder (mkdtemp), removed with its
/// contents when the object goes away: on every exit path of fastsim check.
class TemporaryFolder {
 public:
  TemporaryFolder() {
    std::string name = (fs::temp_directory_path() / "fastsim-check-XXXXXX").string();
    if (::mkdtemp(name.data()) == nullptr)
      throw std::system_error(errno, std::generic_category(), "cannot create a temporary folder " + name);
    path_ = name;
  }
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;
  ~TemporaryFolder() {
    std::error_code ec;  // never throws
    fs::remove_all(path_, ec);
  }
  [[nodiscard]] const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

/// Takes DIR's lock (sweep/folder_lock.hpp); if another process holds it (exit code 2)
/// or it cannot be taken (3), prints why, sets `rc` and returns null.
std::unique_ptr<sweep::FolderLock> lock_folder(const char* cmd, const fs::path& dir, int& rc) {
  try {
    auto lock = std::make_unique<sweep::FolderLock>(dir);
    if (lock->stale_owner()) {
      std::cerr << fmt::format("[{}] warning: taking over the lock {} of {}, which ended without releasing it\n", cmd,
                               lock->path().string(), *lock->stale_owner());
    }
    return lock;
  } catch (const sweep::FolderBusy& e) {
    std::cerr << fmt::format("fastsim {}: {}\n", cmd, e.what());
    rc = kUsage;
  } catch (const std::exception& e) {
    std::cerr << fmt::format("fastsim {}: {}\n", cmd, e.what());
    rc = kRunFailed;
  }
  return nullptr;
}

/// Flushes standard output; false (with a message naming the OS error) if writing failed.
bool stdout_written(const char* cmd) {
  errno = 0;
  std::cout.flush();
  if (std::cout)
    return true;
  std::cerr << fmt::format("fastsim {}: cannot write to standard output: {}\n", cmd,
                           std::strerror(errno != 0 ? errno : EIO));
  return false;
}

/// The SLURM options: only with --backend slurm (the local pool would ignore them), and each
/// a value sbatch takes on its #SBATCH line (a newline in --partition used to end the header
/// there, so sbatch ignored the lines after it). Prints the problem; false on one.
bool slurm_options_ok(const po::variables_map& vm, const std::string& backend, const sweep::SlurmOptions& o) {
  static const char* const kSlurmOnly[] = {"pack",    "throttle", "partition",     "time",
                                           "mem",     "account",  "sbatch",        "max-array-size"};
  if (backend != "slurm") {
    for (const char* name : kSlurmOnly) {
      if (vm.count(name)) {
        std::cerr << fmt::format("fastsim sweep: --{} applies to --backend slurm only\n", name);
        return false;
      }
    }
    return true;
  }
  struct Check {
    const char* name;
    const std::string& value;
    const char* pattern;
    const char* allowed;
  };
  const Check checks[] = {
      {"partition", o.partition, "[A-Za-z0-9_.,+-]+", "a partition name (letters, digits, _ . , + -)"},
      {"account", o.account, "[A-Za-z0-9_.+-]+", "an account name (letters, digits, _ . + -)"},
      {"mem", o.mem, "[0-9]+[KMGTkmgt]?", "a size like 4G, 500M or 2048 (megabytes)"},
      {"time", o.time, "([0-9]+-)?[0-9]+(:[0-9]+){0,2}|-1|unlimited|infinite",
       "a SLURM time: minutes, minutes:seconds, hours:minutes:seconds, days-hours, days-hours:minutes, "
       "days-hours:minutes:seconds, or UNLIMITED"},
  };
  for (const auto& c : checks) {
    if (!c.value.empty() && !std::regex_match(c.value, std::regex(c.pattern, std::regex::icase))) {
      std::cerr << fmt::format("fastsim sweep: --{} expects {}, got \"{}\"\n", c.name, c.allowed, c.value);
      return false;
    }
  }
  for (const auto& line : o.extra_sbatch) {
    const bool control = std::any_of(line.begin(), line.end(), [](char ch) { return ch >= 0 && ch < 0x20; });
    if (control || line.empty() || line[0] != '-') {
      std::cerr << fmt::format(
          "fastsim sweep: --sbatch expects one sbatch option for an #SBATCH line, like --qos=high (without "
          "\"#SBATCH\", on one line), got \"{}\"\n",
          line);
      return false;
    }
  }
  return true;
}

/// The last line of a run's log.txt ("" if none): why a run without a status ended.
std::string last_log_line(const fs::path& dir) {
  std::ifstream in(dir / "log.txt");
  std::string last;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty())
      last = line;
  }
  return last;
}

void print_failures(const fs::path& out, const std::vector<sweep::RunPlan>& runs) {
  for (const auto& r : runs) {
    const fs::path dir = sweep::run_dir(out, r.id);
    const auto s = sweep::read_status(dir);
    if (s && s->exit_code == 0)
      continue;
    std::string why = s ? fmt::format("exit code {}: {}", s->exit_code, s->error)
                        : std::string("no status (the task did not finish)");
    // No status, or one the driver wrote for the worker (a timeout, a signal, an exit without
    // a status): what the worker last said, a write error of its status among them.
    if (const std::string log = last_log_line(dir); (!s || s->build.empty()) && !log.empty())
      why += fmt::format("; {}: {}", (dir / "log.txt").string(), log);
    std::cerr << fmt::format("  failed: run {} {} replication {}: {}\n", r.id, r.params.dump(), r.replication, why);
  }
}

}  // namespace

std::optional<int> parse_options(const char* cmd, const char* usage, const std::vector<std::string>& args,
                                 po::options_description& opts, const char* positional, po::variables_map& vm) {
  opts.add_options()("help,h", "print this help");
  po::positional_options_description pos;
  if (positional != nullptr)
    pos.add(positional, 1);
  try {
    po::store(po::command_line_parser(args).options(opts).positional(pos).run(), vm);
    if (vm.count("help")) {  // before the values are checked: --help always helps
      std::cout << usage << "\n" << opts;
      return kOk;
    }
    po::notify(vm);
    return std::nullopt;
  } catch (const po::error& e) {
    std::cerr << fmt::format("fastsim {}: {}\n", cmd, e.what()) << usage << "\n" << opts;
    return kUsage;
  }
}

namespace {

const char* kSweepUsage =
    "usage: fastsim sweep SPEC --out DIR [--backend local|slurm] [--jobs N] [--run-timeout S] [--dry-run]\n"
    "                     [--resume] [--set /json/pointer=value ...] [--unset /json/pointer ...] [options]\n"
    "  run a grid/zip of scenarios x replications (docs/sweeps.md); --unset, then --set, change the base\n"
    "  scenario before the sweep's own values are set";

/// "[sweep] estimate of all runs: ..." (stderr), against the sweep's total limits.
std::string describe_estimate(const sweep::SweepEstimate& e) {
  return fmt::format("[sweep] estimate of all {} runs: files ~{}, packets ~{:.3g} (limits: sweep-output-bytes, "
                     "sweep-packets; docs/limits.md)\n",
                     e.runs, config::format_bytes(e.output_bytes), static_cast<double>(e.packets));
}

}  // namespace

int cmd_sweep(const std::vector<std::string>& args) {
  po::options_description opts("sweep options");
  std::string spec_file, out, backend = "local";
  size_t jobs = default_jobs();
  unsigned run_timeout = sweep::kDefaultRunTimeoutS;
  sweep::SlurmOptions slurm;
  uint64_t max_runs = sweep::kDefaultMaxRuns;
  std::vector<std::string> limits, sets, unsets;
  opts.add_options()("spec", po::value(&spec_file), "sweep spec (JSON)")("out", po::value(&out), "sweep folder")(
      "backend", po::value(&backend), "local (default) or slurm")("jobs", int_in_range(&jobs, "jobs", 1, kMaxJobs),
                                                                  "local worker processes, 1 to 4096 (default: cores)")(
      "run-timeout", int_in_range(&run_timeout, "run-timeout", 1, kMaxRunTimeoutS),
      "seconds of wall time after which a run is killed and failed (local: default 3600; slurm: the task's time "
      "limit when --time is not given)")(
      "dry-run", "print the runs (local) or write and print the batch scripts (slurm), run nothing")(
      "resume", "run only the runs without a successful status")("pack", int_in_range(&slurm.pack, "pack", 1, kMaxPack),
                                                                 "slurm: runs per array task (default 1)")(
      "throttle", int_in_range(&slurm.throttle, "throttle", 1, kMaxArrayTasks), "slurm: at most N array tasks at once")(
      "partition", po::value(&slurm.partition), "slurm: partition")("time", po::value(&slurm.time),
                                                                    "slurm: time limit per task")(
      "mem", po::value(&slurm.mem), "slurm: memory per task")("account", po::value(&slurm.account), "slurm: account")(
      "sbatch", po::value(&slurm.extra_sbatch)->composing(), "slurm: an extra #SBATCH line (repeatable)")(
      "max-array-size", int_in_range(&slurm.max_array_size, "max-array-size", 1, kMaxArrayTasks),
      "slurm: split arrays at N tasks (default: the cluster's)")(
      "max-runs", int_in_range(&max_runs, "max-runs", 1, INT64_MAX), "refuse a sweep of more runs (default 100000)")(
      "limit", po::value(&limits)->composing(), "raise a run's resource limit NAME=VALUE (docs/limits.md)")(
      "set", po::value(&sets)->composing(),
      "set /json/pointer=value in the base scenario (before the sweep's grid and zip values)")(
      "unset", po::value(&unsets)->composing(), "delete /json/pointer from the base scenario (before --set)")(
      "quiet,q", "no progress line, no estimate line");
  po::variables_map vm;
  if (auto rc = parse_options("sweep", kSweepUsage, args, opts, "spec", vm))
    return *rc;
  if (spec_file.empty() || out.empty()) {
    std::cerr << "fastsim sweep: need a SPEC file and --out DIR\n" << kSweepUsage << "\n" << opts;
    return kUsage;
  }
  if (!overrides_ok("sweep", sets, unsets))
    return kUsage;
  if (backend != "local" && backend != "slurm") {
    std::cerr << fmt::format("fastsim sweep: --backend must be local or slurm, got \"{}\"\n", backend);
    return kUsage;
  }
  if (!slurm_options_ok(vm, backend, slurm))
    return kUsage;
  if (const std::string abs = fs::absolute(out).string();
      backend == "slurm" && abs.find_first_of(" \t\n%") != std::string::npos) {
    std::cerr << fmt::format(
        "fastsim sweep: --out {}: the SLURM scripts name it in #SBATCH --output, which sbatch splits at white space "
        "and where % starts a pattern: choose a folder whose absolute path has neither\n",
        abs);
    return kUsage;
  }
  if (vm.count("run-timeout"))
    slurm.run_timeout_s = run_timeout;
  config::Limits run_limits;
  for (const auto& l : limits) {
    if (auto error = config::set_limit(run_limits, l)) {
      std::cerr << fmt::format("fastsim sweep: {}\n", *error);
      return kUsage;
    }
  }
  if (run_limits.interval_flow_entries != config::Limits{}.interval_flow_entries) {
    std::cerr << "fastsim sweep: --limit interval-flows shapes a run's summary and is not available for sweeps "
                 "(their runs list the default); raise memory, trace-bytes or packets\n";
    return kUsage;
  }
  const bool resume = vm.count("resume") > 0;
  slurm.dry_run = vm.count("dry-run") > 0;
  json spec_doc;
  std::vector<sweep::RunPlan> runs;
  std::optional<sweep::SweepSpec> spec_kept;  // write_plan() makes each run's document from it
  sweep::SweepEstimate estimate;
  try {
    spec_doc = config::load_json_file(spec_file);
    override_base(spec_doc, fs::path(spec_file).parent_path(), sets, unsets);
    auto spec = sweep::parse_sweep_spec(spec_doc, fs::path(spec_file).parent_path().string());
    spec.limits = run_limits;
    if (slurm.dry_run && backend == "local") {
      // Streamed: one scenario in memory at a time. A validating pass first, so that a
      // bad spec prints its errors and no runs.
      estimate = sweep::for_each_run(spec, build_identity(), max_runs, [](sweep::RunPlan&&) {});
      sweep::for_each_run(spec, build_identity(), max_runs, [](sweep::RunPlan&& r) {
        std::cout << fmt::format("{} {} {} replication {} seed {}\n", r.index, r.id, r.params.dump(), r.replication,
                                 r.seed);
      });
      std::cout << fmt::format("{} runs\n", *sweep::run_count(spec));
      if (!stdout_written("sweep"))
        return kRunFailed;
      if (vm.count("quiet") == 0)
        std::cerr << describe_estimate(estimate);
      return kOk;
    }
    // Without the documents: memory holds each run's parameters, whatever the base's size.
    runs = sweep::expand(spec, build_identity(), max_runs, false, &estimate);
    spec_kept = std::move(spec);
  } catch (const ScenarioError& e) {
    print_issues(e, spec_file);
    return kBadScenario;
  }
  const fs::path dir = out;
  int rc = kOk;
  const auto lock = lock_folder("sweep", dir, rc);  // held until the sweep ends
  if (!lock)
    return rc;
  if (fs::exists(dir / "sweep.json") && !resume) {
    std::cerr << fmt::format("fastsim sweep: {} already holds a sweep: use --resume, or another --out\n", out);
    return kUsage;
  }
  std::vector<sweep::RunPlan> todo;
  try {
    if (resume && fs::exists(dir / "sweep.json")) {  // a changed spec: say what the new plan leaves out
      std::set<std::string> now;
      for (const auto& r : runs)
        now.insert(r.id);
      size_t dropped = 0;
      std::string made_by;
      for (const auto& r : sweep::read_plan(dir, &made_by))
        dropped += now.count(r.id) ? 0 : 1;
      if (made_by != build_identity()) {  // a run id holds the build: none of the old runs is reused
        std::cerr << fmt::format(
            "[sweep] warning: the previous plan was made by another build of fastsim ({}; this is {}): a run id "
            "holds the build, so its runs are not reused (their folders stay in {}/runs; collect reads only this "
            "plan)\n",
            made_by, build_identity(), out);
      } else if (dropped > 0) {
        std::cerr << fmt::format(
            "[sweep] warning: the spec changed: {} runs of the previous plan are not in this one "
            "(their folders stay in {}/runs; collect reads only this plan)\n",
            dropped, out);
      }
    }
    fs::create_directories(dir);
    sweep::write_plan(dir, spec_doc, runs, build_identity(), &*spec_kept);
    sweep::release_documents(runs);
    for (const auto& r : runs) {
      if (!resume || sweep::run_state(dir, r.id) != sweep::RunState::kOk)
        todo.push_back(r);
    }
    const bool quiet = vm.count("quiet") > 0;
    if (!quiet) {
      std::cerr << fmt::format("[sweep] {} runs, {} to do ({} backend) -> {}\n", runs.size(), todo.size(), backend,
                               out)
                << describe_estimate(estimate);
    }
    TerminalReporter reporter(quiet);
    if (backend == "local") {
      try {
        sweep::run_local(dir, todo, jobs, reporter, run_timeout);
      } catch (const sweep::StoppedBySignal& stop) {
        std::cerr << fmt::format("[sweep] stopped by signal {}: {} runs unfinished (--resume runs them)\n",
                                 stop.signal, stop.unfinished_runs);
        return reraise_after_exit(stop.signal);
      }
    } else {
      sweep::run_slurm(dir, todo, slurm, self_binary(), reporter);
      if (slurm.dry_run)
        return stdout_written("sweep") ? kOk : kRunFailed;
    }
  } catch (const std::exception& e) {
    std::cerr << "fastsim sweep: failed: " << e.what() << "\n";
    return kRunFailed;
  }
  size_t ok = 0;
  for (const auto& r : runs)
    ok += sweep::run_state(dir, r.id) == sweep::RunState::kOk ? 1 : 0;
  std::cerr << fmt::format("[sweep] {} runs: {} ok, {} failed\n", runs.size(), ok, runs.size() - ok);
  if (ok != runs.size()) {
    print_failures(dir, runs);
    std::cerr << "[sweep] fix the cause and rerun with --resume to run only those\n";
    return kRunFailed;
  }
  return kOk;
}

int cmd_sweep_task(const std::vector<std::string>& args) {
  po::options_description opts("sweep-task options");
  std::string out, list, build;
  size_t task = 0, pack = 1;
  opts.add_options()("out", po::value(&out), "sweep folder")("list", po::value(&list), "run list")(
      "task", int_in_range(&task, "task", 0, kMaxArrayTasks), "array task index")(
      "pack", int_in_range(&pack, "pack", 1, kMaxPack), "runs per task")(
      "build", po::value(&build), "the build that planned the sweep (a task of another build runs nothing)");
  po::variables_map vm;
  const char* usage =
      "usage: fastsim sweep-task OUT --list FILE --task N --pack K [--build ID] (run by SLURM array tasks)";
  if (auto rc = parse_options("sweep-task", usage, args, opts, "out", vm))
    return *rc;
  if (out.empty() || list.empty()) {
    std::cerr << usage << "\n";
    return kUsage;
  }
  TerminalReporter reporter(false);
  return sweep::run_task(out, list, task, pack, build, reporter);
}

int cmd_collect(const std::vector<std::string>& cmd_args) {
  po::options_description opts("collect options");
  std::string folder;
  opts.add_options()("dir", po::value(&folder), "sweep folder");
  po::variables_map vm;
  const char* usage =
      "usage: fastsim collect DIR\n"
      "  write runs.csv, flows.csv, aggregate.csv and aggregate_flows.csv of the sweep in DIR (docs/sweeps.md)";
  if (auto rc = parse_options("collect", usage, cmd_args, opts, "dir", vm))
    return *rc;
  if (folder.empty()) {
    std::cerr << usage << "\n";
    return kUsage;
  }
  const std::vector<std::string> args{folder};
  int rc = kOk;
  std::unique_ptr<sweep::FolderLock> lock;  // not in a folder without a sweep: collect says so
  if (fs::exists(fs::path(args[0]) / "sweep.json") && !(lock = lock_folder("collect", args[0], rc)))
    return rc;
  try {
    const auto r = sweep::collect(args[0]);
    std::cout << fmt::format(
        "{}: runs.csv, flows.csv, aggregate.csv, aggregate_flows.csv ({} runs: {} ok, {} failed, {} not run, {} "
        "unusable)\n",
        args[0], r.runs, r.ok, r.failed, r.missing, r.unusable.size());
    for (const auto& point : r.points_without_runs)
      std::cerr << fmt::format("  no successful run at point {}: no row in the aggregates\n", point);
    if (r.unusable.empty())
      return kOk;
    for (const auto& u : r.unusable)
      std::cerr << "  unusable: " << u << "\n";
    std::cerr << fmt::format(
        "fastsim collect: {} runs say they succeeded but have no usable summary.json: they are left out of "
        "flows.csv and aggregate.csv; rerun them (delete their status.json, then fastsim sweep --resume)\n",
        r.unusable.size());
    return kRunFailed;
  } catch (const sweep::NotASweep& e) {
    std::cerr << fmt::format("fastsim collect: {}\n", e.what());
    return kBadScenario;
  } catch (const std::exception& e) {
    std::cerr << fmt::format("fastsim collect: {}\n", e.what());
    return kRunFailed;
  }
}

int cmd_check(const std::vector<std::string>& args) {
  po::options_description opts("check options");
  std::string baseline_file, results;
  size_t jobs = default_jobs();
  uint64_t replications = 0;  // 0: the file's
  opts.add_options()("baseline", po::value(&baseline_file), "baseline file")(
      "results", po::value(&results), "results folder: reuse its successful runs, run the others into it")(
      "update", "rewrite the expected values from the measured means")(
      "replications",
      int_in_range(&replications, "replications", 1, static_cast<int64_t>(sweep::kMaxCheckReplications)),
      "runs per scenario, 1 to 1000 (default: the baseline's \"replications\", else 1)")(
      "jobs", int_in_range(&jobs, "jobs", 1, kMaxJobs), "worker processes, 1 to 4096 (default: cores)")(
      "quiet,q", "no progress line");
  po::variables_map vm;
  const char* usage =
      "usage: fastsim check BASELINE.json [--results DIR] [--update] [--replications N] [--jobs N] [--quiet]\n"
      "  run a regression baseline; exit 4 if a metric's mean leaves its band (docs/sweeps.md)";
  if (auto rc = parse_options("check", usage, args, opts, "baseline", vm))
    return *rc;
  if (baseline_file.empty()) {
    std::cerr << usage << "\n";
    return kUsage;
  }
  const std::optional<uint64_t> forced = replications > 0 ? std::optional<uint64_t>(replications) : std::nullopt;
  sweep::Baseline baseline;
  std::vector<sweep::RunPlan> plans;
  std::vector<uint64_t> counts;  // replications per scenario
  try {
    const json doc = config::load_json_file(baseline_file);
    baseline = sweep::parse_baseline(doc, fs::path(baseline_file).parent_path().string());
    for (size_t i = 0; i < baseline.scenarios.size(); ++i) {
      const auto& s = baseline.scenarios[i];
      json scenario;
      uint64_t seed = 1;
      try {  // report a scenario's problems under the baseline entry that names it
        scenario = config::load_json_file(s.file);
        config::apply_overrides(scenario, s.sets);
        if (s.seed)
          scenario["seed"] = *s.seed;
        const auto parsed = config::parse_scenario(scenario);  // the default limits
        run::enforce_limits(parsed);
        seed = parsed.seed;
      } catch (const ScenarioError& e) {
        config::Issues located;
        for (const auto& issue : e.issues()) {
          located.push_back(
              {fmt::format("/scenarios/{}", i), fmt::format("{} (with its \"set\"): {}", s.file, issue.to_string())});
        }
        throw ScenarioError(located);
      }
      counts.push_back(sweep::replications_of(baseline, s, forced));
      for (uint64_t r = 0; r < counts.back(); ++r) {
        sweep::RunPlan p;
        p.index = plans.size();
        p.id = sweep::replication_id(s.name, r);
        p.replication = r;
        p.scenario = scenario;
        if (r > 0)  // replication 0 runs the scenario as written
          p.scenario["seed"] = sweep::derive_seed(seed, r);
        plans.push_back(std::move(p));
      }
    }
  } catch (const ScenarioError& e) {
    print_issues(e, baseline_file);
    return kBadScenario;
  }
  const bool temporary = results.empty();
  std::optional<TemporaryFolder> scratch;  // removed on every way out of check
  try {
    if (temporary)
      scratch.emplace();
  } catch (const std::exception& e) {
    std::cerr << "fastsim check: failed: " << e.what() << "\n";
    return kRunFailed;
  }
  const fs::path dir = temporary ? scratch->path() : fs::path(results);
  int rc = kOk;
  std::unique_ptr<sweep::FolderLock> lock;  // a results folder is shared between checks
  if (!temporary && !(lock = lock_folder("check", dir, rc)))
    return rc;
  std::vector<sweep::RunPlan> todo;
  try {
    for (auto& p : plans) {
      const fs::path rd = sweep::run_dir(dir, p.id);
      // Reuse a result only if it was made from the same scenario by this build.
      const fs::path sc = rd / "scenario.json";
      bool same = false;
      const auto status = temporary ? std::nullopt : sweep::read_status(rd);
      if (status && status->exit_code == 0 && status->build == build_identity() && fs::exists(sc)) {
        try {
          same = config::load_json_file(sc.string()) == p.scenario;
        } catch (const std::exception&) {
        }
      }
      if (same)
        continue;
      fs::create_directories(rd);
      fs::remove(rd / "status.json");
      trace::write_file_atomically(sc.string(), p.scenario.dump(2) + "\n");
      todo.push_back(std::move(p));
    }
    // Each run reads its scenario.json: the workers forked below need none of the documents.
    sweep::release_documents(plans);
    sweep::release_documents(todo);
    TerminalReporter reporter(vm.count("quiet") > 0 || todo.empty());
    sweep::run_local(dir, todo, jobs, reporter);
  } catch (const sweep::StoppedBySignal& stop) {  // the temporary folder goes with `scratch`
    std::cerr << fmt::format("[check] stopped by signal {}: {} runs unfinished{}\n", stop.signal,
                             stop.unfinished_runs, temporary ? "" : " (the next check --results runs them)");
    return reraise_after_exit(stop.signal);
  } catch (const std::exception& e) {
    std::cerr << "fastsim check: failed: " << e.what() << "\n";
    return kRunFailed;
  }
  // The table: per metric the mean over the replications, the half-width of its 95 %
  // confidence interval and n.
  size_t failures = 0, missing = 0;
  std::vector<std::string> diffs, failed_runs;
  std::vector<sweep::ExpectedUpdate> updates;
  std::cout << fmt::format("{:<28} {:<44} {:>14} {:>14} {:>11} {:>4} {:>29}  {}\n", "scenario", "metric", "expected",
                           "mean", "ci95 +-", "n", "band", "result");
  for (size_t i = 0; i < baseline.scenarios.size(); ++i) {
    const auto& s = baseline.scenarios[i];
    std::vector<json> summaries;
    for (uint64_t r = 0; r < counts[i]; ++r) {
      const std::string id = sweep::replication_id(s.name, r);
      const fs::path rd = sweep::run_dir(dir, id);
      const auto status = sweep::read_status(rd);
      json summary;
      if (status && status->exit_code == 0) {
        try {
          summary = config::load_json_file((rd / "summary.json").string());
        } catch (const std::exception&) {
          failed_runs.push_back(id);
          std::cout << fmt::format("{:<28} run failed: no readable {}\n", id, (rd / "summary.json").string());
        }
      } else {
        failed_runs.push_back(id);
        std::cout << fmt::format("{:<28} run failed: {}\n", id, status ? status->error : "no status");
      }
      summaries.push_back(std::move(summary));
    }
    for (size_t k = 0; k < s.metrics.size(); ++k) {
      const auto& m = s.metrics[k];
      std::vector<std::optional<double>> values;
      for (const auto& summary : summaries)
        values.push_back(sweep::metric_value(summary, m.metric));
      const auto o = sweep::evaluate(m, values);
      failures += o.pass ? 0 : 1;
      missing += o.complete ? 0 : 1;
      const auto [lo, hi] = sweep::band(m);
      std::cout << fmt::format("{:<28} {:<44} {:>14.6g} {:>14} {:>11} {:>4} {:>29}  {}\n", s.name, m.metric, m.expected,
                               o.n > 0 ? fmt::format("{:.6g}", o.mean) : "missing",
                               o.half_width ? fmt::format("{:.3g}", *o.half_width) : "-", o.n,
                               fmt::format("[{:.6g}, {:.6g}]", lo, hi), o.pass ? "pass" : "FAIL");
      if (o.complete && o.mean != m.expected) {
        updates.push_back({i, k, o.mean});
        diffs.push_back(fmt::format("{} {}: {:.17g} -> {:.17g}", s.name, m.metric, m.expected, o.mean));
      }
    }
  }
  if (vm.count("update")) {
    // Never write a baseline from a failed run or with a metric that was not measured.
    if (!failed_runs.empty() || missing > 0) {
      std::cerr << fmt::format("fastsim check: {} not updated: {}\n", baseline_file,
                               !failed_runs.empty()
                                   ? fmt::format("scenario(s) {} failed to run", fmt::join(failed_runs, ", "))
                                   : fmt::format("{} metric(s) missing from the summaries", missing));
      return failed_runs.empty() ? kCheckFailed : kRunFailed;
    }
    try {
      // Only the expected values change: the file keeps its order and layout.
      std::ifstream in(baseline_file, std::ios::binary);
      const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
      if (!in.good() && !in.eof())
        throw std::runtime_error("cannot read " + baseline_file);
      trace::write_file_atomically(baseline_file, sweep::update_expected(text, updates));
    } catch (const std::exception& e) {
      std::cerr << fmt::format("fastsim check: {} not updated: {}\n", baseline_file, e.what());
      return kRunFailed;
    }
    std::cout << fmt::format("updated {} expected values in {}\n", diffs.size(), baseline_file);
    for (const auto& d : diffs)
      std::cout << "  " << d << "\n";
    return kOk;
  }
  std::cout << fmt::format("{} of {} metrics outside their band\n", failures, [&] {
    size_t n = 0;
    for (const auto& s : baseline.scenarios)
      n += s.metrics.size();
    return n;
  }());
  // A run that failed is a failure to run (exit 3), not a regression (4): CI tells the two apart.
  if (!failed_runs.empty()) {
    std::cerr << fmt::format("fastsim check: {} run(s) failed ({}): the metrics above lack them\n",
                             failed_runs.size(), fmt::join(failed_runs, ", "));
    return kRunFailed;
  }
  return failures == 0 ? kOk : kCheckFailed;
}

}  // namespace fastsim::cli
