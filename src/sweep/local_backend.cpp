// The local process pool (see backends.hpp): one forked worker per run, at most `jobs`
// at a time; a worker's stdout and stderr go to the run's log.txt. SIGINT or SIGTERM
// stops the workers too (their runs stay without a status) and then the sweep. A worker
// dies with the driver, even when the driver is killed with SIGKILL (PR_SET_PDEATHSIG),
// and kills itself with SIGALRM when its run exceeds the run timeout.
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <deque>
#include <fstream>
#include <iostream>
#include <map>

#include <fmt/format.h>

#include "fastsim/core/huge_pages.hpp"
#include "fastsim/sweep/backends.hpp"
#include "fastsim/sweep/run_store.hpp"

namespace fastsim::sweep {

namespace fs = std::filesystem;

namespace {

/// The driver's signal mask before the pool blocked SIGINT, SIGTERM and SIGCHLD (StopSignals).
sigset_t g_mask_before_pool;

pid_t start_worker(const fs::path& dir, unsigned timeout_s) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const pid_t driver = getpid();
  const pid_t pid = fork();  // with SIGINT and SIGTERM blocked: none reaches the driver's handler in the child
  if (pid != 0)
    return pid;  // parent (or -1)
  // Die with the driver, however it ends; if it ended before the request took effect,
  // the worker has been adopted by another process already.
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != driver)
    _exit(128 + SIGKILL);
  signal(SIGINT, SIG_DFL);  // a worker dies at once (no status: the run is not complete)
  signal(SIGTERM, SIG_DFL);
  signal(SIGALRM, SIG_DFL);
  signal(SIGCHLD, SIG_DFL);
  sigprocmask(SIG_SETMASK, &g_mask_before_pool, nullptr);  // a stop signal sent meanwhile lands now
  alarm(timeout_s);  // the run timeout: SIGALRM ends the worker (the driver records why)
  const int fd = open((dir / "log.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
    close(fd);
  }
  release_free_heap_memory();  // this worker's own free top marked for huge pages again
  int rc = 3;
  try {
    rc = execute_run(dir, std::cerr);
  } catch (...) {
  }
  std::cerr.flush();
  _exit(rc);
}

volatile std::sig_atomic_t g_stop_signal = 0;
extern "C" void on_stop_signal(int sig) {
  g_stop_signal = sig;
}
extern "C" void on_child_exit(int) {}  // wakes sigsuspend

/// While alive, SIGINT and SIGTERM stop the pool instead of killing the sweep and orphaning
/// its workers. The three signals the pool waits for (SIGINT, SIGTERM, SIGCHLD) are blocked
/// except inside wait_for_event(), which unblocks them atomically (sigsuspend): one that
/// arrives while the driver forks or reports is not lost until some worker ends, and a
/// worker never runs the driver's handler (it resets them before it unblocks).
class StopSignals {
 public:
  StopSignals() {
    g_stop_signal = 0;
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
    sa.sa_handler = on_child_exit;
    sigaction(SIGCHLD, &sa, &old_chld_);
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGCHLD);
    sigprocmask(SIG_BLOCK, &block, &g_mask_before_pool);
    wait_mask_ = g_mask_before_pool;
    sigdelset(&wait_mask_, SIGINT);
    sigdelset(&wait_mask_, SIGTERM);
    sigdelset(&wait_mask_, SIGCHLD);
  }
  ~StopSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
    sigaction(SIGCHLD, &old_chld_, nullptr);
    sigprocmask(SIG_SETMASK, &g_mask_before_pool, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  /// A worker that ended (its pid, `status` set), or 0 once a stop signal came.
  pid_t wait_for_event(int& status) const {
    for (;;) {
      if (g_stop_signal != 0)
        return 0;
      const pid_t pid = waitpid(-1, &status, WNOHANG);
      if (pid != 0)
        return pid;  // a worker that ended, or -1: none left
      sigsuspend(&wait_mask_);  // returns after a handler ran: a worker ended, or a stop signal
    }
  }

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
  struct sigaction old_chld_ {};
  sigset_t wait_mask_{};
};

std::string eta(double seconds) {
  const auto s = static_cast<long>(seconds + 0.5);
  return fmt::format("{:02}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60);
}

/// Stops the workers of `running` and waits for them (their runs stay without a status).
void stop_workers(const std::map<pid_t, const RunPlan*>& running) {
  for (const auto& [worker, run] : running)
    kill(worker, SIGTERM);
  for (const auto& [worker, run] : running)
    waitpid(worker, nullptr, 0);
}

}  // namespace

size_t run_local(const fs::path& out, const std::vector<RunPlan>& todo, size_t jobs, Reporter& reporter,
                 unsigned run_timeout_s) {
  std::deque<const RunPlan*> pending;
  for (const auto& r : todo)
    pending.push_back(&r);
  std::map<pid_t, const RunPlan*> running;
  std::map<pid_t, std::chrono::steady_clock::time_point> started;
  size_t done = 0, failed = 0;
  const size_t total = todo.size();
  const auto start = std::chrono::steady_clock::now();
  auto report = [&] {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string left = done > 0 ? eta(elapsed / static_cast<double>(done) * static_cast<double>(total - done))
                                      : std::string("--:--:--");
    reporter.progress(
        fmt::format("[sweep] {}/{} done, {} failed, {} running, ETA {}", done, total, failed, running.size(), left));
  };
  const StopSignals stop_signals;
  unmark_heap_for_forking();  // the driver's pages stay 4-KiB pages: workers inherit them
  try {
    while (!pending.empty() || !running.empty()) {
      if (g_stop_signal != 0) {  // stop the workers, leave their runs without a status
        stop_workers(running);
        running.clear();
        reporter.finish();
        throw StoppedBySignal(static_cast<int>(g_stop_signal), total - done);
      }
      while (!pending.empty() && running.size() < std::max<size_t>(1, jobs)) {
        const RunPlan* r = pending.front();
        pending.pop_front();
        // The clock starts before the fork, so a run killed by its alarm (armed in the
        // child) never reports less than its timeout.
        const auto fork_time = std::chrono::steady_clock::now();
        // A failure of an earlier attempt (--resume) must not stand for this one's outcome.
        remove_status(run_dir(out, r->id));
        const pid_t pid = start_worker(run_dir(out, r->id), run_timeout_s);
        if (pid < 0) {  // cannot fork: record the failure and go on
          write_status(run_dir(out, r->id), {3, 0.0, "fork failed", ""});
          ++done;
          ++failed;
          continue;
        }
        running.emplace(pid, r);
        started[pid] = fork_time;
      }
      report();  // after refilling: the workers running now, not one fewer
      if (running.empty())
        break;
      int wstatus = 0;
      const pid_t pid = stop_signals.wait_for_event(wstatus);
      if (pid == 0)
        continue;  // a stop signal: handled at the top of the loop
      if (pid < 0)
        break;
      auto it = running.find(pid);
      if (it == running.end())
        continue;
      const RunPlan* finished = it->second;
      const fs::path dir = run_dir(out, finished->id);
      running.erase(it);
      const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started.at(pid)).count();
      started.erase(pid);
      ++done;
      // Ctrl-C reaches the workers too (one process group): a run a stop signal ended stays
      // without a status, as the runs stop_workers() ends (--resume runs them).
      const bool stopped = WIFSIGNALED(wstatus) && (WTERMSIG(wstatus) == SIGINT || WTERMSIG(wstatus) == SIGTERM);
      if (!stopped && WIFSIGNALED(wstatus) && !read_status(dir)) {  // crashed or timed out before writing its status
        const int sig = WTERMSIG(wstatus);
        write_status(dir, {128 + sig, wall,
                           sig == SIGALRM ? fmt::format("timeout: killed after {} s (--run-timeout)", run_timeout_s)
                                          : fmt::format("killed by signal {}", sig),
                           ""});
      } else if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) != 0 && !read_status(dir)) {
        // It could not write its status (a full disk, most likely: then neither its log).
        const int code = WEXITSTATUS(wstatus);
        write_status(dir, {code, wall, fmt::format("exited with code {} without writing its status", code), ""});
      }
      if (run_state(out, finished->id) != RunState::kOk)
        ++failed;
    }
    report();
  } catch (const StoppedBySignal&) {
    throw;
  } catch (...) {  // a write error of the driver: no worker outlives the sweep
    stop_workers(running);
    reporter.finish();
    throw;
  }
  reporter.finish();
  return failed;
}

}  // namespace fastsim::sweep
