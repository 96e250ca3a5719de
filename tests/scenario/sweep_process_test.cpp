// The sweep driver as a process: integer options outside their range are usage errors,
// a run over --run-timeout is killed and reported, the folder lock keeps a second
// driver out (and is taken over from a killed one), workers die with a driver killed by
// SIGKILL, a sweep killed at ten points and resumed each time ends with the tables of an
// uninterrupted one, write errors of the driver exit with 3 naming the file, and the
// workers do not inherit every run's scenario document.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

#include "../support/helpers.hpp"

namespace fs = std::filesystem;
using fastsim::testing::read_file;
using fastsim::testing::run_command;
using fastsim::testing::temp_dir;

namespace {
const std::string kBinary = FASTSIM_BINARY;

/// A sweep spec over `grid` (a JSON object of pointer -> values) of a small dumbbell.
std::string write_spec(const fs::path& dir, const std::string& name, const std::string& grid,
                       const std::string& duration = "5s", int replications = 1) {
  const fs::path p = dir / name;
  std::ofstream(p) << R"({"base": {"name": "sw", "duration": ")" << duration << R"(", "seed": 3,
      "topology": {"dumbbell": {"bottleneck": {"rate": "20Mbps", "delay": "2ms", "buffer": "100pkt",
                                               "loss_rate": 0.001},
                                "access": {"rate": "1Gbps", "buffer": "1000pkt"}}},
      "flows": [{"id": "a", "rtt": "20ms"}, {"id": "b", "rtt": "40ms"}]},
    "grid": )" << grid
                   << R"(, "replications": )" << replications << "}";
  return p.string();
}

/// Two runs: one of 5 s, one of 1e5 s simulated (hours of wall time).
std::string write_long_spec(const fs::path& dir) {
  return write_spec(dir, "long.json", R"({"/duration": ["5s", "100000s"]})");
}

/// Starts `fastsim ARGS...` with its output in `log`; returns its PID.
pid_t spawn(const std::vector<std::string>& args, const fs::path& log) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
    std::vector<char*> argv{const_cast<char*>(kBinary.c_str())};
    for (const auto& a : args)
      argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(kBinary.c_str(), argv.data());
    _exit(127);
  }
  return pid;
}

/// Exit code of a spawned process (128 + n when killed by signal n).
int wait_exit(pid_t pid) {
  int st = 0;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/// Live (not zombie) processes whose command line contains `text`, but not this test.
std::vector<pid_t> processes_with(const std::string& text) {
  std::vector<pid_t> found;
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos)
      continue;
    const pid_t pid = std::stoi(name);
    if (pid == getpid())
      continue;
    std::string cmdline = read_file(e.path() / "cmdline");
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    if (cmdline.find(text) == std::string::npos)
      continue;
    const std::string stat = read_file(e.path() / "stat");
    const auto paren = stat.rfind(')');
    if (paren == std::string::npos || paren + 2 >= stat.size())
      continue;  // gone meanwhile
    const char state = stat[paren + 2];
    if (state != 'Z' && state != 'X')
      found.push_back(pid);
  }
  return found;
}

/// Polls (at most 10 s) until no live process has `text` in its command line; returns
/// those still alive.
std::vector<pid_t> wait_until_gone(const std::string& text) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  auto left = processes_with(text);
  while (!left.empty() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    left = processes_with(text);
  }
  return left;
}

/// Ends a spawned driver and every process left with `out` in its command line, so that
/// a failing test leaves no run of hours behind.
class Reaper {
 public:
  Reaper(pid_t driver, std::string out) : driver_(driver), out_(std::move(out)) {}
  Reaper(const Reaper&) = delete;
  Reaper& operator=(const Reaper&) = delete;
  ~Reaper() {
    if (kill(driver_, SIGKILL) == 0)
      waitpid(driver_, nullptr, 0);
    for (const pid_t pid : processes_with(out_))
      kill(pid, SIGKILL);
  }

 private:
  pid_t driver_;
  std::string out_;
};

