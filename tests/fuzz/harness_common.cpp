// Shared harness helpers (see harness_common.hpp) and the harness table.
#include "harness_common.hpp"

#include "fastsim/config/parse.hpp"

namespace fastsim::fuzz {

using nlohmann::json;

std::optional<json> to_json(const uint8_t* data, size_t size) {
  try {
    return config::parse_json_text(std::string(reinterpret_cast<const char*>(data), size), "fuzz input");
  } catch (const config::ScenarioError& e) {
    check_rejection(e);
    return std::nullopt;
  }
}

void check_rejection(const config::ScenarioError& e) {
  require(!e.issues().empty(), "a ScenarioError without issues");
  for (const auto& i : e.issues())
    require(!i.message.empty(), "an issue without a message at " + i.path);
}

const json& small_scenario() {
  static const json s = json::parse(R"({"name": "fuzz", "duration": "1s", "seed": 1,
    "topology": {"dumbbell": {"bottleneck": {"rate": "10Mbps", "delay": "1ms", "buffer": "100pkt"},
                              "access": {"rate": "1Gbps", "buffer": "1000pkt"}}},
    "flows": [{"id": "a", "rtt": "20ms"}, {"id": "b", "rtt": "40ms", "cc": "cubic"}]})");
  return s;
}

Harness harness(const std::string& name) {
  if (name == "scenario")
    return &scenario_input;
  if (name == "sweep_spec")
    return &sweep_spec_input;
  if (name == "baseline")
    return &baseline_input;
  if (name == "run")
    return &run_input;
  return nullptr;
}

}  // namespace fastsim::fuzz
