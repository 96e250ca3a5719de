// Regression guard for engine and speed work: a fixed scenario (tests/golden/scenario.json:
// six senders of different kinds, drops, random loss, a CBR flow) must reproduce the
// checked-in outputs in tests/golden/expected/ byte for byte. summary.json is compared
// without the fields that measure the engine rather than the model (wall time, peak RSS,
// event count), so that an optimization may change how many events a run takes but not
// a single metric or trace value.
// To accept an intended model change, rerun with FASTSIM_UPDATE_GOLDEN=1 and review the
// diff of tests/golden/expected/ in the commit.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "../support/helpers.hpp"

namespace fs = std::filesystem;
using fastsim::testing::read_file;
using fastsim::testing::run_command;

namespace {

/// Every output file; summary.json without the engine measurements, pretty-printed.
std::map<std::string, std::string> outputs(const fs::path& dir) {
  return fastsim::testing::run_outputs(dir, {"wall_time_s", "peak_rss_mb", "events", "events_per_data_packet"}, 1);
}

}  // namespace

TEST_CASE("a fixed scenario reproduces the checked-in outputs byte for byte", "[cli][determinism][golden]") {
  const fs::path golden = fs::path(FASTSIM_SOURCE_DIR) / "tests" / "golden";
  const fs::path out = fastsim::testing::temp_dir("golden");
  const auto run = run_command(std::string(FASTSIM_BINARY) + " run " + (golden / "scenario.json").string() + " --out " +
                               out.string() + " --quiet");
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  const auto produced = outputs(out);
  REQUIRE(produced.size() == 9);  // summary, 6 flow traces, 1 link trace, 1 UDP trace

  const fs::path expected_dir = golden / "expected";
  if (std::getenv("FASTSIM_UPDATE_GOLDEN") != nullptr) {
    fs::remove_all(expected_dir);
    for (const auto& [name, text] : produced) {
      fs::create_directories((expected_dir / name).parent_path());
      std::ofstream(expected_dir / name, std::ios::binary) << text;
    }
    WARN("rewrote " << expected_dir.string());
  }
  for (const auto& [name, text] : produced) {
    INFO("output file " << name << " differs from " << (expected_dir / name).string());
    CHECK(text == read_file(expected_dir / name));
  }
  CHECK(outputs(expected_dir).size() == produced.size());  // no expected file is missing a counterpart
  fs::remove_all(out);
}