/// Polls (at most 20 s) until `done` holds.
template <class F>
bool wait_for(F done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!done() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  return done();
}

/// The id of the run whose line in `fastsim sweep SPEC --dry-run` contains `text`.
std::string run_id_with(const std::string& spec, const std::string& text) {
  const auto r = run_command(kBinary + " sweep " + spec + " --out unused --dry-run");
  std::istringstream lines(r.output);
  for (std::string line; std::getline(lines, line);) {
    if (line.find(text) != std::string::npos)
      return line.substr(line.find(' ') + 1, 16);
  }
  return "";
}
}  // namespace

TEST_CASE("integer options outside their range are usage errors that name the range", "[cli][sweep]") {
  const fs::path dir = temp_dir("sweep-ranges");
  const std::string spec = write_spec(dir, "spec.json", R"({"/flows/0/rtt": ["20ms", "60ms"]})");
  const std::string out = (dir / "out").string();
  const std::string sweep = kBinary + " sweep " + spec + " --out " + out + " --quiet ";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {sweep + "--jobs -1", "--jobs must be an integer in [1, 4096], got \"-1\""},
      {sweep + "--jobs 0", "--jobs must be an integer in [1, 4096], got \"0\""},
      {sweep + "--jobs 100000", "--jobs must be an integer in [1, 4096]"},
      {sweep + "--jobs 2x", "--jobs must be an integer in [1, 4096], got \"2x\""},
      {sweep + "--run-timeout 0", "--run-timeout must be an integer in [1, 604800]"},
      {sweep + "--run-timeout -5", "--run-timeout must be an integer in [1, 604800]"},
      {sweep + "--backend slurm --pack -1", "--pack must be an integer in [1, 100000], got \"-1\""},
      {sweep + "--backend slurm --dry-run --throttle -1", "--throttle must be an integer in [1, 4000001]"},
      {sweep + "--backend slurm --dry-run --throttle 0", "--throttle must be an integer in [1, 4000001]"},
      {sweep + "--backend slurm --dry-run --max-array-size 0", "--max-array-size must be an integer in [1, 4000001]"},
      {sweep + "--backend slurm --dry-run --max-array-size 99999999999999999999",
       "--max-array-size must be an integer in [1, 4000001]"},
      {kBinary + " sweep-task " + out + " --list x --task -1", "--task must be an integer in [0, 4000001]"},
      {kBinary + " sweep-task " + out + " --list x --pack 0", "--pack must be an integer in [1, 100000]"},
      {kBinary + " check " + (dir / "b.json").string() + " --jobs -1", "--jobs must be an integer in [1, 4096]"},
      {kBinary + " run " + spec + " --out " + out + " --seed -1", "--seed must be an integer in [0, "},
      // SLURM's own options: values sbatch takes on one #SBATCH line, and only with that backend.
      {sweep + "--partition debug", "--partition applies to --backend slurm only"},
      {sweep + "--pack 2", "--pack applies to --backend slurm only"},
      {sweep + "--backend slurm --dry-run --partition 'a\necho injected'", "--partition expects a partition name"},
      {sweep + "--backend slurm --dry-run --time banana", "--time expects a SLURM time"},
      {sweep + "--backend slurm --dry-run --mem 4GiB", "--mem expects a size like 4G"},
      {sweep + "--backend slurm --dry-run --sbatch '#SBATCH --qos=x'", "--sbatch expects one sbatch option"},
      {kBinary + " sweep " + spec + " --out '" + out + " 2' --backend slurm --dry-run",
       "which sbatch splits at white space"},
  };
  for (const auto& [cmd, message] : cases) {
    const auto r = run_command(cmd);
    INFO(cmd << "\n" << r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Catch::Contains(message));
    CHECK_FALSE(fs::exists(out));  // nothing planned, written or submitted
  }
  fs::remove_all(dir);
}

