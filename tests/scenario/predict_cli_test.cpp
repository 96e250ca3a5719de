// fastsim predict and run --predict through the CLI: output forms, bad input, and the
// simulated equilibria of configs/ agreeing with the prediction where the model applies.
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "../support/helpers.hpp"

using fastsim::testing::read_file;
using fastsim::testing::run_command;
using fastsim::testing::temp_dir;

namespace {
const std::string kBin = FASTSIM_BINARY;
const std::string kSrc = FASTSIM_SOURCE_DIR;
}  // namespace

TEST_CASE("fastsim predict prints tables and JSON; --set applies", "[cli][predict]") {
  const auto text = run_command(kBin + " predict " + kSrc + "/configs/fast-testbed.json");
  REQUIRE(text.exit_code == 0);
  CHECK_THAT(text.output, Catch::Contains("r50") && Catch::Contains("33.3333") && Catch::Contains("bottleneck"));
  const auto js =
      run_command(kBin + " predict " + kSrc + "/configs/fast-testbed.json --json --set /flows/0/params/alpha=100");
  REQUIRE(js.exit_code == 0);
  const auto j = nlohmann::json::parse(js.output);
  const auto& flows = j["intervals"][0]["flows"];
  REQUIRE(flows.size() == 3);
  CHECK(flows[0]["rate_bps"].get<double>() == Approx(50e6).epsilon(1e-8));  // alpha 100 against 50 and 50
  CHECK(flows[0]["queued_pkts"].get<double>() == Approx(100).epsilon(1e-8));
}

TEST_CASE("fastsim predict: bad input", "[cli][predict]") {
  CHECK(run_command(kBin + " predict").exit_code == 2);
  CHECK(run_command(kBin + " predict " + kSrc + "/configs/fast-testbed.json --bogus").exit_code == 2);
  const auto bad_set = run_command(kBin + " predict " + kSrc + "/configs/fast-testbed.json --set flows=1");
  CHECK(bad_set.exit_code == 2);
  CHECK_THAT(bad_set.output, Catch::Contains("--set expects /json/pointer=value"));
  const auto missing = run_command(kBin + " predict /nonexistent/x.json");
  CHECK(missing.exit_code == 1);
  const auto bad_value =
      run_command(kBin + " predict " + kSrc + "/configs/fast-testbed.json --set /flows/0/params/alpha=-3");
  CHECK(bad_value.exit_code == 1);
  CHECK_THAT(bad_value.output, Catch::Contains("/flows/0/params/alpha"));
  CHECK(run_command(kBin + " predict " + kSrc + "/configs/fast-testbed.json --limit bogus=3").exit_code == 2);
  // The interval budget: pc-sequential has 9 intervals of 1 to 9 flows.
  const auto capped = run_command(kBin + " predict " + kSrc +
                                  "/configs/experiments/pc-sequential.json --json --limit interval-flows=6");
  REQUIRE(capped.exit_code == 0);
  const auto cj = nlohmann::json::parse(capped.output);
  CHECK(cj["intervals"].size() == 3);  // 1 + 2 + 3 entries
  CHECK(cj["intervals_omitted"] == 6);
  // A scenario the model does not cover: the reason per flow, exit 0.
  const auto reno = run_command(kBin + " predict " + kSrc + "/configs/reno-single.json");
  CHECK(reno.exit_code == 0);
  CHECK_THAT(reno.output, Catch::Contains("no prediction: no random loss on its path"));
}

