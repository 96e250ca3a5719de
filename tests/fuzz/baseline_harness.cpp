// Fuzz harness: regression baselines (sweep::parse_baseline, what fastsim check reads),
// then each entry's "set" overrides on a small scenario and each metric pointer looked up
// in a small summary with its band.
#include <cmath>

#include "fastsim/config/parse.hpp"
#include "fastsim/sweep/check.hpp"
#include "harness_common.hpp"

namespace fastsim::fuzz {

using nlohmann::json;

void baseline_input(const uint8_t* data, size_t size) {
  const auto doc = to_json(data, size);
  if (!doc)
    return;
  static const json summary = json::parse(R"({"intervals": [{"jain": 0.98, "utilization": 0.9}],
    "links": [{"id": "bottleneck", "utilization": 0.95}], "flows": [{"id": "a", "goodput_bps": 4.5e6}]})");
  try {
    const sweep::Baseline b = sweep::parse_baseline(*doc, "/nonexistent");
    require(!b.scenarios.empty(), "a baseline without scenarios was accepted");
    for (const auto& s : b.scenarios) {
      try {
        json scenario = small_scenario();
        config::apply_overrides(scenario, s.sets);
        (void)config::parse_scenario(scenario);
      } catch (const config::ScenarioError& e) {
        check_rejection(e);
      }
      for (const auto& m : s.metrics) {
        const auto v = sweep::metric_value(summary, m.metric);
        const auto [lo, hi] = sweep::band(m);
        require(!(lo > hi), "a band whose low end is above its high end");
        if (v && std::isfinite(*v) && *v >= lo && *v <= hi)
          require(sweep::passes(m, v), "a value inside the band fails");
      }
    }
  } catch (const config::ScenarioError& e) {
    check_rejection(e);
  }
}

}  // namespace fastsim::fuzz
