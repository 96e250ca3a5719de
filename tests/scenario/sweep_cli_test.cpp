// fastsim sweep / collect / check end to end with the local backend: a grid with
// replications, resume after a killed sweep gives the same tables as an uninterrupted
// one, a failed run is reported and completed by --resume, check passes, fails
// and updates a baseline, and collect's per-flow aggregates and numeric parameter columns.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "../support/helpers.hpp"
#include "fastsim/sweep/collect.hpp"

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
  // The columns of earlier versions keep their places; then the numeric parameter, then nulls.
  CHECK_THAT(agg, Catch::StartsWith("/flows/0/rtt,metric,n,mean,sd,ci95_low,ci95_high,flows.0.rtt_s,nulls\n"));
  CHECK_THAT(agg, Catch::Contains("20ms,links.bottleneck.utilization,2,"));
  // Text fields that may be null are not metrics: no row (newest_flow is null in interval 0).
  CHECK(agg.find("newest_flow") == std::string::npos);
  // A second sweep into the same folder needs --resume; with it, nothing is left to do.
  CHECK(run_command(kBinary + " sweep " + spec + " --out " + (dir / "out").string() + " --quiet").exit_code == 2);
  const auto again = run_command(kBinary + " sweep " + spec + " --out " + (dir / "out").string() + " --resume");
  CHECK(again.exit_code == 0);
  CHECK_THAT(again.output, Catch::Contains("4 runs, 0 to do"));
  fs::remove_all(dir);
}

namespace {
/// The rows of a CSV file without quoted fields, as column name -> value.
std::vector<std::map<std::string, std::string>> csv_rows(const fs::path& file) {
  std::istringstream in(read_file(file));
  auto split = [](const std::string& line) {
    std::vector<std::string> fields;
    std::istringstream ls(line);
    for (std::string f; std::getline(ls, f, ',');)
      fields.push_back(f);
    if (!line.empty() && line.back() == ',')
      fields.emplace_back();
    return fields;
  };
  std::string line;
  std::getline(in, line);
  const auto header = split(line);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    const auto fields = split(line);
    REQUIRE(fields.size() == header.size());
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < header.size(); ++i)
      row[header[i]] = fields[i];
    rows.push_back(row);
  }
  return rows;
}
}  // namespace

TEST_CASE("collect: per-flow aggregates over replications and numeric parameter columns", "[cli][sweep]") {
  const fs::path dir = temp_dir("collect-flows");
  const std::string spec = write_spec(dir, R"(["20ms", "60ms"])");
  const fs::path out = dir / "out";
  REQUIRE(run_command(kBinary + " sweep " + spec + " --out " + out.string() + " --jobs 2 --quiet").exit_code == 0);
  const auto c = run_command(kBinary + " collect " + out.string());
  INFO(c.output);
  REQUIRE(c.exit_code == 0);

  // runs.csv and flows.csv: the parameter as a number in seconds, after the fixed columns.
  const auto runs = csv_rows(out / "runs.csv");
  REQUIRE(runs.size() == 4);
  CHECK_THAT(read_file(out / "runs.csv"),
             Catch::StartsWith("run_id,index,/flows/0/rtt,replication,seed,status,exit_code,flows.0.rtt_s,"));
  for (const auto& r : runs)
    CHECK(r.at("flows.0.rtt_s") == (r.at("/flows/0/rtt") == "20ms" ? "0.02" : "0.06"));
  const auto flows = csv_rows(out / "flows.csv");
  REQUIRE(flows.size() == 8);
  CHECK_THAT(read_file(out / "flows.csv"), Catch::StartsWith("run_id,/flows/0/rtt,replication,seed,flows.0.rtt_s,"));

  // aggregate_flows.csv: one row per point, flow and numeric flow metric, over the two
  // replications; the mean and interval are those of flows.csv's values.
  CHECK_THAT(read_file(out / "aggregate_flows.csv"),
             Catch::StartsWith("/flows/0/rtt,flow,metric,n,mean,sd,ci95_low,ci95_high,flows.0.rtt_s,nulls\n"));
  const auto agg = csv_rows(out / "aggregate_flows.csv");
  size_t goodput_rows = 0;
  size_t null_rows = 0;
  for (const auto& row : agg) {
    // every replication counted: as a value (n) or as a null (a flow that never completed)
    CHECK(std::stoi(row.at("n")) + std::stoi(row.at("nulls")) == 2);
    if (row.at("nulls") != "0") {
      ++null_rows;
      CHECK(row.at("metric") == "completion_time_s");
      CHECK(row.at("mean").empty());
    }
    CHECK(row.at("metric") != "algorithm");  // strings are not aggregated
    if (row.at("metric") != "goodput_bps")
      continue;
    ++goodput_rows;
    std::vector<double> x;
    for (const auto& f : flows) {
      if (f.at("/flows/0/rtt") == row.at("/flows/0/rtt") && f.at("flow") == row.at("flow"))
        x.push_back(std::stod(f.at("goodput_bps")));
    }
    REQUIRE(x.size() == 2);
    CHECK(x[0] != x[1]);  // the replications differ (random loss), so the interval is not empty
    const auto expected = fastsim::sweep::aggregate(x);
    CHECK(std::stod(row.at("mean")) == Approx(expected.mean).epsilon(1e-12));
    CHECK(std::stod(row.at("ci95_low")) == Approx(*expected.ci_low).epsilon(1e-12));
    CHECK(std::stod(row.at("ci95_high")) == Approx(*expected.ci_high).epsilon(1e-12));
    CHECK(row.at("flows.0.rtt_s") == (row.at("/flows/0/rtt") == "20ms" ? "0.02" : "0.06"));
  }
  CHECK(goodput_rows == 4);  // 2 points x flows a and b
  CHECK(null_rows == 4);     // completion_time_s: the flows are not finite
  fs::remove_all(dir);
}

