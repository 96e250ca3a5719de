// `fastsim predict SCENARIO [--set ...] [--json]`: the predicted equilibrium of every
// interval of the scenario (predict/predict.hpp, docs/predict.md), as text or JSON.
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "fastsim/config/limits.hpp"
#include "fastsim/config/parse.hpp"
#include "fastsim/predict/predict.hpp"
#include "overrides.hpp"

namespace po = boost::program_options;

namespace fastsim::cli {

int cmd_predict(const std::vector<std::string>& args) {
  const char* usage =
      "usage: fastsim predict FILE [--set /json/pointer=value ...] [--unset /json/pointer ...]\n"
      "                       [--limit interval-flows=N] [--limit memory=VALUE] [--json]\n"
      "  the theory's equilibrium per interval of the scenario (docs/predict.md)";
  po::options_description opts("predict options");
  std::string file;
  std::vector<std::string> sets, unsets, limits;
  opts.add_options()("file", po::value(&file), "scenario file")(
      "set", po::value(&sets)->composing(), "override /json/pointer=value")("unset", po::value(&unsets)->composing(),
                                                                            "delete /json/pointer (before --set)")(
      "limit", po::value(&limits)->composing(),
      "interval-flows=N: the (interval, flow) entries to predict; memory=VALUE: the flows made from counts")(
      "json", "print JSON instead of tables");
  po::variables_map vm;
  if (auto rc = parse_options("predict", usage, args, opts, "file", vm))
    return *rc;
  if (file.empty()) {
    std::cerr << "fastsim predict: need a scenario FILE\n" << usage << "\n";
    return kUsage;
  }
  if (!overrides_ok("predict", sets, unsets))
    return kUsage;
  config::Limits scratch;
  for (const auto& l : limits) {
    if (auto error = config::set_limit(scratch, l)) {
      std::cerr << fmt::format("fastsim predict: {}\n", *error);
      return kUsage;
    }
  }
  try {
    // As `run` reads it, but without the run's resource estimate: nothing is simulated, and a
    // network too large to simulate is what a prediction is for. Only the flows' replicas
    // are bounded before they are made (by --limit memory, at 16 KiB each: 262 144 flows
    // by default), as the replicas themselves take memory.
    auto doc = config::load_json_file(file);
    apply_cli_overrides(doc, sets, unsets);
    config::Limits chosen;
    for (const auto& l : limits)
      (void)config::set_limit(chosen, l);  // checked above
    config::Scenario s = config::parse_scenario(doc, chosen);
    const predict::Prediction p = predict::predict(s);
    if (vm.count("json")) {
      std::cout << predict::to_json(p).dump(2) << "\n";
    } else {
      std::cout << fmt::format("{}: predicted equilibria (tolerance {:g}; docs/predict.md)\n", file, p.tolerance)
                << predict::format_text(p);
    }
    return kOk;
  } catch (const config::ScenarioError& e) {
    print_issues(e, file);
    return kBadScenario;
  } catch (const std::exception& e) {
    std::cerr << fmt::format("{}: {}\n", file, e.what());
    return kBadScenario;
  }
}

}  // namespace fastsim::cli
