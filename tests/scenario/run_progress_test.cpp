// fastsim run's progress line when stderr is not a terminal (a batch job's log, a pipe):
// plain lines only, never the carriage returns that redraw it on a terminal.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "../support/helpers.hpp"

namespace fs = std::filesystem;
using namespace fastsim;

TEST_CASE("fastsim run writes no carriage return into a log file", "[cli][progress]") {
  const fs::path dir = testing::temp_dir("run-progress");
  // B1's 1 Gb/s dumbbell for 90 s takes several seconds of wall time: past the 2 s after
  // which the progress line starts (the old code then wrote "\r[fastsim] ..." into the file).
  const std::string cmd =
      fmt::format("{} run {}/configs/bench/b1-reno-1G.json --out {} --set /duration=\\\"90s\\\" 2>{}", FASTSIM_BINARY,
                  FASTSIM_SOURCE_DIR, (dir / "out").string(), (dir / "stderr.log").string());
  REQUIRE(std::system(cmd.c_str()) == 0);
  const std::string log = testing::read_file(dir / "stderr.log");
  const auto summary = nlohmann::json::parse(testing::read_file(dir / "out" / "summary.json"));
  INFO("wall time " << summary.value("wall_time_s", 0.0) << " s; stderr: " << log);
  CHECK(log.find('\r') == std::string::npos);
  CHECK(log.find("[fastsim] done: 90 s simulated") != std::string::npos);
  // Whole lines, each a progress line (every 30 s of wall time) or the closing one.
  REQUIRE(!log.empty());
  CHECK(log.back() == '\n');
  for (size_t at = 0; at < log.size(); at = log.find('\n', at) + 1)
    CHECK(log.compare(at, 10, "[fastsim] ") == 0);
  fs::remove_all(dir);
}