TEST_CASE("collect keeps a parameter's number as written (shortest form, not 17 digits)", "[cli][sweep]") {
  const fs::path dir = temp_dir("collect-number");
  const std::string spec = R"({"base": {"name": "sw", "duration": "2s", "seed": 3,
      "topology": {"dumbbell": {"bottleneck": {"rate": "20Mbps", "delay": "2ms", "buffer": "100pkt"},
                                "access": {"rate": "1Gbps", "buffer": "1000pkt"}}},
      "flows": [{"id": "a", "rtt": "20ms"}]},
    "grid": {"/topology/dumbbell/bottleneck/loss_rate": [0.001, 0.1]}})";
  std::ofstream(dir / "spec.json") << spec;
  const fs::path out = dir / "out";
  REQUIRE(run_command(kBinary + " sweep " + (dir / "spec.json").string() + " --out " + out.string() + " --quiet")
              .exit_code == 0);
  REQUIRE(run_command(kBinary + " collect " + out.string()).exit_code == 0);
  std::set<std::string> values;
  for (const auto& r : csv_rows(out / "runs.csv"))
    values.insert(r.at("/topology/dumbbell/bottleneck/loss_rate"));
  CHECK(values == std::set<std::string>{"0.001", "0.1"});  // {:.17g} wrote 0.10000000000000001
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
  // The rfc stack: the bands below were measured with it (SACK under linux keeps the link busier).
  std::ofstream(dir / "s.json") << R"({"name": "c", "duration": "5s",
      "topology": {"dumbbell": {"bottleneck": {"rate": "20Mbps", "delay": "2ms", "buffer": "100pkt"},
                                "access": {"rate": "1Gbps", "buffer": "1000pkt"}}},
      "defaults": {"stack": "rfc"},
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

TEST_CASE("sweep refuses too many runs and --dry-run streams in bounded memory", "[cli][sweep][bad-input]") {
  const fs::path dir = temp_dir("sweep-size");
  // 10 points x 10000 replications: the limit exactly (the old dry run held every scenario: ~270 MB).
  std::ofstream(dir / "big.json") << R"({"base": {"name": "b", "duration": "2s",
      "topology": {"dumbbell": {"bottleneck": {"rate": "10Mbps", "delay": "1ms", "buffer": "100pkt"},
                                "access": {"rate": "1Gbps", "buffer": "1000pkt"}}},
      "flows": [{"id": "a", "rtt": "40ms"}]},
    "grid": {"/flows/0/count": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}, "replications": 10000})";
  const std::string base = kBinary + " sweep " + (dir / "big.json").string() + " --out " + (dir / "out").string();
  const auto refused = run_command(base + " --dry-run --max-runs 99999");
  CHECK(refused.exit_code == 1);
  CHECK_THAT(refused.output, Catch::Contains("the sweep has 100000 runs"));
  CHECK_THAT(refused.output, Catch::Contains("more than the limit of 99999 runs"));
  CHECK_THAT(refused.output, Catch::Contains("--max-runs N"));
  CHECK(run_command(base + " --max-runs 0").exit_code == 2);
  CHECK_FALSE(fs::exists(dir / "out"));