TEST_CASE("a run over --run-timeout is killed and reported, the sweep goes on, --resume retries it", "[cli][sweep]") {
  const fs::path dir = temp_dir("sweep-timeout");
  const std::string spec = write_long_spec(dir);
  const std::string out = (dir / "out").string();
  const std::string cmd = kBinary + " sweep " + spec + " --out " + out + " --jobs 1 --run-timeout 1";
  const std::string long_id = run_id_with(spec, "100000s");
  REQUIRE(long_id.size() == 16);
  auto r = run_command(cmd);
  INFO(r.output);
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.output, Catch::Contains("2 runs: 1 ok, 1 failed"));
  CHECK_THAT(r.output, Catch::Contains("failed: run " + long_id));
  CHECK_THAT(r.output, Catch::Contains("timeout: killed after 1 s (--run-timeout)"));
  const std::string status = read_file(fs::path(out) / "runs" / long_id / "status.json");
  CHECK_THAT(status, Catch::Contains("\"exit_code\": 142"));
  CHECK_THAT(status, Catch::Contains("timeout"));
  CHECK(nlohmann::json::parse(status).at("wall_time_s").get<double>() >= 1.0);  // the alarm's second
  r = run_command(cmd + " --resume");
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.output, Catch::Contains("2 runs, 1 to do"));
  CHECK_THAT(r.output, Catch::Contains("timeout: killed after 1 s"));
  CHECK(wait_until_gone(out).empty());
  // The point whose only run failed has no row in the aggregates: collect says so.
  r = run_command(kBinary + " collect " + out);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("no successful run at point {\"/duration\":\"100000s\"}"));
  // SLURM: the task's time limit is pack x the run timeout in minutes, unless --time is given.
  const std::string slurm = kBinary + " sweep " + spec + " --backend slurm --dry-run --max-array-size 10 --out ";
  r = run_command(slurm + (dir / "s1").string() + " --run-timeout 90 --pack 2");
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("#SBATCH --time=3\n"));
  r = run_command(slurm + (dir / "s2").string() + " --run-timeout 90 --time 10");
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("#SBATCH --time=10\n"));
  r = run_command(slurm + (dir / "s3").string());
  CHECK(r.exit_code == 0);
  CHECK(r.output.find("--time") == std::string::npos);
  // A relative --out: the scripts name the sweep by its absolute path (submitted by hand from
  // another folder, relative paths pointed nowhere).
  r = run_command("cd " + dir.string() + " && " + slurm + "s4");
  CHECK(r.exit_code == 0);
  const fs::path physical = fs::canonical(dir);  // what getcwd gives, symbolic links resolved
  CHECK_THAT(r.output, Catch::Contains("sweep-task '" + (physical / "s4").string() + "' --list '" +
                                       (physical / "s4" / "slurm" / "array-0.runs").string() + "'"));
  CHECK_THAT(r.output, Catch::Contains("#SBATCH --output=" + (physical / "s4" / "slurm").string()));
  fs::remove_all(dir);
}

TEST_CASE("a busy sweep folder keeps a second driver out; a killed driver's lock is taken over", "[cli][sweep]") {
  const fs::path dir = temp_dir("sweep-lock");
  const std::string spec = write_long_spec(dir);
  const fs::path out = dir / "out";
  const pid_t driver = spawn({"sweep", spec, "--out", out.string(), "--jobs", "2", "--quiet"}, dir / "driver.log");
  REQUIRE(driver > 0);
  const Reaper reaper(driver, out.string());
  const std::string owner = "pid " + std::to_string(driver) + " host ";
  REQUIRE(wait_for([&] { return read_file(out / "sweep.lock").find(owner) == 0; }));
  for (const std::string& cmd :
       {" sweep " + spec + " --out " + out.string() + " --resume --quiet",
        " sweep " + spec + " --out " + out.string() + " --quiet", " collect " + out.string()}) {
    const auto r = run_command(kBinary + cmd);
    INFO(cmd << "\n" << r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Catch::Contains(out.string() + " is in use by another fastsim process (" + owner));
  }
  kill(driver, SIGKILL);  // the driver only: its workers must follow it
  CHECK(wait_exit(driver) == 128 + SIGKILL);
  CHECK(wait_until_gone(out.string()).empty());
  const auto r = run_command(kBinary + " sweep " + spec + " --out " + out.string() + " --resume --run-timeout 1");
  INFO(r.output);
  CHECK_THAT(r.output,
             Catch::Contains("warning: taking over the lock " + (out / "sweep.lock").string() + " of " + owner));
  CHECK_THAT(r.output, Catch::Contains("2 runs: 1 ok, 1 failed"));  // the long run timed out
  CHECK(read_file(out / "sweep.lock").empty());                     // released
  fs::remove_all(dir);
}

