// What a run will cost, estimated from the scenario alone before it runs (docs/limits.md):
// packets (about the events), bytes of trace files, peak memory and open files. Checked
// against the limits (config/limits.hpp) at validation, so a scenario that would exhaust
// memory or disk is refused with the estimate instead of failing (or thrashing) mid-run.
#pragma once

#include <cstdint>
#include <string>

#include "fastsim/config/errors.hpp"
#include "fastsim/config/scenario.hpp"

namespace fastsim::run {

struct ResourceEstimate {
  uint64_t packets = 0;       ///< packet transmissions over all links (about the events)
  uint64_t trace_bytes = 0;   ///< every trace CSV together
  uint64_t memory_bytes = 0;  ///< peak memory of the simulation and its results
  uint64_t open_files = 0;    ///< file descriptors the run holds at once
};

[[nodiscard]] ResourceEstimate estimate_resources(const config::Scenario& scenario);
/// One issue per limit of `scenario.limits` the estimate exceeds, naming the limit, its
/// value, the estimate and the option that raises it; empty when within every limit.
[[nodiscard]] config::Issues check_limits(const config::Scenario& scenario, const ResourceEstimate& estimate);
/// Throws config::ScenarioError with check_limits' issues if the scenario's estimate
/// exceeds any of its limits (`fastsim run`, `validate`, each point of a sweep, `check`).
void enforce_limits(const config::Scenario& scenario);
/// "packets ~N, trace files ~X MB, memory ~Y MB, open files N" for `fastsim validate`.
[[nodiscard]] std::string describe(const ResourceEstimate& estimate);

}  // namespace fastsim::run
