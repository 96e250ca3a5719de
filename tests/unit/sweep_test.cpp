// Sweep machinery: grid and zip expansion, seed derivation, id stability, aggregation
// math against known values, packing and MaxArraySize splitting of SLURM arrays, and
// the pass/fail bands of regression checks, numeric parameter columns of collect.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "fastsim/config/errors.hpp"
#include "fastsim/config/limits.hpp"
#include "fastsim/config/parse.hpp"
#include "fastsim/core/build_identity.hpp"
#include "fastsim/run/resource_estimate.hpp"
#include "fastsim/sweep/backends.hpp"
#include "fastsim/sweep/check.hpp"
#include "fastsim/sweep/collect.hpp"
#include "fastsim/sweep/csv.hpp"
#include "fastsim/sweep/param_columns.hpp"
#include "fastsim/sweep/sweep_spec.hpp"

using namespace fastsim;
using namespace fastsim::sweep;
using nlohmann::json;

namespace {
const json kBase = json::parse(R"({"name": "b", "duration": "2s", "seed": 7,
  "topology": {"dumbbell": {"bottleneck": {"rate": "10Mbps", "delay": "1ms", "buffer": "100pkt"},
                            "access": {"rate": "1Gbps", "buffer": "1000pkt"}}},
  "flows": [{"id": "a", "rtt": "40ms"}]})");

SweepSpec spec_of(const std::string& extra) {
  json doc = json::parse("{" + extra + "}");
  doc["base"] = kBase;
  return parse_sweep_spec(doc, ".");
}

/// The message of the error expanding spec_of(extra) throws, or "no error".
std::string expand_error(const std::string& extra) {
  try {
    (void)expand(spec_of(extra), "v");
  } catch (const config::ScenarioError& e) {
    return std::string(e.what());
  }
  return std::string("no error");
}
}  // namespace

TEST_CASE("grid and zip expand in a fixed order with replications", "[sweep]") {
  const auto spec = spec_of(R"("grid": {"/flows/0/algorithm": ["reno", "hstcp"], "/flows/0/count": [1, 2, 3]},
                               "zip": {"/flows/0/rtt": ["20ms", "40ms"], "/duration": ["1s", "2s"]},
                               "replications": 2)");
  const auto runs = expand(spec, "v");
  REQUIRE(runs.size() == 2 * 3 * 2 * 2);
  // Grid pointers in sorted order, the last fastest; then zip; then replications.
  CHECK(runs[0].params ==
        json({{"/flows/0/algorithm", "reno"}, {"/flows/0/count", 1}, {"/flows/0/rtt", "20ms"}, {"/duration", "1s"}}));
  CHECK(runs[1].params == runs[0].params);  // replication 1 of the same point
  CHECK(runs[1].replication == 1);
  CHECK(runs[2].params["/flows/0/rtt"] == "40ms");
  CHECK(runs[2].params["/duration"] == "2s");
  CHECK(runs[4].params["/flows/0/count"] == 2);
  CHECK(runs[12].params["/flows/0/algorithm"] == "hstcp");
  for (size_t i = 0; i < runs.size(); ++i) {
    CHECK(runs[i].index == i);
    CHECK(runs[i].scenario["flows"][0]["rtt"] == runs[i].params["/flows/0/rtt"]);
  }
}

TEST_CASE("seeds derive from the base seed and the replication, the same for every point", "[sweep]") {
  const auto runs = expand(spec_of(R"("grid": {"/flows/0/rtt": ["20ms", "40ms"]}, "replications": 3)"), "v");
  REQUIRE(runs.size() == 6);
  CHECK(runs[0].seed == 7);  // the first replication keeps the scenario's seed
  CHECK(runs[1].seed != runs[0].seed);
  CHECK(runs[2].seed != runs[1].seed);
  CHECK(runs[3].seed == runs[0].seed);  // common random numbers across points
  CHECK(runs[4].seed == runs[1].seed);
  CHECK(runs[1].seed == derive_seed(7, 1));
  CHECK(runs[1].scenario["seed"] == runs[1].seed);
  // A spec seed overrides the scenario's.
  const auto reseeded = expand(spec_of(R"("seed": 3, "replications": 2)"), "v");
  CHECK(reseeded[0].seed == 3);
  CHECK(reseeded[1].seed == derive_seed(3, 1));
}