TEST_CASE("workers die with a driver killed by SIGKILL", "[cli][sweep]") {
  const fs::path dir = temp_dir("sweep-orphans");
  const std::string spec = write_spec(dir, "long.json", R"({"/duration": ["100000s", "100001s"]})");
  const fs::path out = dir / "out";
  const pid_t driver = spawn({"sweep", spec, "--out", out.string(), "--jobs", "2", "--quiet"}, dir / "driver.log");
  REQUIRE(driver > 0);
  const Reaper reaper(driver, out.string());
  REQUIRE(wait_for([&] { return processes_with(out.string()).size() == 3; }));  // the driver and two workers
  kill(driver, SIGKILL);                                                        // the driver only, not its group
  CHECK(wait_exit(driver) == 128 + SIGKILL);
  CHECK(wait_until_gone(out.string()).empty());
  fs::remove_all(dir);
}

TEST_CASE("two sweeps started at once into one new folder: exactly one runs it", "[cli][sweep]") {
  const fs::path dir = temp_dir("sweep-race");
  const std::string spec = write_spec(dir, "spec.json", R"({"/flows/0/rtt": ["20ms", "30ms", "40ms", "60ms"]})");
  for (int round = 0; round < 5; ++round) {
    const fs::path out = dir / ("out" + std::to_string(round));
    const std::vector<std::string> args{"sweep", spec, "--out", out.string(), "--jobs", "2", "--quiet"};
    const pid_t a = spawn(args, dir / "a.log");
    const pid_t b = spawn(args, dir / "b.log");
    const int ra = wait_exit(a), rb = wait_exit(b);
    INFO("round " << round << "\n" << read_file(dir / "a.log") << "\n" << read_file(dir / "b.log"));
    CHECK(std::min(ra, rb) == 0);
    CHECK(std::max(ra, rb) == 2);  // in use, or (if the first was done already) already holds a sweep
    const auto c = run_command(kBinary + " collect " + out.string());
    CHECK_THAT(c.output, Catch::Contains("(4 runs: 4 ok, 0 failed, 0 not run, 0 unusable)"));
  }
  fs::remove_all(dir);
}

TEST_CASE("killed with SIGKILL at ten points and resumed each time, a sweep ends as an uninterrupted one",
          "[cli][sweep]") {
  const fs::path dir = temp_dir("sweep-kill10");
  const std::string spec =
      write_spec(dir, "spec.json", R"({"/flows/0/rtt": ["20ms", "30ms", "40ms", "50ms", "60ms"]})", "200s", 2);
  const fs::path whole = dir / "whole", killed = dir / "killed";
  REQUIRE(run_command(kBinary + " sweep " + spec + " --out " + whole.string() + " --jobs 2 --quiet").exit_code == 0);
  std::mt19937 rng(20261123);  // a fixed list of kill points
  std::uniform_int_distribution<int> delay_ms(0, 600);
  for (int k = 0; k < 10; ++k) {
    const pid_t driver =
        spawn({"sweep", spec, "--out", killed.string(), "--resume", "--jobs", "2", "--quiet"}, dir / "driver.log");
    REQUIRE(driver > 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms(rng)));
    kill(driver, SIGKILL);
    const int rc = wait_exit(driver);
    INFO("kill " << k << ": exit " << rc << "\n" << read_file(dir / "driver.log"));
    CHECK((rc == 128 + SIGKILL || rc == 0));  // killed, or done before the kill (never "in use")
    // Every other time the next driver starts at once, while the killed one's workers may
    // still be exiting (and holding the lock): it waits for them.
    if (k % 2 == 1)
      CHECK(wait_until_gone(killed.string()).empty());
  }
  CHECK(wait_until_gone(killed.string()).empty());
  const auto r = run_command(kBinary + " sweep " + spec + " --out " + killed.string() + " --resume --jobs 2");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("10 runs: 10 ok, 0 failed"));
  REQUIRE(run_command(kBinary + " collect " + whole.string()).exit_code == 0);
  REQUIRE(run_command(kBinary + " collect " + killed.string()).exit_code == 0);
  for (const char* f : {"runs.csv", "flows.csv", "aggregate.csv"})
    CHECK(read_file(whole / f) == read_file(killed / f));
  fs::remove_all(dir);
}

