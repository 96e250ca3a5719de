// fastsim sweep / collect / check end to end with the local backend: a grid with
// replications, resume after a killed sweep gives the same tables as an uninterrupted
// one, a failed run is reported and completed by --resume, and check passes, fails
// and updates a baseline.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "../support/helpers.hpp"

namespace fs = std::filesystem;
using fastsim::testing::read_file;
using fastsim::testing::run_command;
using fastsim::testing::temp_dir;

namespace {
const std::string kBinary = FASTSIM_BINARY;

/// A spec of `points` x 2 replications of a short dumbbell run (about 0.1 s each).
std::string write_spec(const fs::path& dir, const std::string& rtts, const std::string& duration = "5s") {
  const std::string spec = R"({"base": {"name": "sw", "duration": ")" + duration + R"(", "seed": 3,
      "topology": {"dumbbell": {"bottleneck": {"rate": "20Mbps", "delay": "2ms", "buffer": "100pkt",
                                               "loss_rate": 0.001},
                                "access": {"rate": "1Gbps", "buffer": "1000pkt"}}},
      "flows": [{"id": "a", "rtt": "20ms"}, {"id": "b", "rtt": "40ms"}]},
    "grid": {"/flows/0/rtt": )" +
                           rtts + R"(}, "replications": 2})";
  const fs::path p = dir / "spec.json";
  std::ofstream(p) << spec;
  return p.string();
}

size_t statuses(const fs::path& out) {
  size_t n = 0;
  if (!fs::exists(out / "runs"))
    return 0;
  for (const auto& e : fs::directory_iterator(out / "runs"))
    n += fs::exists(e.path() / "status.json") ? 1 : 0;
  return n;
}
}  // namespace

TEST_CASE("a local sweep runs the grid, and collect tabulates it", "[cli][sweep]") {
  const fs::path dir = temp_dir("sweep");
  const std::string spec = write_spec(dir, R"(["20ms", "60ms"])");
  const auto r = run_command(kBinary + " sweep " + spec + " --out " + (dir / "out").string() + " --jobs 2 --quiet");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(statuses(dir / "out") == 4);
  const auto c = run_command(kBinary + " collect " + (dir / "out").string());
  INFO(c.output);
  REQUIRE(c.exit_code == 0);
  const std::string runs = read_file(dir / "out" / "runs.csv");
  CHECK(std::count(runs.begin(), runs.end(), '\n') == 5);
  CHECK_THAT(runs, Catch::StartsWith("run_id,index,/flows/0/rtt,replication,seed,status,exit_code,"));
  CHECK_THAT(runs, Catch::Contains("links.bottleneck.utilization"));
  CHECK(runs.find("wall_time") == std::string::npos);  // machine-dependent fields are left out
  const std::string flows = read_file(dir / "out" / "flows.csv");
  CHECK(std::count(flows.begin(), flows.end(), '\n') == 9);  // 4 runs x 2 flows
  const std::string agg = read_file(dir / "out" / "aggregate.csv");
  CHECK_THAT(agg, Catch::StartsWith("/flows/0/rtt,metric,n,mean,sd,ci95_low,ci95_high\n"));
  CHECK_THAT(agg, Catch::Contains("20ms,links.bottleneck.utilization,2,"));
  // A second sweep into the same folder needs --resume; with it, nothing is left to do.
  CHECK(run_command(kBinary + " sweep " + spec + " --out " + (dir / "out").string() + " --quiet").exit_code == 2);
  const auto again = run_command(kBinary + " sweep " + spec + " --out " + (dir / "out").string() + " --resume");
  CHECK(again.exit_code == 0);
  CHECK_THAT(again.output, Catch::Contains("4 runs, 0 to do"));
  fs::remove_all(dir);
}