TEST_CASE("run ids are stable and depend on the scenario, the seed and the version", "[sweep]") {
  const auto a = expand(spec_of(R"("grid": {"/flows/0/rtt": ["20ms", "40ms"]}, "replications": 2)"), "v1");
  const auto b = expand(spec_of(R"("grid": {"/flows/0/rtt": ["20ms", "40ms"]}, "replications": 2)"), "v1");
  const auto c = expand(spec_of(R"("grid": {"/flows/0/rtt": ["20ms", "40ms"]}, "replications": 2)"), "v2");
  std::set<std::string> ids;
  for (size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].id == b[i].id);
    CHECK(a[i].id != c[i].id);
    CHECK(a[i].id.size() == 16);
    ids.insert(a[i].id);
  }
  CHECK(ids.size() == a.size());
  // Key order in the input does not matter (canonical JSON).
  json reordered = json::parse(R"({"seed": 7, "flows": [{"rtt": "40ms", "id": "a"}], "duration": "2s", "name": "b",
    "topology": {"dumbbell": {"access": {"buffer": "1000pkt", "rate": "1Gbps"},
                              "bottleneck": {"buffer": "100pkt", "delay": "1ms", "rate": "10Mbps"}}}})");
  CHECK(run_id(reordered, "v") == run_id(kBase, "v"));
  CHECK(run_id(kBase, "v") == "ebb4c08237869b5e");  // pinned: ids must not change between builds
}

TEST_CASE("bad sweep specs and bad points name their JSON path", "[sweep][bad-input]") {
  CHECK_THAT(expand_error(R"("grid": {"flows/0/rtt": ["20ms"]})"), Catch::Contains("/grid/flows~10~1rtt"));
  CHECK_THAT(expand_error(R"("grid": {"/flows/0/rtt": []})"), Catch::Contains("expected a non-empty array"));
  CHECK_THAT(expand_error(R"("zip": {"/flows/0/rtt": ["20ms"], "/duration": ["1s", "2s"]})"),
             Catch::Contains("zipped lists must have equal lengths"));
  CHECK_THAT(expand_error(R"("replications": 0)"), Catch::Contains("/replications"));
  CHECK_THAT(expand_error(R"("grid": {"/seed": [1, 2]})"), Catch::Contains("/grid/~1seed"));
  CHECK_THAT(expand_error(R"("colour": 1)"), Catch::Contains("/colour: unknown key"));
  CHECK_THAT(expand_error(R"("grid": {"/flows/0/rtt": ["50ms", "50ms"]})"),
             Catch::Contains("/grid: points {\"/flows/0/rtt\":\"50ms\"} and {\"/flows/0/rtt\":\"50ms\"} give the "
                             "same scenario"));
  CHECK_THAT(expand_error(R"("grid": {"/flows/0/rtt": ["20ms", "-5ms"]})"),
             Catch::Contains("/flows/0/rtt: point {\"/flows/0/rtt\":\"-5ms\"}"));
}

TEST_CASE("aggregation: mean, standard deviation and Student-t 95% interval", "[sweep]") {
  const auto a = aggregate({1, 2, 3, 4, 5});
  CHECK(a.n == 5);
  CHECK(a.mean == Approx(3));
  CHECK(*a.sd == Approx(1.5811388300841898));
  // t(0.975, 4) = 2.7764451051977987
  CHECK(*a.ci_low == Approx(3 - 2.7764451051977987 * 1.5811388300841898 / std::sqrt(5.0)).epsilon(1e-12));
  CHECK(*a.ci_high == Approx(4.9632431).epsilon(1e-7));
  const auto two = aggregate({10, 12});  // t(0.975, 1) = 12.706204736
  CHECK(*two.ci_high - two.mean == Approx(12.706204736174707 * std::sqrt(2.0) / std::sqrt(2.0)).epsilon(1e-9));
  const auto one = aggregate({4});
  CHECK(one.mean == 4);
  CHECK_FALSE(one.sd.has_value());
  CHECK_FALSE(one.ci_low.has_value());
}

