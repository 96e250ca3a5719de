// The SLURM backend (see backends.hpp): job-array scripts, sbatch, squeue polling, and
// the body of one array task.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "fastsim/core/build_identity.hpp"
#include "fastsim/sweep/backends.hpp"
#include "fastsim/sweep/run_store.hpp"
#include "fastsim/trace/atomic_file.hpp"

namespace fastsim::sweep {

namespace fs = std::filesystem;

namespace {

/// Single-quotes `s` for the shell.
std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

/// Runs a shell command; returns (exit code, stdout).
std::pair<int, std::string> shell(const std::string& command) {
  std::string output;
  FILE* f = popen(command.c_str(), "r");
  if (f == nullptr)
    return {127, ""};
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), f)) > 0)
    output.append(buf.data(), n);
  const int status = pclose(f);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128, output};
}

size_t cluster_max_array_size() {
  const auto [rc, text] = shell("scontrol show config 2>/dev/null");
  if (rc == 0) {
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("MaxArraySize", 0) == 0) {
        const auto eq = line.find('=');
        if (eq != std::string::npos) {
          try {
            return std::max<size_t>(1, std::stoul(line.substr(eq + 1)));
          } catch (const std::exception&) {
          }
        }
      }
    }
  }
  return 1001;  // SLURM's default
}

}  // namespace

std::vector<ArrayJob> plan_arrays(const fs::path& out, const std::vector<RunPlan>& todo, const SlurmOptions& o,
                                  size_t max_array_size, const std::string& binary) {
  const size_t pack = std::max<size_t>(1, o.pack);
  const size_t tasks_total = (todo.size() + pack - 1) / pack;
  // Array indices run 0..tasks-1 and must stay below MaxArraySize.
  const size_t per_array = std::max<size_t>(1, max_array_size);
  std::vector<ArrayJob> arrays;
  for (size_t first_task = 0; first_task < tasks_total; first_task += per_array) {
    ArrayJob a;
    const size_t k = arrays.size();
    a.tasks = std::min(per_array, tasks_total - first_task);
    a.script = out / "slurm" / fmt::format("array-{}.sh", k);
    a.list = out / "slurm" / fmt::format("array-{}.runs", k);
    for (size_t i = first_task * pack; i < std::min(todo.size(), (first_task + a.tasks) * pack); ++i)
      a.run_ids.push_back(todo[i].id);
    std::string t = "#!/bin/bash\n";
    t += "#SBATCH --job-name=fastsim-sweep\n";
    t += fmt::format("#SBATCH --array=0-{}{}\n", a.tasks - 1, o.throttle > 0 ? fmt::format("%{}", o.throttle) : "");
    t += fmt::format("#SBATCH --output={}\n", (out / "slurm" / fmt::format("array-{}-task-%a.log", k)).string());
    t += "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n";
    if (!o.partition.empty())
      t += fmt::format("#SBATCH --partition={}\n", o.partition);
    if (!o.time.empty()) {
      t += fmt::format("#SBATCH --time={}\n", o.time);
    } else if (o.run_timeout_s > 0) {  // --run-timeout: pack runs of at most that long, in whole minutes
      t += fmt::format("#SBATCH --time={}\n", (pack * o.run_timeout_s + 59) / 60);
    }
    if (!o.mem.empty())
      t += fmt::format("#SBATCH --mem={}\n", o.mem);
    if (!o.account.empty())
      t += fmt::format("#SBATCH --account={}\n", o.account);
    for (const auto& line : o.extra_sbatch)
      t += fmt::format("#SBATCH {}\n", line);
    t += fmt::format("# {} runs, {} per task; the runs are listed in {}\n", a.run_ids.size(), pack, a.list.string());
    t += fmt::format("exec {} sweep-task {} --list {} --task \"$SLURM_ARRAY_TASK_ID\" --pack {} --build {}\n",
                     quote(binary), quote(out.string()), quote(a.list.string()), pack, quote(build_identity()));
    a.text = t;
    arrays.push_back(std::move(a));
  }
  return arrays;
}