TEST_CASE("write errors of the sweep driver exit with 3 naming the file and the OS error", "[cli][sweep]") {
  const fs::path dir = temp_dir("sweep-full");
  const std::string spec = write_long_spec(dir);
  const std::string sweep = kBinary + " sweep " + spec + " --quiet --out ";
  SECTION("the run list of a dry run on a full standard output") {
    const auto r = run_command("{ " + sweep + (dir / "o").string() + " --dry-run > /dev/full; }");
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.output, Catch::Contains("cannot write to standard output: No space left on device"));
  }
  SECTION("a batch script") {
    fs::create_directories(dir / "o" / "slurm");
    fs::create_symlink("/dev/full", dir / "o" / "slurm" / "array-0.sh.tmp");
    const auto r = run_command(sweep + (dir / "o").string() + " --backend slurm --dry-run");
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.output, Catch::Contains((dir / "o" / "slurm" / "array-0.sh.tmp").string()));
    CHECK_THAT(r.output, Catch::Contains("No space left on device"));
  }
  SECTION("the status the driver writes for a run it timed out") {
    const fs::path run = dir / "o" / "runs" / run_id_with(spec, "100000s");
    fs::create_directories(run);
    fs::create_symlink("/dev/full", run / "status.json.tmp");
    const auto r = run_command(sweep + (dir / "o").string() + " --jobs 2 --run-timeout 1");
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.output, Catch::Contains((run / "status.json.tmp").string()));
    CHECK_THAT(r.output, Catch::Contains("No space left on device"));
    CHECK(wait_until_gone((dir / "o").string()).empty());
  }
  SECTION("the status a worker writes: the failure names it") {
    const fs::path run = dir / "o" / "runs" / run_id_with(spec, "\"5s\"");
    fs::create_directories(run);
    fs::create_symlink("/dev/full", run / "status.json.tmp");
    const auto r = run_command(sweep + (dir / "o").string() + " --jobs 2 --run-timeout 1");
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.output, Catch::Contains("failed: run " + run.filename().string()));
    CHECK_THAT(r.output, Catch::Contains((run / "status.json.tmp").string()));
    CHECK_THAT(r.output, Catch::Contains("No space left on device"));
  }
  SECTION("runs.csv") {
    const std::string short_spec = write_spec(dir, "short.json", R"({"/flows/0/rtt": ["20ms", "60ms"]})");
    REQUIRE(run_command(kBinary + " sweep " + short_spec + " --quiet --out " + (dir / "o").string()).exit_code == 0);
    fs::create_symlink("/dev/full", dir / "o" / "runs.csv.tmp");
    const auto r = run_command(kBinary + " collect " + (dir / "o").string());
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.output, Catch::Contains((dir / "o" / "runs.csv.tmp").string()));
    CHECK_THAT(r.output, Catch::Contains("No space left on device"));
  }
  INFO(read_file(dir / "o" / "sweep.lock"));
  fs::remove_all(dir);
}