TEST_CASE("SLURM arrays pack K runs per task and split at MaxArraySize", "[sweep][slurm]") {
  std::vector<RunPlan> todo(23);
  for (size_t i = 0; i < todo.size(); ++i)
    todo[i].id = "run" + std::to_string(i);
  SlurmOptions o;
  o.pack = 2;  // 12 tasks
  o.throttle = 4;
  o.partition = "debug";
  o.extra_sbatch = {"--qos=low"};
  const auto arrays = plan_arrays("/sw", todo, o, 5, "/bin/fastsim");  // at most 5 tasks per array
  REQUIRE(arrays.size() == 3);
  CHECK(arrays[0].tasks == 5);
  CHECK(arrays[1].tasks == 5);
  CHECK(arrays[2].tasks == 2);
  CHECK(arrays[0].run_ids.size() == 10);
  CHECK(arrays[2].run_ids.size() == 3);  // 23 = 10 + 10 + 3
  CHECK(arrays[1].run_ids.front() == "run10");
  CHECK(arrays[2].run_ids.back() == "run22");
  CHECK_THAT(arrays[0].text, Catch::Contains("#SBATCH --array=0-4%4\n"));
  CHECK_THAT(arrays[2].text, Catch::Contains("#SBATCH --array=0-1%4\n"));
  CHECK_THAT(arrays[0].text, Catch::Contains("#SBATCH --partition=debug\n"));
  CHECK_THAT(arrays[0].text, Catch::Contains("#SBATCH --qos=low\n"));
  CHECK_THAT(arrays[1].text, Catch::Contains("sweep-task '/sw' --list '/sw/slurm/array-1.runs'"));
  CHECK_THAT(arrays[1].text, Catch::Contains("--pack 2"));
  // Default: one run per task, no throttle, one array below the default MaxArraySize.
  const auto single = plan_arrays("/sw", todo, SlurmOptions{}, 1001, "/bin/fastsim");
  REQUIRE(single.size() == 1);
  CHECK_THAT(single[0].text, Catch::Contains("#SBATCH --array=0-22\n"));
}

TEST_CASE("baseline scenario names are unique ids (they name result folders)", "[sweep][check]") {
  auto error_of = [](const std::string& names) {
    json doc = {{"scenarios", json::array()}};
    for (const auto& n : json::parse(names)) {
      doc["scenarios"].push_back(
          {{"name", n}, {"file", "s.json"}, {"metrics", {{{"metric", "/x"}, {"expected", 1}, {"tolerance", 0}}}}});
    }
    try {
      (void)parse_baseline(doc, ".");
    } catch (const config::ScenarioError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(error_of(R"(["a", "b"])") == "no error");
  CHECK_THAT(error_of(R"(["a", "a"])"), Catch::Contains("/scenarios/1/name: duplicate scenario name \"a\""));
  CHECK_THAT(error_of(R"(["a/b"])"), Catch::Contains("/scenarios/0/name: invalid name"));
  CHECK_THAT(error_of(R"([".."])"), Catch::Contains("/scenarios/0/name: invalid name"));
}

TEST_CASE("regression checks: bands, directions and element ids in metric paths", "[sweep][check]") {
  const json summary = json::parse(R"({"intervals": [{"jain": 0.98}],
    "links": [{"id": "bottleneck", "utilization": 0.95}], "flows": [{"id": "a", "goodput_bps": 5e6}]})");
  CHECK(*metric_value(summary, "/intervals/0/jain") == 0.98);
  CHECK(*metric_value(summary, "/links/bottleneck/utilization") == 0.95);
  CHECK(*metric_value(summary, "/links/0/utilization") == 0.95);
  CHECK(*metric_value(summary, "/flows/a/goodput_bps") == 5e6);
  CHECK_FALSE(metric_value(summary, "/flows/b/goodput_bps"));
  CHECK_FALSE(metric_value(summary, "/intervals/3/jain"));

  MetricCheck approx{"/x", 1.0, 0.05, false, "~"};
  CHECK(passes(approx, 1.04));
  CHECK_FALSE(passes(approx, 1.06));
  CHECK_FALSE(passes(approx, std::nullopt));
  MetricCheck at_least{"/x", 0.9, 0.1, true, ">="};  // relative: 0.9 - 0.09
  CHECK(passes(at_least, 0.82));
  CHECK(passes(at_least, 5.0));
  CHECK_FALSE(passes(at_least, 0.80));
  MetricCheck at_most{"/x", 10, 1, false, "<="};
  CHECK(passes(at_most, 11));
  CHECK(passes(at_most, -3));
  CHECK_FALSE(passes(at_most, 11.5));
}

TEST_CASE("the run count is computed before expansion, overflow-safe, and refused past the limit",
          "[sweep][bad-input]") {
  // 3 parameters x 100 values: 10^6 runs (expanding them took gigabytes).
  json values = json::array();
  for (int i = 1; i <= 100; ++i)
    values.push_back(i);
  json doc = {{"base", kBase},
              {"grid", {{"/flows/0/count", values}, {"/flows/0/params/alpha", values}, {"/defaults/mss", values}}}};
  const auto spec = parse_sweep_spec(doc, ".");
  REQUIRE(run_count(spec) == std::optional<uint64_t>(1000000));
  std::string error;
  try {
    (void)expand(spec, "v");
  } catch (const config::ScenarioError& e) {
    error = e.what();
  }
  CHECK_THAT(error, Catch::Contains("the sweep has 1000000 runs"));
  CHECK_THAT(error, Catch::Contains("more than the limit of 100000 runs"));
  CHECK_THAT(error, Catch::Contains("--max-runs N"));
  CHECK_THROWS_AS(check_run_count(spec, 999999), config::ScenarioError);
  CHECK_NOTHROW(check_run_count(spec, 1000000));
  // 300^8 x 100000 does not fit in 64 bits: no wrap-around to a small count.
  json wide = {{"base", kBase}, {"grid", json::object()}, {"replications", 100000}};
  json many = json::array();
  for (int i = 0; i < 300; ++i)
    many.push_back(i);
  for (int k = 0; k < 8; ++k)
    wide["grid"]["/x" + std::to_string(k)] = many;
  const auto huge = parse_sweep_spec(wide, ".");
  CHECK_FALSE(run_count(huge).has_value());
  try {
    check_run_count(huge, kDefaultMaxRuns);
    FAIL("no error");
  } catch (const config::ScenarioError& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("more than 18446744073709551615 runs"));
  }
}