#if defined(__SANITIZE_ADDRESS__)
  WARN("address-space limit skipped under AddressSanitizer");
#else
  // 100 MB of address space: enough for one scenario at a time, not for 10^5 of them.
  const auto r = run_command("ulimit -v 100000; " + base + " --dry-run --quiet > " + (dir / "list.txt").string());
  INFO(r.output);
  CHECK(r.exit_code == 0);
  const std::string list = read_file(dir / "list.txt");
  CHECK(std::count(list.begin(), list.end(), '\n') == 100001);
  CHECK_THAT(list, Catch::EndsWith("100000 runs\n"));
#endif
  fs::remove_all(dir);
}

TEST_CASE("a sweep seeds runs as fastsim run does", "[cli][sweep][bad-input]") {
  const fs::path dir = temp_dir("sweep-seed");
  auto spec = [&](const std::string& seed) {
    std::ofstream(dir / "spec.json") << R"({"base": {"name": "b", "duration": "2s", "seed": )" << seed << R"(,
      "topology": {"dumbbell": {"bottleneck": {"rate": "10Mbps", "delay": "1ms", "buffer": "100pkt"},
                                "access": {"rate": "1Gbps", "buffer": "1000pkt"}}},
      "flows": [{"id": "a", "rtt": "40ms"}]}})";
    return run_command(kBinary + " sweep " + (dir / "spec.json").string() + " --out x --dry-run");
  };
  const auto five = spec("5.0");
  CHECK(five.exit_code == 0);
  CHECK_THAT(five.output, Catch::Contains("replication 0 seed 5\n"));
  const auto bad = spec("5.5");
  CHECK(bad.exit_code == 1);
  CHECK_THAT(bad.output, Catch::Contains("/base/seed: expected an integer"));
  fs::remove_all(dir);
}

