// The streamed summary (run/summary_writer.hpp) writes the bytes of the whole document
// (summary_json() dumped with an indent of 2), with its per-flow arrays held one element
// at a time: flows, intervals and completed flows, filled and empty.
#include <catch2/catch.hpp>

#include <iomanip>
#include <sstream>

#include <nlohmann/json.hpp>

#include "../support/helpers.hpp"
#include "fastsim/run/summary_writer.hpp"

using namespace fastsim;

TEST_CASE("the streamed summary.json has the bytes of the whole document", "[scenario][summary]") {
  const bool arrivals = GENERATE(false, true);
  const std::string extra =
      arrivals
          ? R"(, "arrivals": [{"id": "w", "rate": 20, "rtt": "40ms", "size": {"distribution": "fixed", "mean": "20kB"}}])"
          : "";
  const auto s = testing::scenario_from(
      R"({"name": "stream", "description": "a \"quoted\"\nline", "seed": 3, "duration": "3s", "sample_interval": "0.5s",
          "topology": {"dumbbell": {"bottleneck": {"rate": "20Mbps", "delay": "5ms", "buffer": "60pkt"},
                                    "access": {"rate": "1Gbps", "buffer": "1000pkt"}}},
          "flows": [{"id": "a", "rtt": "20ms", "count": 3}, {"id": "b", "algorithm": "cubic", "rtt": "60ms", "start": "1s"},
                    {"id": "c", "rtt": "30ms", "start": "2s"}])" +
      extra + "}");
  run::Experiment exp(s);
  const auto& r = exp.run();
  REQUIRE(r.intervals.size() >= 2);
  std::ostringstream whole;
  whole << std::setw(2) << exp.summary_json() << '\n';

  run::SummaryArrays arrays;
  const auto skeleton = run::summary_skeleton(s, r, FASTSIM_VERSION, arrays);
  CHECK(skeleton.at("flows").empty());  // held by the arrays, not the document
  CHECK(skeleton.at("intervals").empty());
  std::ostringstream streamed;
  run::write_summary(streamed, skeleton, arrays);
  CHECK(streamed.str() == whole.str());
  CHECK(whole.str().find(R"(a \"quoted\"\nline)") != std::string::npos);  // an escaped newline kept as is
  const auto parsed = nlohmann::json::parse(streamed.str());
  CHECK(parsed.at("flows").size() == 5);
  CHECK(parsed.at("completed_flows").empty() == !arrivals);
}