TEST_CASE("for_each_run streams the runs of expand, in order", "[sweep]") {
  const auto spec = spec_of(R"("grid": {"/flows/0/rtt": ["20ms", "40ms"], "/flows/0/count": [1, 2]},
                               "zip": {"/duration": ["1s", "2s"]}, "replications": 3)");
  const auto all = expand(spec, "v");
  REQUIRE(all.size() == *run_count(spec));
  size_t seen = 0;
  for_each_run(spec, "v", kDefaultMaxRuns, [&](RunPlan&& r) {
    REQUIRE(seen < all.size());
    CHECK(r.index == seen);
    CHECK(r.id == all[seen].id);
    CHECK(r.params == all[seen].params);
    CHECK(r.scenario == all[seen].scenario);
    ++seen;
  });
  CHECK(seen == 2 * 2 * 2 * 3);
}

TEST_CASE("expand without documents keeps only the parameters; scenario_of makes each document again", "[sweep]") {
  auto spec = spec_of(R"("grid": {"/flows/0/rtt": ["20ms", "40ms"], "/flows/0/count": [1, 2]},
                         "zip": {"/duration": ["1s", "2s"]}, "replications": 3)");
  const auto full = expand(spec, "v");
  SweepEstimate estimate;
  const auto light = expand(spec, "v", kDefaultMaxRuns, false, &estimate);
  REQUIRE(light.size() == full.size());
  CHECK(estimate.runs == full.size());
  for (size_t i = 0; i < full.size(); ++i) {
    CHECK(light[i].scenario.is_null());
    CHECK(light[i].id == full[i].id);
    CHECK(scenario_of(spec, light[i]) == full[i].scenario);
    CHECK(run_id(scenario_of(spec, light[i]), "v") == full[i].id);
  }
}