TEST_CASE("collect: unusable summaries, a folder that is not a sweep, RFC 4180 quoting, write errors",
          "[cli][sweep][reliability]") {
  const fs::path dir = temp_dir("collect-data");
  // Parameter values with a carriage return, a comma and a quote (the description is free text).
  const std::string spec = write_spec(dir, R"(["20ms"]}, "zip": {"/description": ["a\rb", "c,\"d\""])");
  const fs::path out = dir / "out";
  const auto sw = run_command(kBinary + " sweep " + spec + " --out " + out.string() + " --quiet");
  INFO(sw.output);
  REQUIRE(sw.exit_code == 0);
  REQUIRE(run_command(kBinary + " collect " + out.string()).exit_code == 0);
  std::string runs = read_file(out / "runs.csv");
  CHECK(std::count(runs.begin(), runs.end(), '\n') == 5);
  CHECK_THAT(runs, Catch::Contains(",\"a\rb\","));
  CHECK_THAT(runs, Catch::Contains(",\"c,\"\"d\"\"\","));
  CHECK_THAT(read_file(out / "aggregate.csv"), Catch::Contains("\"a\rb\""));

  // Runs whose status says ok but whose summary is truncated or missing.
  std::vector<fs::path> victims;
  for (const auto& e : fs::directory_iterator(out / "runs"))
    victims.push_back(e.path());
  std::sort(victims.begin(), victims.end());
  const std::string summary = read_file(victims[0] / "summary.json");
  std::ofstream(victims[0] / "summary.json", std::ios::trunc) << summary.substr(0, summary.size() / 2);
  fs::remove(victims[1] / "summary.json");
  const auto c = run_command(kBinary + " collect " + out.string());
  INFO(c.output);
  CHECK(c.exit_code == 3);
  CHECK_THAT(c.output, Catch::Contains("2 unusable"));
  CHECK_THAT(c.output, Catch::Contains("unusable: run " + victims[0].filename().string()));
  CHECK_THAT(c.output, Catch::Contains("summary.json is not valid JSON"));
  CHECK_THAT(c.output, Catch::Contains("unusable: run " + victims[1].filename().string()));
  CHECK_THAT(c.output, Catch::Contains("no summary.json"));
  runs = read_file(out / "runs.csv");
  CHECK(std::count(runs.begin(), runs.end(), '\n') == 5);
  CHECK_THAT(runs, Catch::Contains(victims[0].filename().string() + ","));
  size_t unusable = 0;
  for (size_t at = runs.find(",unusable,0,"); at != std::string::npos; at = runs.find(",unusable,0,", at + 1))
    ++unusable;
  CHECK(unusable == 2);
  // The aggregates count only the usable runs: 4 runs, 2 unusable, so n = 2 over both points.
  const std::string agg = read_file(out / "aggregate.csv");
  size_t n = 0;
  for (const std::string d : {"\"a\rb\"", "\"c,\"\"d\"\"\""}) {
    const std::string key = d + ",20ms,events,";
    if (agg.find(key) != std::string::npos)
      n += std::stoul(agg.substr(agg.find(key) + key.size()));
  }
  CHECK(n == 2);

  // Not a sweep folder: bad input (exit 1, like a missing scenario file), not a failure.
  const auto not_sweep = run_command(kBinary + " collect " + dir.string());
  CHECK(not_sweep.exit_code == 1);
  CHECK_THAT(not_sweep.output, Catch::Contains(dir.string() + ": not a sweep folder (no sweep.json"));
  CHECK(run_command(kBinary + " collect " + (dir / "nowhere").string()).exit_code == 1);
  // A sweep.json that is JSON but not a plan (edited by hand): said so, not nlohmann's words alone.
  fs::create_directories(dir / "edited");
  std::ofstream(dir / "edited" / "sweep.json") << R"({"runs": [{"index": 0, "id": 5}]})";
  const auto edited = run_command(kBinary + " collect " + (dir / "edited").string());
  CHECK(edited.exit_code == 1);
  CHECK_THAT(edited.output, Catch::Contains("sweep.json is not a plan fastsim sweep wrote"));

  // A write error names the file and the OS error, and exits 3.
  fs::create_symlink("/dev/full", out / "aggregate.csv.tmp");
  const auto full = run_command(kBinary + " collect " + out.string());
  CHECK(full.exit_code == 3);
  CHECK_THAT(full.output, Catch::Contains((out / "aggregate.csv.tmp").string()));
  CHECK_THAT(full.output, Catch::Contains("No space left on device"));
  fs::remove_all(dir);
}

TEST_CASE("check: bad metric pointers, failed runs under --update, write errors, no temporary left",
          "[cli][check][reliability]") {
  const fs::path dir = temp_dir("check-data");
  const fs::path tmp = dir / "tmp";  // check's temporary folders go here (TMPDIR)
  fs::create_directories(tmp);
  std::ofstream(dir / "s.json") << R"({"name": "c", "duration": "3s",
      "topology": {"dumbbell": {"bottleneck": {"rate": "20Mbps", "delay": "2ms", "buffer": "100pkt"},
                                "access": {"rate": "1Gbps", "buffer": "1000pkt"}}},
      "flows": [{"id": "a", "rtt": "20ms"}]})";
  auto baseline = [&](const std::string& metric) {
    std::ofstream(dir / "baseline.json") << R"({"scenarios": [{"name": "one", "file": "s.json", "metrics": [
        {"metric": ")" << metric << R"(", "expected": 0.5, "tolerance": 0.01}]}]})";
    return read_file(dir / "baseline.json");
  };
  const std::string cmd = "TMPDIR=" + tmp.string() + " " + kBinary + " check " + (dir / "baseline.json").string();
  auto tmp_empty = [&] { return fs::is_empty(tmp); };

  baseline("/intervals/99999999999999999999999/jain");  // used to abort (uncaught std::out_of_range)
  auto r = run_command(cmd + " --quiet");
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Catch::Contains((dir / "baseline.json").string() + ": /scenarios/0/metrics/0/metric"));
  CHECK(tmp_empty());

  const std::string good = baseline("/links/bottleneck/utilization");
  r = run_command(cmd + " --quiet");  // a failing check (utilization is far from 0.5)
  CHECK(r.exit_code == 4);
  CHECK(tmp_empty());

  // --update with a failing scenario: its flows/ folder is a file, so the run fails.
  const fs::path results = dir / "results";
  fs::create_directories(results / "runs" / "one");
  std::ofstream(results / "runs" / "one" / "flows") << "in the way";
  r = run_command(cmd + " --quiet --update --results " + results.string());
  INFO(r.output);
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.output, Catch::Contains("not updated: scenario(s) one failed to run"));
  CHECK(read_file(dir / "baseline.json") == good);
  // Without --update too, a failed run is a failure to run (3), not a regression (4).
  r = run_command(cmd + " --quiet --results " + results.string());
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.output, Catch::Contains("1 run(s) failed (one)"));

  // A write error of the updated baseline: exit 3 naming the file, the baseline kept.
  fs::remove(results / "runs" / "one" / "flows");
  fs::create_symlink("/dev/full", dir / "baseline.json.tmp");
  r = run_command(cmd + " --quiet --update --results " + results.string());
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.output, Catch::Contains((dir / "baseline.json.tmp").string()));
  CHECK_THAT(r.output, Catch::Contains("No space left on device"));
  CHECK(read_file(dir / "baseline.json") == good);
  fs::remove(dir / "baseline.json.tmp");
  r = run_command(cmd + " --quiet --update");
  CHECK(r.exit_code == 0);
  CHECK(read_file(dir / "baseline.json") != good);
  CHECK(tmp_empty());
  fs::remove_all(dir);
}