TEST_CASE("a killed sweep resumes to the same results as an uninterrupted one", "[cli][sweep]") {
  const fs::path dir = temp_dir("sweep-kill");
  const std::string spec = write_spec(dir, R"(["20ms", "30ms", "40ms", "50ms", "60ms"])", "200s");
  const std::string whole = (dir / "whole").string(), killed = (dir / "killed").string();
  REQUIRE(run_command(kBinary + " sweep " + spec + " --out " + whole + " --jobs 2 --quiet").exit_code == 0);

  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    execl(kBinary.c_str(), kBinary.c_str(), "sweep", spec.c_str(), "--out", killed.c_str(), "--jobs", "1", "--quiet",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  REQUIRE(pid > 0);
  setpgid(pid, pid);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (statuses(killed) < 3 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  kill(-pid, SIGKILL);  // the sweep and its worker, mid-run
  int st = 0;
  waitpid(pid, &st, 0);
  const size_t before = statuses(killed);
  INFO("statuses when killed: " << before);
  CHECK(before >= 3);
  CHECK(before < 10);
  const auto r = run_command(kBinary + " sweep " + spec + " --out " + killed + " --resume --jobs 2 --quiet");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  REQUIRE(run_command(kBinary + " collect " + whole).exit_code == 0);
  REQUIRE(run_command(kBinary + " collect " + killed).exit_code == 0);
  for (const char* f : {"runs.csv", "flows.csv", "aggregate.csv"})
    CHECK(read_file(fs::path(whole) / f) == read_file(fs::path(killed) / f));
  fs::remove_all(dir);
}

TEST_CASE("a failed run is reported and --resume completes the set", "[cli][sweep]") {
  const fs::path dir = temp_dir("sweep-fail");
  const std::string spec = write_spec(dir, R"(["20ms", "60ms"])");
  const fs::path out = dir / "out";
  REQUIRE(run_command(kBinary + " sweep " + spec + " --out " + out.string() + " --quiet").exit_code == 0);
  // Break one run: its flows/ folder is a file, so writing its outputs fails.
  fs::path victim;
  for (const auto& e : fs::directory_iterator(out / "runs"))
    victim = e.path();
  fs::remove(victim / "status.json");
  fs::remove_all(victim / "flows");
  std::ofstream(victim / "flows") << "in the way";
  const auto r = run_command(kBinary + " sweep " + spec + " --out " + out.string() + " --resume --quiet");
  INFO(r.output);
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.output, Catch::Contains("4 runs: 3 ok, 1 failed"));
  CHECK_THAT(r.output, Catch::Contains("failed: run " + victim.filename().string()));
  REQUIRE(run_command(kBinary + " collect " + out.string()).exit_code == 0);
  CHECK_THAT(read_file(out / "runs.csv"), Catch::Contains(",failed,3,"));
  fs::remove(victim / "flows");
  const auto fixed = run_command(kBinary + " sweep " + spec + " --out " + out.string() + " --resume --quiet");
  INFO(fixed.output);
  CHECK(fixed.exit_code == 0);
  CHECK_THAT(fixed.output, Catch::Contains("4 runs: 4 ok, 0 failed"));
  fs::remove_all(dir);
}

TEST_CASE("check passes, fails outside a band, and updates a baseline", "[cli][check]") {
  const fs::path dir = temp_dir("check");
  std::ofstream(dir / "s.json") << R"({"name": "c", "duration": "5s",
      "topology": {"dumbbell": {"bottleneck": {"rate": "20Mbps", "delay": "2ms", "buffer": "100pkt"},
                                "access": {"rate": "1Gbps", "buffer": "1000pkt"}}},
      "flows": [{"id": "a", "rtt": "20ms"}, {"id": "b", "rtt": "20ms"}]})";
  auto baseline = [&](double jain, double util) {
    std::ofstream(dir / "baseline.json") << R"({"scenarios": [{"name": "two", "file": "s.json",
        "set": {"/duration": "8s"}, "seed": 1, "metrics": [
          {"metric": "/intervals/0/jain", "expected": )"
                                         << jain << R"(, "tolerance": 0.05, "direction": ">="},
          {"metric": "/links/bottleneck/utilization", "expected": )"
                                         << util << R"(, "tolerance": 0.1, "relative": true, "direction": "~"}]}]})";
  };
  const std::string cmd = kBinary + " check " + (dir / "baseline.json").string() + " --quiet";
  // A bad override is reported under the baseline entry that makes it.
  std::ofstream(dir / "bad.json") << R"({"scenarios": [{"name": "x", "file": "s.json", "set": {"/flows/0/rtt": "-1ms"},
      "metrics": [{"metric": "/intervals/0/jain", "expected": 1, "tolerance": 0.1}]}]})";
  const auto bad = run_command(kBinary + " check " + (dir / "bad.json").string() + " --quiet");
  CHECK(bad.exit_code == 1);
  CHECK_THAT(bad.output, Catch::Contains("/scenarios/0: "));
  CHECK_THAT(bad.output, Catch::Contains("/flows/0/rtt: expected a duration"));
  baseline(0.99, 0.9);
  auto r = run_command(cmd);
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("0 of 2 metrics outside their band"));
  baseline(0.99, 0.5);  // utilization is near 1, far from 0.5 +- 10 %
  r = run_command(cmd);
  CHECK(r.exit_code == 4);
  CHECK_THAT(r.output, Catch::Contains("FAIL"));
  CHECK_THAT(r.output, Catch::Contains("1 of 2 metrics outside their band"));
  r = run_command(cmd + " --update");
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("two /links/bottleneck/utilization: 0.5 -> 0.9"));
  r = run_command(cmd);
  CHECK(r.exit_code == 0);
  // Reusing results: a second check over a results folder does not rerun.
  const std::string with_results = cmd + " --results " + (dir / "results").string();
  CHECK(run_command(with_results).exit_code == 0);
  const auto mtime = fs::last_write_time(dir / "results" / "runs" / "two" / "summary.json");
  CHECK(run_command(with_results).exit_code == 0);
  CHECK(fs::last_write_time(dir / "results" / "runs" / "two" / "summary.json") == mtime);
  fs::remove_all(dir);
}