TEST_CASE("the runs of a sweep together are held to sweep-output-bytes and sweep-packets", "[sweep][bad-input]") {
  // Each run alone is far within the per-run limits; the 24 runs together are not.
  auto spec = spec_of(R"("grid": {"/flows/0/rtt": ["20ms", "40ms"], "/flows/0/count": [1, 2]},
                         "zip": {"/duration": ["1s", "2s"]}, "replications": 3)");
  const SweepEstimate total = for_each_run(spec, "v", kDefaultMaxRuns, [](RunPlan&&) {});
  CHECK(total.runs == 24);
  REQUIRE(total.output_bytes > 0);
  REQUIRE(total.packets > 0);
  // The total is the sum of the runs' estimates (traces and the scenario document written
  // into each run's folder).
  uint64_t packets = 0, output_bytes = 0;
  for (const auto& r : expand(spec, "v")) {
    auto s = config::parse_scenario(r.scenario);
    const auto e = run::estimate_resources(s);
    packets += e.packets;
    output_bytes += e.trace_bytes + r.scenario.dump(2).size() + 1;
  }
  CHECK(total.packets == packets);
  CHECK(total.output_bytes == output_bytes);
  auto message = [&](const SweepSpec& s) {
    try {
      (void)expand(s, "v");
    } catch (const config::ScenarioError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  spec.limits.sweep_output_bytes = total.output_bytes;  // at the limit: accepted
  spec.limits.sweep_packets = total.packets;
  CHECK(message(spec) == "no error");
  spec.limits.sweep_output_bytes = total.output_bytes - 1;
  CHECK_THAT(message(spec), Catch::Contains("the files of all 24 runs together (traces, scenario documents) are estimated at") &&
                                Catch::Contains("over the sweep-output-bytes limit") &&
                                Catch::Contains("--limit sweep-output-bytes=none"));
  spec.limits.sweep_output_bytes = UINT64_MAX;
  spec.limits.sweep_packets = total.packets - 1;
  CHECK_THAT(message(spec), Catch::Contains("the packets of all 24 runs together are estimated at") &&
                                Catch::Contains("over the sweep-packets limit"));
  // The defaults and their names on the command line.
  config::Limits limits;
  CHECK(limits.sweep_output_bytes == uint64_t{100} << 30);
  CHECK(limits.sweep_packets == 10'000'000'000'000);
  CHECK_FALSE(config::set_limit(limits, "sweep-output-bytes=2T").has_value());
  CHECK(limits.sweep_output_bytes == uint64_t{2} << 40);
  CHECK_FALSE(config::set_limit(limits, "sweep-packets=none").has_value());
  CHECK(limits.sweep_packets == UINT64_MAX);
}

TEST_CASE("a sweep's validation stops after kMaxReportedIssues problems", "[sweep][bad-input]") {
  // 1000 points, each with an invalid rate: the first 100 problems and where it stopped,
  // not 1000 errors.
  json rates = json::array();
  for (int i = 1; i <= 1000; ++i)
    rates.push_back(fmt::format("-{}Mbps", i));
  json doc = {{"base", kBase}, {"grid", {{"/topology/dumbbell/bottleneck/rate", rates}}}};
  const auto spec = parse_sweep_spec(doc, ".");
  size_t passed = 0;
  try {
    for_each_run(spec, "v", kDefaultMaxRuns, [&](RunPlan&&) { ++passed; });
    FAIL("no error");
  } catch (const config::ScenarioError& e) {
    REQUIRE(e.issues().size() == kMaxReportedIssues + 1);
    CHECK_THAT(e.issues().front().message, Catch::Contains("point {\"/topology/dumbbell/bottleneck/rate\":\"-1Mbps\"}"));
    CHECK_THAT(e.issues().back().message,
               Catch::Contains("validation stopped after 100 problems, at point 100 of 1000"));
  }
  CHECK(passed == 100);  // the points validated before it stopped
  // The 100th problem at the last point: every point was validated, no stop message.
  rates.erase(rates.begin() + 100, rates.end());
  doc["grid"]["/topology/dumbbell/bottleneck/rate"] = rates;
  try {
    (void)expand(parse_sweep_spec(doc, "."), "v");
    FAIL("no error");
  } catch (const config::ScenarioError& e) {
    CHECK(e.issues().size() == kMaxReportedIssues);
    CHECK_THAT(std::string(e.what()), !Catch::Contains("validation stopped"));
  }
}

TEST_CASE("a sweep validates at most kMaxValidatedReplicas flows over all its points", "[sweep][bad-input]") {
  // Each point lists 3 x 100 000 flows: 3 x 10^8 over the 1000 points, refused before any
  // point is read (67 points were read, and refused by the memory check, before).
  json base = kBase;
  base["flows"] = json::array();
  for (int k = 0; k < 3; ++k)
    base["flows"].push_back({{"id", fmt::format("f{}", k)}, {"count", 100000}, {"rtt", "40ms"}});
  json durations = json::array();
  for (int i = 1; i <= 1000; ++i)
    durations.push_back(fmt::format("{}s", i));
  const auto spec = parse_sweep_spec({{"base", base}, {"grid", {{"/duration", durations}}}}, ".");
  try {
    for_each_run(spec, "v", kDefaultMaxRuns, [](RunPlan&&) {});
    FAIL("no error");
  } catch (const config::ScenarioError& e) {
    REQUIRE(e.issues().size() == 1);
    CHECK_THAT(e.issues().front().message,
               Catch::Contains("the 1000 points make 300000000 TCP flows and UDP sources together, more than 20000000"));
  }
}

TEST_CASE("a sweep reads the base seed as fastsim run does", "[sweep][bad-input]") {
  json base = kBase;
  base["seed"] = 5.0;  // fastsim run reads 5
  auto runs = expand(parse_sweep_spec({{"base", base}}, "."), "v");
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].seed == 5);
  CHECK(runs[0].scenario["seed"] == 5);
  CHECK(expand(parse_sweep_spec({{"base", kBase}, {"seed", 2.0}}, "."), "v")[0].seed == 2);
  base["seed"] = 5.5;  // an error for fastsim run: an error here too, not seed 1
  CHECK_THROWS_WITH(parse_sweep_spec({{"base", base}}, "."), Catch::Contains("/base/seed: expected an integer"));
  CHECK_THROWS_WITH(parse_sweep_spec({{"base", kBase}, {"seed", -1}}, "."),
                    Catch::Contains("/seed: expected an integer"));
}