TEST_CASE("sweep --unset and --set change the base scenario before the grid's values", "[cli][sweep][unset]") {
  const fs::path dir = temp_dir("sweep-set");
  std::ofstream(dir / "base.json") << R"({"name": "sw", "description": "to be replaced", "duration": "30s",
      "topology": {"dumbbell": {"bottleneck": {"rate": "20Mbps", "delay": "2ms", "buffer": "100pkt"},
                                "access": {"rate": "1Gbps", "buffer": "1000pkt"}}},
      "flows": [{"id": "a", "rtt": "20ms"}, {"id": "b", "rtt": "40ms", "start": "20s"}]})";
  std::ofstream(dir / "spec.json") << R"({"base": "base.json", "grid": {"/flows/0/rtt": ["30ms"]}})";
  const std::string sweep = kBinary + " sweep " + (dir / "spec.json").string() + " --quiet --jobs 1";
  const auto r = run_command(sweep + " --out " + (dir / "out").string() +
                             " --set /description=kept --unset /description --set /duration=2s --unset /flows/1"
                             " --set /flows/0/rtt=99ms");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto plan = nlohmann::json::parse(read_file(dir / "out" / "sweep.json"));
  const auto& base = plan["spec"]["base"];  // the changed base, inline: the plan records what ran
  CHECK(base["description"] == "kept");     // --unset before --set
  CHECK(base["duration"] == "2s");
  CHECK(base["flows"].size() == 1);
  REQUIRE(plan["runs"].size() == 1);
  const auto scenario = nlohmann::json::parse(
      read_file(dir / "out" / "runs" / plan["runs"][0]["id"].get<std::string>() / "scenario.json"));
  CHECK(scenario["flows"][0]["rtt"] == "30ms");  // the grid's value beats --set
  CHECK(scenario["duration"] == "2s");
  // Problems are reported under /base; malformed options are usage errors.
  const auto missing = run_command(sweep + " --out " + (dir / "out2").string() + " --unset /flows/0/rtx");
  CHECK(missing.exit_code == 1);
  CHECK_THAT(missing.output, Catch::Contains("/base/flows/0/rtx: --unset: nothing to delete"));
  const auto bad = run_command(sweep + " --out " + (dir / "out2").string() + " --set /duration=-1s");
  CHECK(bad.exit_code == 1);
  CHECK_THAT(bad.output, Catch::Contains("/duration"));
  CHECK(run_command(sweep + " --out " + (dir / "out2").string() + " --set duration").exit_code == 2);
  CHECK_FALSE(fs::exists(dir / "out2" / "sweep.json"));
  fs::remove_all(dir);
}