size_t run_slurm(const fs::path& out, const std::vector<RunPlan>& todo, const SlurmOptions& o,
                 const std::string& binary, Reporter& reporter) {
  if (todo.empty())
    return 0;
  const size_t max_array = o.max_array_size > 0 ? o.max_array_size : cluster_max_array_size();
  // Absolute paths in the scripts: a script submitted by hand from another folder (a dry
  // run's) must find the sweep, its lists and its logs.
  const auto arrays = plan_arrays(fs::absolute(out).lexically_normal(), todo, o, max_array, binary);
  fs::create_directories(out / "slurm");
  for (const auto& a : arrays) {
    std::string ids;
    for (const auto& id : a.run_ids)
      ids += id + "\n";
    trace::write_file_atomically(a.list.string(), ids);
    trace::write_file_atomically(a.script.string(), a.text);
    if (o.dry_run)
      reporter.output(fmt::format("# {}\n{}\n", a.script.string(), a.text));
  }
  if (o.dry_run)
    return 0;
  std::vector<std::string> job_ids;
  for (const auto& a : arrays) {
    const auto [rc, text] = shell("sbatch --parsable " + quote(a.script.string()) + " 2>&1");
    if (rc != 0)
      throw std::runtime_error(fmt::format("sbatch {} failed ({}): {}", a.script.string(), rc, text));
    const std::string id = text.substr(0, text.find_first_of(";\n"));  // "JOBID[;cluster]"
    job_ids.push_back(id);
    reporter.note(fmt::format("[sweep] submitted {} ({} tasks, {} runs) as job {}", a.script.filename().string(),
                              a.tasks, a.run_ids.size(), id));
  }
  // Wait until no task of ours is pending or running (squeue forgets finished jobs after
  // MinJobAge; "Invalid job id" then also means finished).
  std::string list;
  for (const auto& id : job_ids)
    list += (list.empty() ? "" : ",") + id;
  size_t last_done = SIZE_MAX;
  for (;;) {
    const auto [rc, text] =
        shell("squeue -h -j " + list + " -t PENDING,RUNNING,CONFIGURING,COMPLETING,SUSPENDED -o %i 2>/dev/null");
    size_t active = 0;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
      active += line.empty() ? 0 : 1;
    if (rc != 0 || active == 0)
      break;
    size_t done = 0;
    for (const auto& r : todo)
      done += run_state(out, r.id) == RunState::kMissing ? 0 : 1;
    if (done != last_done) {
      reporter.progress(
          fmt::format("[sweep] {}/{} runs have a status, {} array tasks queued or running", done, todo.size(), active));
      last_done = done;
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(o.poll_seconds));
  }
  reporter.finish();
  size_t failed = 0;
  for (const auto& r : todo) {
    if (run_state(out, r.id) != RunState::kOk)
      ++failed;
  }
  return failed;
}

int run_task(const fs::path& out, const fs::path& list, size_t task, size_t pack, const std::string& planned_by,
             Reporter& reporter) {
  std::ifstream in(list);
  if (!in) {
    reporter.note(fmt::format("sweep-task: cannot read {}", list.string()));
    return 2;
  }
  std::vector<std::string> ids;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty())
      ids.push_back(line);
  }
  int worst = 0;
  for (size_t i = task * pack; i < std::min(ids.size(), (task + 1) * pack); ++i) {
    const fs::path dir = run_dir(out, ids[i]);
    remove_status(dir);
    if (!planned_by.empty() && planned_by != build_identity()) {
      const std::string why = fmt::format(
          "this task's fastsim ({}) is not the build that planned the sweep ({}): it was rebuilt while the jobs were "
          "queued; rerun the sweep with --resume (a new plan for this build)",
          build_identity(), planned_by);
      write_status(dir, {3, 0.0, why, build_identity()});
      reporter.note("[sweep-task] run " + ids[i] + ": " + why);
      worst = 3;
      continue;
    }
    std::ofstream log(dir / "log.txt");
    reporter.note(fmt::format("[sweep-task] run {}", ids[i]));
    const int rc = execute_run(dir, log);
    if (rc != 0)
      reporter.note(fmt::format("[sweep-task] run {} failed with exit code {}", ids[i], rc));
    worst = std::max(worst, rc);
  }
  return worst;
}

}  // namespace fastsim::sweep
