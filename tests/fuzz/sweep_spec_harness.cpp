// Fuzz harness: sweep specs (sweep::parse_sweep_spec and expand). A base given as a file
// path is skipped (it would read whatever file the input names); inline bases are parsed.
#include "fastsim/config/errors.hpp"
#include "fastsim/sweep/sweep_spec.hpp"
#include "harness_common.hpp"

namespace fastsim::fuzz {

using nlohmann::json;

void sweep_spec_input(const uint8_t* data, size_t size) {
  const auto doc = to_json(data, size);
  if (!doc || (doc->is_object() && doc->contains("base") && (*doc)["base"].is_string()))
    return;
  try {
    const sweep::SweepSpec spec = sweep::parse_sweep_spec(*doc, "/nonexistent");
    double runs = static_cast<double>(spec.replications);  // keep each input fast
    for (const auto& p : spec.grid)
      runs *= static_cast<double>(p.values.size());
    if (!spec.zip.empty())
      runs *= static_cast<double>(spec.zip.front().values.size());
    if (runs > 64)
      return;
    const auto plan = sweep::expand(spec, "fuzz");
    require(plan.size() == static_cast<size_t>(runs), "expand gave a different number of runs than the spec");
    for (const auto& r : plan)
      require(r.id.size() == 16, "a run id that is not 16 hex digits");
  } catch (const config::ScenarioError& e) {
    check_rejection(e);
  }
}

}  // namespace fastsim::fuzz