TEST_CASE("grid values are compared as the scenario reader reads them", "[sweep][bad-input]") {
  const std::string durations = expand_error(R"("grid": {"/duration": ["1s", 1, "1000ms"]})");
  CHECK_THAT(durations, Catch::Contains("/grid: points {\"/duration\":\"1s\"} and {\"/duration\":1} give the same "
                                        "scenario (/duration: \"1s\" and 1 are one value)"));
  CHECK_THAT(durations, Catch::Contains("{\"/duration\":\"1s\"} and {\"/duration\":\"1000ms\"}"));
  CHECK_THAT(expand_error(R"("grid": {"/flows/0/count": [1, 1.0]})"), Catch::Contains("give the same scenario"));
  CHECK_THAT(expand_error(R"("zip": {"/topology/dumbbell/bottleneck/rate": ["10Mbps", "10000kbps"]})"),
             Catch::Contains("/zip: points"));
  CHECK_THAT(expand_error(R"("grid": {"/topology/dumbbell/bottleneck/buffer": ["1500B", 1500, "100pkt"]})"),
             Catch::Contains("/topology/dumbbell/bottleneck/buffer: \"1500B\" and 1500 are one value"));
  // Different values, and strings that only look like quantities where the reader takes any string.
  CHECK(expand_error(R"("grid": {"/duration": ["1s", 2, "3000ms"]})") == "no error");
  CHECK(expand_error(R"("grid": {"/name": ["1s", "1000ms"]})") == "no error");
}

TEST_CASE("CSV fields are quoted as RFC 4180 says", "[sweep]") {
  CHECK(csv_field("plain") == "plain");
  CHECK(csv_field("a\rb") == "\"a\rb\"");
  CHECK(csv_field("a\nb") == "\"a\nb\"");
  CHECK(csv_field("a,b") == "\"a,b\"");
  CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
  std::string row;
  append_csv_row(row, {"x", "1,2", ""});
  CHECK(row == "x,\"1,2\",\n");
}