TEST_CASE("check over replications: mean, interval and n per metric; --update keeps the file's layout",
          "[cli][check]") {
  const fs::path dir = temp_dir("check-reps");
  // Random loss makes the seeds matter: every replication measures something else.
  std::ofstream(dir / "s.json") << R"({"name": "c", "duration": "4s",
      "topology": {"dumbbell": {"bottleneck": {"rate": "20Mbps", "delay": "2ms", "buffer": "100pkt", "loss_rate": 1e-3},
                                "access": {"rate": "1Gbps", "buffer": "1000pkt"}}},
      "defaults": {"stack": "rfc"},
      "flows": [{"id": "a", "rtt": "20ms"}, {"id": "b", "rtt": "20ms"}]})";
  // Hand-written: keys not sorted, 4-space indentation.
  const std::string text = R"({
    "description": "replicated check",
    "replications": 3,
    "scenarios": [
        {
            "name": "two",
            "file": "s.json",
            "seed": 5,
            "metrics": [
                {
                    "metric": "/flows/a/goodput_bps",
                    "expected": 1,
                    "tolerance": 0.5,
                    "relative": true,
                    "direction": "~"
                }
            ]
        }
    ]
}
)";
  std::ofstream(dir / "baseline.json") << text;
  const std::string cmd =
      kBinary + " check " + (dir / "baseline.json").string() + " --quiet --results " + (dir / "results").string();
  auto r = run_command(cmd);
  INFO(r.output);
  CHECK(r.exit_code == 4);  // the goodput is millions of bits/s, not 1
  // One run per replication: the scenario's name, then NAME~rR with derived seeds.
  for (const char* id : {"two", "two~r1", "two~r2"})
    CHECK(fs::exists(dir / "results" / "runs" / id / "summary.json"));
  CHECK_FALSE(fs::exists(dir / "results" / "runs" / "two~r3"));
  std::set<nlohmann::json> seeds, goodputs;
  for (const char* id : {"two", "two~r1", "two~r2"}) {
    const auto summary = nlohmann::json::parse(read_file(dir / "results" / "runs" / id / "summary.json"));
    seeds.insert(summary["scenario"]["seed"]);
    goodputs.insert(summary["flows"][0]["goodput_bps"]);
  }
  CHECK(seeds.size() == 3);
  CHECK(seeds.count(5) == 1);  // replication 0 runs the baseline's seed
  CHECK(goodputs.size() == 3);
  CHECK_THAT(r.output, Catch::Contains("ci95 +-"));
  CHECK_THAT(r.output, Catch::Matches("(.|\n)*/flows/a/goodput_bps +1 +[0-9.e+]+ +[0-9.e+]+ +3 (.|\n)*"));
  // --replications overrides the file: one run, no interval.
  r = run_command(cmd + " --replications 1");
  CHECK_THAT(r.output, Catch::Matches("(.|\n)*/flows/a/goodput_bps +1 +[0-9.e+]+ +- +1 (.|\n)*"));
  CHECK(run_command(cmd + " --replications 0").exit_code == 2);
  CHECK(run_command(cmd + " --replications 1001").exit_code == 2);
  // --update writes the mean of the three and changes nothing else in the file.
  r = run_command(cmd + " --update");
  CHECK(r.exit_code == 0);
  double mean = 0;
  for (const auto& g : goodputs)
    mean += g.get<double>() / 3;
  const std::string after = read_file(dir / "baseline.json");
  const auto expected_at = after.find("\"expected\": ");
  REQUIRE(expected_at != std::string::npos);
  CHECK(std::stod(after.substr(expected_at + 12)) == Approx(mean).epsilon(1e-12));
  std::string restored = after;
  restored.replace(expected_at, after.find(',', expected_at) - expected_at, "\"expected\": 1");
  CHECK(restored == text);
  CHECK(run_command(cmd).exit_code == 0);
  fs::remove_all(dir);
}