namespace {
// A scenario whose document holds a 30-KB description (a 0.02-s run) in `dir`/base.json, and
// that run's own peak_rss_mb, alone.
double write_large_document_base(const fs::path& dir) {
  std::ofstream(dir / "base.json") << R"({"name": "docs", "description": ")" + std::string(30000, 'x') +
                                          R"(", "duration": "0.02s", "sample_interval": "0.01s", "seed": 3,
      "topology": {"dumbbell": {"bottleneck": {"rate": "20Mbps", "delay": "2ms", "buffer": "100pkt"},
                                "access": {"rate": "1Gbps", "buffer": "1000pkt"}}},
      "flows": [{"id": "a", "rtt": "20ms"}]})";
  const auto alone =
      run_command(kBinary + " run " + (dir / "base.json").string() + " --out " + (dir / "alone").string() + " --quiet");
  REQUIRE(alone.exit_code == 0);
  return nlohmann::json::parse(read_file(dir / "alone" / "summary.json")).at("peak_rss_mb").get<double>();
}

// The number of run folders under `runs` and the largest peak_rss_mb among them.
std::pair<size_t, double> runs_and_largest_peak(const fs::path& runs) {
  size_t n = 0;
  double largest = 0;
  for (const auto& e : fs::directory_iterator(runs)) {
    ++n;
    const auto s = nlohmann::json::parse(read_file(e.path() / "summary.json"));
    largest = std::max(largest, s.at("peak_rss_mb").get<double>());
  }
  return {n, largest};
}
}  // namespace

TEST_CASE("a sweep's workers do not start with every run's scenario document in memory", "[cli][sweep][rss]") {
  // 400 runs whose documents each hold a 30-KB description (12 MB in all): the workers are
  // forked by the driver, and held those documents (and their nodes) in their resident
  // memory: every run reported about 25 MB more than the same run alone.
#if defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer's allocator keeps freed memory in its quarantine (malloc_trim does not
  // reach it), so the workers' resident memory says nothing here: the Release suite checks it.
  WARN("the sweep workers' memory check skipped under AddressSanitizer");
  return;
#endif
  const fs::path dir = temp_dir("sweep-docs");
  const double alone_mb = write_large_document_base(dir);
  std::ofstream(dir / "spec.json") << R"({"base": "base.json", "grid": {"/flows/0/start": ["0s"]},
      "replications": 400, "seed": 1})";
  const auto sweep = run_command(kBinary + " sweep " + (dir / "spec.json").string() + " --out " +
                                 (dir / "sweep").string() + " --jobs 2 --quiet");
  INFO(sweep.output);
  REQUIRE(sweep.exit_code == 0);
  const auto [runs, largest] = runs_and_largest_peak(dir / "sweep" / "runs");
  CHECK(runs == 400);
  INFO("alone " << alone_mb << " MB, largest in the sweep " << largest << " MB");
  CHECK(largest < alone_mb + 5.0);  // measured: 0.8 MB more (the driver's plan); 25 MB before
  fs::remove_all(dir);
}

TEST_CASE("check's workers do not start with every run's scenario document in memory", "[cli][check][rss]") {
  // As the sweep above: `fastsim check` forks its workers after writing every run's
  // scenario.json, and held the documents (twice: the plan and the runs to do) until then
  // (measured: 30.1 MB per run against 6.3 MB alone; 5.3 MB after).
#if defined(__SANITIZE_ADDRESS__)
  WARN("the check workers' memory check skipped under AddressSanitizer (its quarantine keeps freed memory)");
  return;
#endif
  const fs::path dir = temp_dir("check-docs");
  const double alone_mb = write_large_document_base(dir);
  std::ofstream(dir / "baseline.json") << R"({"scenarios": [{"name": "docs", "file": "base.json", "replications": 400,
      "metrics": [{"metric": "/links/bottleneck/utilization", "expected": 0.5, "tolerance": 1.0}]}]})";
  const auto check = run_command(kBinary + " check " + (dir / "baseline.json").string() + " --results " +
                                 (dir / "results").string() + " --jobs 2 --quiet");
  INFO(check.output);
  REQUIRE(check.exit_code == 0);
  const auto [runs, largest] = runs_and_largest_peak(dir / "results" / "runs");
  CHECK(runs == 400);
  INFO("alone " << alone_mb << " MB, largest in the check " << largest << " MB");
  CHECK(largest < alone_mb + 5.0);
  fs::remove_all(dir);
}

