// Window and queue convergence in intervals[] (docs/metrics.md): after a CBR flow halves
// the bandwidth left to a Vegas flow, its goodput settles at once (the bottleneck is shared
// by rate) while its window takes tens of seconds to shrink by one packet per RTT.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "../support/helpers.hpp"
#include "fastsim/config/parse.hpp"
#include "fastsim/run/experiment.hpp"

using namespace fastsim;

TEST_CASE("Vegas after the CBR start: goodput converges in about a second, window and queue take tens of seconds",
          "[scenario][vegas][metrics]") {
  std::ifstream in(std::string(FASTSIM_SOURCE_DIR) + "/configs/quick-vegas-cbr.json");
  auto j = nlohmann::json::parse(in);
  j["flows"][0]["algorithm"] = "vegas";
  // The stack settings this depends on, explicitly.
  j["defaults"].update(nlohmann::json{{"delayed_ack", false}, {"sack", false}, {"initial_window", 10}});
  const auto s = config::parse_scenario(j);
  run::Experiment exp(s);
  const auto& r = exp.run();
  REQUIRE(r.intervals.size() == 3);
  const auto& cbr = r.intervals[1];  // [80 s, 160 s): the CBR flow takes half the bottleneck
  REQUIRE(cbr.start_s == Approx(80));
  REQUIRE(cbr.convergence_s.has_value());
  REQUIRE(cbr.window_convergence_s.has_value());
  REQUIRE(cbr.queue_convergence_s.has_value());
  REQUIRE(cbr.flow_window_convergence_s.size() == 1);
  CHECK(*cbr.flow_window_convergence_s[0] == *cbr.window_convergence_s);
  WARN("after the CBR start: goodput " << *cbr.convergence_s << " s, window " << *cbr.window_convergence_s
                                       << " s, queue " << *cbr.queue_convergence_s << " s");
  CHECK(*cbr.convergence_s <= 2.0);
  // Vegas sheds one packet per RTT (0.1 s + queueing) from ~630 to ~315 packets: tens of
  // seconds (the Quick Vegas paper's Vegas halving time: 47.9 s).
  CHECK(*cbr.window_convergence_s >= 40.0);
  CHECK(*cbr.window_convergence_s <= 55.0);
  // The excess window sits in the bottleneck queue until the window has shrunk.
  CHECK(*cbr.queue_convergence_s >= 20.0);
  CHECK(*cbr.queue_convergence_s <= *cbr.window_convergence_s + 5.0);
}