TEST_CASE("results of another build are not reused: sweep --resume and check --results run them again",
          "[cli][sweep][check]") {
  // A run id hashed the scenario and the version only, and check compared scenario.json
  // only: a rebuild from changed sources without a version bump took the old results.
  const fs::path dir = temp_dir("sweep-build");
  const std::string spec = write_spec(dir, R"(["20ms", "60ms"])");
  const fs::path out = dir / "out";
  REQUIRE(run_command(kBinary + " sweep " + spec + " --out " + out.string() + " --quiet").exit_code == 0);
  auto plan = nlohmann::json::parse(read_file(out / "sweep.json"));
  const std::string build = plan["fastsim_version"];
  CHECK(build.starts_with(std::string(FASTSIM_VERSION) + "+"));
  CHECK(build.size() == std::string(FASTSIM_VERSION).size() + 17);  // "+" and 16 hex digits
  const std::string id = plan["runs"][0]["id"];
  CHECK(nlohmann::json::parse(read_file(out / "runs" / id / "status.json"))["fastsim_build"] == build);
  auto r = run_command(kBinary + " sweep " + spec + " --out " + out.string() + " --resume");
  CHECK_THAT(r.output, Catch::Contains("4 runs, 0 to do"));
  // Another build: this binary with a byte appended (it still runs; its hash differs).
  // (next to the binary, not in the temporary folder, which may be mounted noexec)
  const fs::path other = fs::path(kBinary).parent_path() / ("fastsim-other-build-" + std::to_string(getpid()));
  fs::copy_file(kBinary, other);
  std::ofstream(other, std::ios::app) << '\n';
  fs::permissions(other, fs::perms::owner_exec, fs::perm_options::add);
  r = run_command(other.string() + " sweep " + spec + " --out " + out.string() + " --resume");
  INFO(r.output);
  CHECK_THAT(r.output, Catch::Contains("the previous plan was made by another build of fastsim (" + build));
  CHECK_THAT(r.output, Catch::Contains("4 runs, 4 to do"));
  CHECK(nlohmann::json::parse(read_file(out / "sweep.json"))["fastsim_version"] != build);
  // A SLURM task started by another build than the one that planned (rebuilt while the jobs
  // were queued) runs nothing: each of its runs gets a failed status saying so.
  const std::string other_plan = nlohmann::json::parse(read_file(out / "sweep.json"))["fastsim_version"];
  const std::string run0 = nlohmann::json::parse(read_file(out / "sweep.json"))["runs"][0]["id"];
  std::ofstream(dir / "task.runs") << run0 << "\n";
  const std::string task = kBinary + " sweep-task " + out.string() + " --list " + (dir / "task.runs").string() +
                           " --task 0 --pack 1 --build ";
  r = run_command(task + other_plan);
  CHECK(r.exit_code == 3);
  auto task_status = nlohmann::json::parse(read_file(out / "runs" / run0 / "status.json"));
  CHECK(task_status["exit_code"] == 3);
  CHECK_THAT(task_status["error"].get<std::string>(), Catch::Contains("is not the build that planned the sweep"));
  // By the build that planned it: the stale failure is removed and the run made.
  r = run_command(task + build);
  CHECK(r.exit_code == 0);
  task_status = nlohmann::json::parse(read_file(out / "runs" / run0 / "status.json"));
  CHECK(task_status["exit_code"] == 0);
  CHECK(task_status["fastsim_build"] == build);

  std::ofstream(dir / "s.json") << R"({"name": "c", "duration": "2s",
      "topology": {"dumbbell": {"bottleneck": {"rate": "20Mbps", "delay": "2ms", "buffer": "100pkt"},
                                "access": {"rate": "1Gbps", "buffer": "1000pkt"}}},
      "flows": [{"id": "a", "rtt": "20ms"}]})";
  std::ofstream(dir / "baseline.json") << R"({"scenarios": [{"name": "one", "file": "s.json",
      "metrics": [{"metric": "/links/bottleneck/utilization", "expected": 0.5, "tolerance": 1.0}]}]})";
  const fs::path results = dir / "results";
  const std::string check = kBinary + " check " + (dir / "baseline.json").string() + " --quiet --results " +
                            results.string();
  REQUIRE(run_command(check).exit_code == 0);
  const fs::path status = results / "runs" / "one" / "status.json";
  auto st = nlohmann::json::parse(read_file(status));
  CHECK(st["fastsim_build"] == build);
  st["fastsim_build"] = "0.0.9+0123456789abcdef";
  st["wall_time_s"] = -1;  // marks this status: a reuse keeps it, a rerun replaces it
  std::ofstream(status) << st.dump();
  REQUIRE(run_command(check).exit_code == 0);
  st = nlohmann::json::parse(read_file(status));
  CHECK(st["fastsim_build"] == build);
  CHECK(st["wall_time_s"].get<double>() >= 0);
  fs::remove(other);
  fs::remove_all(dir);
}
