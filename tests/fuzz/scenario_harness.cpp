// Fuzz harness: scenario validation (config::parse_scenario), from a whole file or from
// --set assignments applied to a valid scenario.
#include <sstream>

#include "fastsim/config/parse.hpp"
#include "harness_common.hpp"

namespace fastsim::fuzz {

using nlohmann::json;

void scenario_input(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::optional<json> doc;
  try {
    if (!text.empty() && text[0] == '/') {  // --set mode: one assignment per line
      std::vector<std::string> sets;
      std::istringstream lines(text);
      for (std::string line; std::getline(lines, line);)
        sets.push_back(line);
      doc = small_scenario();
      config::apply_overrides(*doc, sets);
    } else {
      doc = to_json(data, size);
      if (!doc)
        return;
    }
    const config::Scenario s = config::parse_scenario(*doc);
    require(s.duration.ps() > 0, "a scenario without a positive duration was accepted");
    require(!s.resolved.dump().empty(), "an empty resolved scenario");  // dump must not throw (UTF-8)
  } catch (const config::ScenarioError& e) {
    check_rejection(e);
  }
}

}  // namespace fastsim::fuzz