TEST_CASE("run --predict adds the prediction to summary.json, only when asked", "[cli][predict]") {
  const auto dir = temp_dir("predict-run");
  const std::string cfg = kSrc + "/configs/fast-testbed.json --set /duration=12s --set /warmup=2s --quiet";
  REQUIRE(run_command(kBin + " run " + cfg + " --out " + (dir / "plain").string()).exit_code == 0);
  REQUIRE(run_command(kBin + " run " + cfg + " --predict --out " + (dir / "pred").string()).exit_code == 0);
  auto plain = nlohmann::json::parse(read_file(dir / "plain" / "summary.json"));
  auto pred = nlohmann::json::parse(read_file(dir / "pred" / "summary.json"));
  CHECK_FALSE(plain.contains("prediction"));
  REQUIRE(pred.contains("prediction"));
  const auto& f = pred["prediction"]["intervals"][0]["flows"][0];
  CHECK(f["predicted_goodput_bps"].get<double>() == Approx(100e6 / 3 * 1460 / 1500).epsilon(1e-8));
  CHECK(f["relative_error"].is_number());
  CHECK(pred["prediction"]["model"]["intervals"].size() == 1);
  // Everything else is as without the flag.
  for (auto* j : {&plain, &pred}) {
    for (const char* k : {"wall_time_s", "peak_rss_mb", "prediction"})
      j->erase(k);
  }
  CHECK(plain == pred);
  std::filesystem::remove_all(dir);
}

TEST_CASE("simulated FAST and Vegas equilibria in configs/ agree with the prediction within 3 %", "[cli][predict]") {
  // Where the model applies: the interval's flows are past slow start and the baseRTTs are
  // those the model assumes. Left out, with the reason:
  //  - vegas-two-rtts.json: Vegas holds any backlog in [alpha, beta]; the split at two RTTs
  //    lies 30 % from the band's midpoint, so it is checked against the band instead;
  //  - quick-vegas-cbr.json's first interval (80 s of a 1.5 Gb/s path): the ramp-up takes
  //    a large part of it;
  //  - pc-two-flows.json, pc-sequential.json: the newcomer starts before the old flow
  //    settles, so its baseRTT error is smaller than eq. (10)'s (5-8 % off);
  //  - fast-rodriguez.json, fast-rate-reduction.json: the remedies' estimates are not
  //    exact in the simulator (n-hat 4.34 for 4; docs/algorithms.md).
  struct Case {
    std::string config;
    size_t interval;
  };
  const Case cases[] = {{"configs/fast-testbed.json", 0},
                        {"configs/experiments/pc-join-fair.json", 0},
                        {"configs/experiments/pc-join-fair.json", 1},
                        {"configs/quick-vegas-cbr.json", 1},
                        {"configs/quick-vegas-cbr.json", 2}};
  const auto dir = temp_dir("predict-agree");
  for (const auto& c : cases) {
    const auto out = dir / std::filesystem::path(c.config).stem();
    if (!std::filesystem::exists(out / "summary.json"))
      REQUIRE(
          run_command(kBin + " run " + kSrc + "/" + c.config + " --predict --quiet --out " + out.string()).exit_code ==
          0);
    const auto s = nlohmann::json::parse(read_file(out / "summary.json"));
    const auto& flows = s["prediction"]["intervals"].at(c.interval)["flows"];
    REQUIRE(!flows.empty());
    for (const auto& f : flows) {
      INFO(c.config << " interval " << c.interval << " flow " << f["id"]);
      REQUIRE(f["relative_error"].is_number());
      CHECK(std::abs(f["relative_error"].get<double>()) < 0.03);
    }
  }
  // Vegas: the measured rates lie in the band of equilibria (not at its midpoint).
  const auto out = dir / "vegas-two-rtts";
  REQUIRE(run_command(kBin + " run " + kSrc + "/configs/vegas-two-rtts.json --predict --quiet --out " + out.string())
              .exit_code == 0);
  const auto s = nlohmann::json::parse(read_file(out / "summary.json"));
  for (const auto& f : s["prediction"]["intervals"].at(0)["flows"]) {
    INFO("vegas-two-rtts flow " << f["id"]);
    REQUIRE(f.contains("within_band"));
    CHECK(f["within_band"].get<bool>());
  }
  std::filesystem::remove_all(dir);
}