TEST_CASE("SIGINT and SIGTERM end a sweep and a check cleanly: lock released, temporary folder removed",
          "[cli][sweep][check]") {
  // The driver used to re-raise the signal at once: the lock kept its holder's PID (the next
  // command warned of a lock taken over) and check's temporary folder stayed behind.
  const fs::path dir = temp_dir("sweep-stop");
  const std::string spec = write_long_spec(dir);
  for (const int sig : {SIGINT, SIGTERM}) {
    const fs::path out = dir / ("out" + std::to_string(sig));
    const pid_t driver = spawn({"sweep", spec, "--out", out.string(), "--jobs", "2"}, dir / "driver.log");
    REQUIRE(driver > 0);
    const Reaper reaper(driver, out.string());
    const std::string long_run = run_id_with(spec, "100000s");
    REQUIRE(wait_for([&] { return fs::exists(out / "runs" / long_run / "log.txt"); }));
    kill(driver, sig);
    CHECK(wait_exit(driver) == 128 + sig);  // ended by the signal, as an interrupted command
    CHECK(wait_until_gone(out.string()).empty());
    CHECK(read_file(out / "sweep.lock").empty());
    CHECK_THAT(read_file(dir / "driver.log"), Catch::Contains("runs unfinished (--resume runs them)"));
    CHECK_FALSE(fs::exists(out / "runs" / long_run / "status.json"));
  }
  // check with its temporary folder under TMPDIR.
  const fs::path tmp = dir / "tmp";
  fs::create_directories(tmp);
  std::ofstream(dir / "long-base.json") << R"({"name": "long", "duration": "100000s", "seed": 3,
      "topology": {"dumbbell": {"bottleneck": {"rate": "20Mbps", "delay": "2ms", "buffer": "100pkt"},
                                "access": {"rate": "1Gbps", "buffer": "1000pkt"}}},
      "flows": [{"id": "a", "rtt": "20ms"}]})";
  std::ofstream(dir / "baseline.json") << R"({"scenarios": [{"name": "long", "file": "long-base.json",
      "metrics": [{"metric": "/links/bottleneck/utilization", "expected": 0.5, "tolerance": 1.0}]}]})";
  const char* saved = std::getenv("TMPDIR");
  const std::string saved_tmpdir = saved != nullptr ? saved : "";
  setenv("TMPDIR", tmp.c_str(), 1);  // for the child only: restored at once
  const pid_t checker = spawn({"check", (dir / "baseline.json").string(), "--quiet"}, dir / "check.log");
  if (saved != nullptr) {
    setenv("TMPDIR", saved_tmpdir.c_str(), 1);
  } else {
    unsetenv("TMPDIR");
  }
  REQUIRE(checker > 0);
  const Reaper reaper(checker, "long-base.json");
  auto run_started = [&] {  // the worker's log exists once the runs (and the stop handlers) are under way
    for (const auto& e : fs::recursive_directory_iterator(tmp, fs::directory_options::skip_permission_denied)) {
      if (e.path().filename() == "log.txt")
        return true;
    }
    return false;
  };
  REQUIRE(wait_for(run_started));
  kill(checker, SIGINT);
  CHECK(wait_exit(checker) == 128 + SIGINT);
  CHECK(fs::is_empty(tmp));
  CHECK_THAT(read_file(dir / "check.log"), Catch::Contains("[check] stopped by signal 2: 1 runs unfinished"));
  fs::remove_all(dir);
}