TEST_CASE("metric pointers: a huge array index is an error in the baseline, never a crash", "[sweep][check]") {
  const json summary = json::parse(R"({"intervals": [{"jain": 0.98}]})");
  CHECK_FALSE(metric_value(summary, "/intervals/99999999999999999999999/jain"));  // used to throw out_of_range
  CHECK_FALSE(array_index("18446744073709551616"));
  CHECK(array_index("18446744073709551615") == std::optional<uint64_t>(UINT64_MAX));
  auto baseline = [](const std::string& metric, const json& seed) {
    json doc = {{"scenarios",
                 {{{"name", "a"},
                   {"file", "s.json"},
                   {"seed", seed},
                   {"metrics", {{{"metric", metric}, {"expected", 1}, {"tolerance", 0}}}}}}}};
    try {
      (void)parse_baseline(doc, ".");
    } catch (const config::ScenarioError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(baseline("/intervals/99999999999999999999999/jain", 1),
             Catch::Contains("/scenarios/0/metrics/0/metric: \"/intervals/99999999999999999999999/jain\": array "
                             "index 99999999999999999999999 is out of range"));
  CHECK_THAT(baseline("/a~2b", 1), Catch::Contains("/scenarios/0/metrics/0/metric: \"/a~2b\": '~' must be followed"));
  CHECK(baseline("/intervals/0/jain", 3.0) == "no error");  // a seed is read as fastsim run reads it
  CHECK_THAT(baseline("/intervals/0/jain", 3.5), Catch::Contains("/scenarios/0/seed: expected an integer"));
}

TEST_CASE("numeric parameter columns: the reader's units, packets and bytes apart, names left alone", "[sweep]") {
  // One value each: the unit sets of the reader do not overlap.
  CHECK(quantity_of("20ms").unit == "s");
  CHECK(quantity_of("20ms").number == "0.02");
  CHECK(quantity_of("2min").number == "120");
  CHECK(quantity_of("1ps").unit == "s");
  CHECK(quantity_of("2.5Gbit/s").unit == "bps");
  CHECK(quantity_of("2.5Gbit/s").number == "2500000000");
  CHECK(quantity_of("3p").unit == "pkt");
  CHECK(quantity_of("50pkts").number == "50");
  CHECK(quantity_of("64KiB").unit == "B");
  CHECK(quantity_of("64KiB").number == "65536");
  for (const json& v : {json("reno"), json("5"), json(5), json(true), json("20 parsecs")})
    CHECK(quantity_of(v).unit.empty());

  const std::vector<json> points = {{{"/flows/0/rtt", "20ms"},
                                     {"/bottleneck/buffer", "50pkt"},
                                     {"/bottleneck/rate", "100Mbps"},
                                     {"/name", "100ms"},
                                     {"/flows/0/count", 1},
                                     {"/mixed", "1s"},
                                     {"/a~1b", "1s"}},
                                    {{"/flows/0/rtt", 0.25},
                                     {"/bottleneck/buffer", "75KB"},
                                     {"/bottleneck/rate", "1Gbps"},
                                     {"/name", "fast"},
                                     {"/flows/0/count", 2},
                                     {"/mixed", "1Mbps"},
                                     {"/a~1b", "2s"}},
                                    {{"/flows/0/rtt", "1.5s"},
                                     {"/bottleneck/buffer", 30000},
                                     {"/bottleneck/rate", 5e6},
                                     {"/name", "x"},
                                     {"/flows/0/count", 3},
                                     {"/mixed", "1s"},
                                     {"/a~1b", "3s"}}};
  const ParamColumns columns(points);
  // Pointers in sorted order, units in the order s, bps, pkt, B; "/name" is not a quantity
  // (one value has no unit), "/mixed" mixes a duration and a rate, "/flows/0/count" is a
  // plain number already.
  CHECK(columns.names() == std::vector<std::string>{"a/b_s", "bottleneck.buffer_pkt", "bottleneck.buffer_B",
                                                    "bottleneck.rate_bps", "flows.0.rtt_s"});
  const auto first = columns.cells(points[0]);
  CHECK(first.at("flows.0.rtt_s") == "0.02");
  CHECK(first.at("bottleneck.buffer_pkt") == "50");
  CHECK(first.at("bottleneck.buffer_B").empty());
  CHECK(first.at("bottleneck.rate_bps") == "100000000");
  const auto second = columns.cells(points[1]);
  CHECK(second.at("flows.0.rtt_s") == "0.25");  // a plain number is in the base unit
  CHECK(second.at("bottleneck.buffer_pkt").empty());
  CHECK(second.at("bottleneck.buffer_B") == "75000");
  const auto third = columns.cells(points[2]);
  CHECK(third.at("bottleneck.buffer_B") == "30000");  // a buffer's plain number is bytes
  CHECK(third.at("bottleneck.rate_bps") == "5000000");
  CHECK(third.at("a/b_s") == "3");
}

TEST_CASE("check over replications: the 95 % interval of the mean must meet the band", "[sweep][check]") {
  const MetricCheck at_least{"/x", 0.9, 0.0, false, ">="};  // band [0.9, inf)
  // n = 1: the single value decides, there is no interval.
  auto one = evaluate(at_least, {0.85});
  CHECK(one.n == 1);
  CHECK_FALSE(one.half_width.has_value());
  CHECK_FALSE(one.pass);
  CHECK(evaluate(at_least, {0.95}).pass);
  // n = 3, mean 0.88 below the band; sd 0.02, t(0.975, 2) = 4.302652729749464:
  // half-width 4.3027 * 0.02 / sqrt(3) = 0.0497, the interval reaches 0.9297: not
  // significantly below the band, it passes (the old single-sample check failed 0.86).
  auto wide = evaluate(at_least, {0.86, 0.88, 0.90});
  CHECK(wide.n == 3);
  CHECK(wide.mean == Approx(0.88));
  REQUIRE(wide.half_width.has_value());
  CHECK(*wide.half_width == Approx(4.302652729749464 * 0.02 / std::sqrt(3.0)).epsilon(1e-9));
  CHECK(wide.pass);
  // The same mean with a tight interval [0.8788, 0.8812] is significantly below: it fails.
  auto tight = evaluate(at_least, {0.879, 0.88, 0.881});
  CHECK(tight.mean == Approx(0.88));
  CHECK_FALSE(tight.pass);
  // A replication that measured nothing fails the metric (and is not averaged away).
  auto partial = evaluate(at_least, {0.95, std::nullopt, 0.96});
  CHECK(partial.n == 2);
  CHECK_FALSE(partial.complete);
  CHECK_FALSE(partial.pass);
  // Run folders: replication 0 keeps the scenario's name, the others cannot clash with a name.
  CHECK(replication_id("reno", 0) == "reno");
  CHECK(replication_id("reno", 2) == "reno~r2");
}

TEST_CASE("baseline replications: file default, per scenario, --replications, bad values",
          "[sweep][check][bad-input]") {
  json doc = json::parse(R"({"replications": 3, "scenarios": [
    {"name": "a", "file": "s.json", "metrics": [{"metric": "/x", "expected": 1, "tolerance": 0}]},
    {"name": "b", "file": "s.json", "replications": 5, "metrics": [{"metric": "/x", "expected": 1, "tolerance": 0}]}]})");
  const Baseline b = parse_baseline(doc, ".");
  CHECK(replications_of(b, b.scenarios[0], std::nullopt) == 3);
  CHECK(replications_of(b, b.scenarios[1], std::nullopt) == 5);
  CHECK(replications_of(b, b.scenarios[1], 2) == 2);
  auto error_of = [&](const char* pointer, const json& value) {
    json d = doc;
    d[json::json_pointer(pointer)] = value;
    try {
      (void)parse_baseline(d, ".");
    } catch (const config::ScenarioError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(error_of("/replications", 0), Catch::Contains("/replications: expected an integer in [1, 1000]"));
  CHECK_THAT(error_of("/scenarios/1/replications", 2.5),
             Catch::Contains("/scenarios/1/replications: expected an integer"));
  CHECK_THAT(error_of("/scenarios/1/replications", "3"), Catch::Contains("/scenarios/1/replications"));
}

TEST_CASE("--update changes only the expected values: order, layout and description kept", "[sweep][check]") {
  // Keys deliberately not sorted, 4-space indentation, a custom field order per metric.
  const std::string before = R"({
    "description": "hand-written; keys in reading order",
    "replications": 2,
    "scenarios": [
        {
            "name": "z-first",
            "file": "s.json",
            "metrics": [
                {
                    "metric": "/intervals/0/jain",
                    "expected": 0.5,
                    "tolerance": 0.05,
                    "direction": ">="
                },
                {
                    "metric": "/links/bottleneck/utilization",
                    "tolerance": 0.1,
                    "expected": 0.7
                }
            ],
            "seed": 3
        },
        {
            "name": "a-second",
            "file": "s.json",
            "metrics": [
                {
                    "metric": "/intervals/0/jain",
                    "expected": 1,
                    "tolerance": 0.05
                }
            ]
        }
    ]
}
)";
  const std::string after = update_expected(before, {{0, 1, 0.9875}, {1, 0, 0.25}});
  // Line by line, only the two updated "expected" lines differ.
  auto lines = [](const std::string& t) {
    std::vector<std::string> out;
    std::istringstream in(t);
    for (std::string l; std::getline(in, l);)
      out.push_back(l);
    return out;
  };
  const auto a = lines(before), b = lines(after);
  REQUIRE(a.size() == b.size());
  std::vector<std::string> changed;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i])
      changed.push_back(b[i]);
  }
  CHECK(changed == std::vector<std::string>{"                    \"expected\": 0.9875",
                                            "                    \"expected\": 0.25,"});
  CHECK(after.back() == '\n');
  // No update: the text comes back unchanged.
  CHECK(update_expected(before, {}) == before);
  // A tab-indented baseline stays tab-indented.
  const std::string tabs = "{\n\t\"scenarios\": [\n\t\t{\n\t\t\t\"metrics\": [\n\t\t\t\t{\n"
                           "\t\t\t\t\t\"expected\": 1\n\t\t\t\t}\n\t\t\t]\n\t\t}\n\t]\n}\n";
  CHECK(update_expected(tabs, {}) == tabs);
  const std::string tabs_after = update_expected(tabs, {{0, 0, 0.5}});
  CHECK(tabs_after.find("\n\t\t\t\t\t\"expected\": 0.5\n") != std::string::npos);
  CHECK(tabs_after.find(' ') == tabs_after.find(": ") + 1);  // the first space follows a key: none indents
  // CRLF line ends stay CRLF (the diff shows only the updated line), and a blank line of
  // whitespace before the first indented one does not set the indentation.
  const auto with_crlf = [](const std::string& t) {
    std::string out;
    for (const char ch : t) {
      if (ch == '\n')
        out += '\r';
      out += ch;
    }
    return out;
  };
  CHECK(update_expected(with_crlf(tabs), {}) == with_crlf(tabs));
  CHECK(update_expected(with_crlf(before), {}) == with_crlf(before));
  CHECK(update_expected(with_crlf(tabs), {{0, 0, 0.5}}) == with_crlf(tabs_after));
  const std::string blank_first = "{\n   \n\t\"scenarios\": [\n\t\t{\n\t\t\t\"metrics\": [\n\t\t\t\t{\n"
                                  "\t\t\t\t\t\"expected\": 1\n\t\t\t\t}\n\t\t\t]\n\t\t}\n\t]\n}\n";
  CHECK(update_expected(blank_first, {}) == tabs);
}

TEST_CASE("the build identity is the version and a hash of the executable, the same every time", "[sweep]") {
  const std::string& identity = fastsim::build_identity();
  REQUIRE(identity.starts_with(std::string(FASTSIM_VERSION) + "+"));
  const std::string hash = identity.substr(std::string(FASTSIM_VERSION).size() + 1);
  CHECK(hash.size() == 16);
  CHECK(hash.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(&fastsim::build_identity() == &identity);  // read once
}
