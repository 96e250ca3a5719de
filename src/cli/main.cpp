// fastsim command-line interface: run, validate, algorithms, and the sweep commands
// (sweep_commands.cpp). The only code that talks to the terminal. Exit codes in
// commands.hpp.
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <system_error>
#include <variant>
#include <vector>

#include <fmt/format.h>
#include <boost/program_options.hpp>

#include "commands.hpp"
#include "fastsim/cc/registry.hpp"
#include "fastsim/config/parse.hpp"
#include "fastsim/config/scenario_keys.hpp"
#include "fastsim/config/suggest.hpp"
#include "fastsim/config/units.hpp"
#include "fastsim/core/huge_pages.hpp"
#include "fastsim/run/experiment.hpp"
#include "fastsim/run/resource_estimate.hpp"
#include "fastsim/tcp/stack_profile.hpp"
#include "fastsim/tcp/tcp_settings.hpp"
#include "int_option.hpp"
#include "overrides.hpp"
#include "terminal_reporter.hpp"

namespace po = boost::program_options;
using fastsim::config::ScenarioError;
using namespace fastsim::cli;

void fastsim::cli::print_issues(const ScenarioError& e, const std::string& file) {
  for (const auto& i : e.issues())
    std::cerr << fmt::format("{}: {}\n", file, i.to_string());
}

namespace {
int g_signal_to_reraise = 0;
}

int fastsim::cli::reraise_after_exit(int signal) {
  g_signal_to_reraise = signal;
  return 128 + signal;
}

int fastsim::cli::signal_to_reraise() {
  return g_signal_to_reraise;
}

namespace {

const char* kUsageText =
    "usage: fastsim <command> [options]\n"
    "\n"
    "commands:\n"
    "  run FILE --out DIR [--seed N] [--set /json/pointer=value ...] [--unset /json/pointer ...]\n"
    "      [--limit NAME=VALUE ...] [--quiet] [--predict]\n"
    "                      simulate a scenario; write traces and summary.json to DIR\n"
    "  validate FILE [--set /json/pointer=value ...] [--unset /json/pointer ...] [--limit NAME=VALUE ...]\n"
    "                      check a scenario and report every problem with its JSON path;\n"
    "                      print the run's estimated packets, trace bytes, memory, open files\n"
    "                      (limits: memory, trace-bytes, packets, interval-flows; docs/limits.md)\n"
    "  algorithms [--json] list algorithms, their parameters, TCP settings per stack, link queues\n"
    "  sweep SPEC --out DIR [--backend local|slurm] [--jobs N] [--run-timeout S] [--dry-run] [--resume]\n"
    "        [--pack K] [--throttle N] [--partition P] [--time T] [--mem M] [--account A] [--sbatch LINE]\n"
    "        [--max-array-size N] [--max-runs N] [--limit NAME=VALUE ...]\n"
    "        [--set /json/pointer=value ...] [--unset /json/pointer ...] [--quiet]\n"
    "                      run a grid/zip of scenarios x replications (docs/sweeps.md)\n"
    "  collect DIR         write runs.csv, flows.csv, aggregate.csv and aggregate_flows.csv of a sweep\n"
    "  check BASELINE [--results DIR] [--update] [--replications N] [--jobs N] [--quiet]\n"
    "                      run a regression baseline; exit 4 if a metric leaves its band\n"
    "  schema              print the JSON Schema of scenario files (docs/scenario-format.md)\n"
    "  predict FILE [--set /json/pointer=value ...] [--unset /json/pointer ...]\n"
    "               [--limit interval-flows=N|memory=VALUE] [--json]\n"
    "                      the theory's equilibrium per interval (docs/predict.md)\n"
    "  --version           print the version\n"
    "  --help              print this help (COMMAND --help or help COMMAND: that command's options)\n";

/// Checks every --limit NAME=VALUE; prints the problem and returns false on a bad one.
bool limits_ok(const std::string& cmd, const std::vector<std::string>& limits) {
  fastsim::config::Limits scratch;
  for (const auto& l : limits) {
    if (auto error = fastsim::config::set_limit(scratch, l)) {
      std::cerr << fmt::format("fastsim {}: {}\n", cmd, *error);
      return false;
    }
    if (l.starts_with("sweep-")) {
      std::cerr << fmt::format("fastsim {}: --limit {}: bounds a sweep's runs together (fastsim sweep only)\n", cmd,
                               l.substr(0, l.find('=')));
      return false;
    }
  }
  return true;
}

/// The scenario with its limits, refused (ScenarioError) if its estimated cost exceeds them.
fastsim::config::Scenario load(const std::string& file, const std::vector<std::string>& sets,
                               const std::vector<std::string>& unsets, const std::optional<uint64_t>& seed,
                               const std::vector<std::string>& limits) {
  auto doc = fastsim::config::load_json_file(file);
  // The other JSON inputs of fastsim, given where a scenario belongs: say what they are.
  if (doc.is_object() && !doc.contains("topology")) {
    if (doc.contains("base") && (doc.contains("grid") || doc.contains("zip") || doc.contains("replications"))) {
      throw ScenarioError(fastsim::config::Issues{
          {"", "this is a sweep spec (\"base\" and \"grid\"), not a scenario: check it with fastsim sweep FILE "
               "--out DIR --dry-run, run it with fastsim sweep"}});
    }
    if (doc.contains("scenarios")) {
      throw ScenarioError(fastsim::config::Issues{
          {"", "this is a regression baseline (\"scenarios\"), not a scenario: run it with fastsim check FILE"}});
    }
  }
  apply_cli_overrides(doc, sets, unsets);
  if (seed && doc.is_object())
    doc["seed"] = *seed;
  fastsim::config::Limits chosen;
  for (const auto& l : limits)
    (void)fastsim::config::set_limit(chosen, l);  // checked by limits_ok()
  auto s = fastsim::config::parse_scenario(doc, chosen);
  fastsim::run::enforce_limits(s);
  return s;
}

int cmd_validate(const std::vector<std::string>& args) {
  po::options_description opts("validate options");
  std::string file;
  std::vector<std::string> sets, unsets, limits;
  opts.add_options()("file", po::value(&file), "scenario file")(
      "set", po::value(&sets)->composing(), "override /json/pointer=value")("unset", po::value(&unsets)->composing(),
                                                                            "delete /json/pointer (before --set)")(
      "limit", po::value(&limits)->composing(), "raise a resource limit NAME=VALUE (docs/limits.md)");
  po::variables_map vm;
  const char* usage =
      "usage: fastsim validate FILE [--set /json/pointer=value ...] [--unset /json/pointer ...] [--limit NAME=VALUE "
      "...]\n"
      "  check a scenario, report every problem with its JSON path, print the run's estimated cost";
  if (auto rc = parse_options("validate", usage, args, opts, "file", vm))
    return *rc;
  if (file.empty()) {
    std::cerr << usage << "\n";
    return kUsage;
  }
  if (!overrides_ok("validate", sets, unsets) || !limits_ok("validate", limits))
    return kUsage;
  try {
    auto s = load(file, sets, unsets, std::nullopt, limits);
    std::cout << fmt::format("{}: ok ({} flows, {} links, {:.9g} s)\n", file, s.flows.size(), s.links.size(),
                             s.duration.to_seconds());
    std::cout << fmt::format("estimate: {}\n", fastsim::run::describe(fastsim::run::estimate_resources(s)));
    return kOk;
  } catch (const ScenarioError& e) {
    print_issues(e, file);
    return kBadScenario;
  } catch (const std::exception& e) {  // never abort on a surprise from a library
    std::cerr << fmt::format("{}: {}\n", file, e.what());
    return kBadScenario;
  }
}

/// A TCP setting's value in `c` as a scenario writes it.
std::string setting_value(const fastsim::tcp::TcpSetting& s, const fastsim::tcp::TcpConfig& c) {
  using fastsim::tcp::TcpConfig;
  struct Format {
    const fastsim::tcp::TcpSetting& s;
    const TcpConfig& c;
    std::string operator()(bool TcpConfig::*m) const { return c.*m ? "true" : "false"; }
    std::string operator()(fastsim::Duration TcpConfig::*m) const { return fastsim::config::format_duration(c.*m); }
    std::string operator()(double TcpConfig::*m) const {
      return s.unlimited_from != 0 && c.*m >= s.unlimited_from ? "infinite" : fmt::format("{}", c.*m);
    }
    std::string operator()(uint32_t TcpConfig::*m) const { return fmt::format("{}", c.*m); }
    std::string operator()(uint64_t TcpConfig::*m) const { return c.*m == 0 ? "unlimited" : fmt::format("{}", c.*m); }
  };
  return std::visit(Format{s, c}, s.member);
}

/// The same as a JSON value: true/false, a number, or a string where the scenario writes
/// one ("200ms", "infinite", "unlimited").
nlohmann::json setting_json(const fastsim::tcp::TcpSetting& s, const fastsim::tcp::TcpConfig& c) {
  if (const auto* b = std::get_if<bool fastsim::tcp::TcpConfig::*>(&s.member))
    return c.**b;
  if (const auto* d = std::get_if<double fastsim::tcp::TcpConfig::*>(&s.member);
      d != nullptr && !(s.unlimited_from != 0 && c.**d >= s.unlimited_from))
    return c.**d;
  if (const auto* u = std::get_if<uint32_t fastsim::tcp::TcpConfig::*>(&s.member))
    return c.**u;
  return setting_value(s, c);
}

/// The TCP settings (name, unit, range, value per stack, help) as JSON.
nlohmann::json tcp_settings_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& s : fastsim::tcp::tcp_settings()) {
    nlohmann::json by_stack = nlohmann::json::object();
    for (fastsim::tcp::Stack st : fastsim::tcp::kStacks)
      by_stack[std::string(fastsim::tcp::stack_name(st))] = setting_json(s, fastsim::tcp::stack_config(st));
    nlohmann::json e = {{"name", s.name},
                        {"default", by_stack[std::string(fastsim::tcp::stack_name(fastsim::tcp::kDefaultStack))]},
                        {"unit", s.unit},
                        {"help", s.help},
                        {"stack_defaults", by_stack}};
    if (s.min != 0 || s.max != 0) {
      e["min"] = s.min;
      e["max"] = s.max;
    }
    out.push_back(std::move(e));
  }
  return out;
}

/// The link queue models with their keys, as JSON.
nlohmann::json link_queues_json() {
  nlohmann::json out = nlohmann::json::array();
  out.push_back({{"name", "drop-tail"},
                 {"help", "the default: a FIFO holding \"buffer\" packets or bytes, the arriving packet dropped"},
                 {"keys", nlohmann::json::array()}});
  for (const char* name : {"red", "marking", "queue", "dummynet"}) {
    const auto& o = fastsim::config::object_spec(name);
    nlohmann::json keys = nlohmann::json::array();
    for (const auto* k : fastsim::config::object_keys(o)) {
      keys.push_back({{"name", k->name}, {"help", k->help}, {"required", k->required}});
      if (!k->choices.empty())
        keys.back()["choices"] = k->choices;
    }
    out.push_back({{"name", name}, {"help", o.help}, {"keys", keys}});
  }
  return out;
}

/// A parameter's default under every stack profile (the algorithm's own where no row).
nlohmann::json param_stack_defaults(const fastsim::cc::AlgorithmInfo& a, const fastsim::cc::ParamSpec& p) {
  nlohmann::json out = nlohmann::json::object();
  for (fastsim::tcp::Stack st : fastsim::tcp::kStacks) {
    fastsim::cc::ParamValues v = fastsim::cc::ParamValues::defaults(a.params);
    fastsim::tcp::apply_stack_params(st, a.name, v);
    const std::string name(fastsim::tcp::stack_name(st));
    if (fastsim::cc::is_switch_param(p)) {
      out[name] = v.get(p.name) != 0;  // a scenario writes a switch as true or false
    } else if (p.choices.empty()) {
      out[name] = v.get(p.name);
    } else {
      out[name] = v.choice(p.name);
    }
  }
  return out;
}

/// The TCP settings with their value under each stack profile.
void print_tcp_settings() {
  std::cout << fmt::format(
      "\nTCP settings (\"defaults\" or per flow; \"stack\" picks a profile, default {}; "
      "explicit settings override it)\n",
      fastsim::tcp::stack_name(fastsim::tcp::kDefaultStack));
  std::cout << fmt::format("  {:<20} {:<10} {:<10} {:<10} {}\n", "setting", "rfc", "linux", "ns2", "meaning");
  const fastsim::tcp::TcpConfig rfc = fastsim::tcp::stack_config(fastsim::tcp::Stack::kRfc);
  const fastsim::tcp::TcpConfig lnx = fastsim::tcp::stack_config(fastsim::tcp::Stack::kLinux);
  const fastsim::tcp::TcpConfig ns2 = fastsim::tcp::stack_config(fastsim::tcp::Stack::kNs2);
  for (const auto& s : fastsim::tcp::tcp_settings()) {
    std::cout << fmt::format("  {:<20} {:<10} {:<10} {:<10} {}\n", s.name, setting_value(s, rfc), setting_value(s, lnx),
                             setting_value(s, ns2), s.help);
  }
}

/// The queue models a link can have, with their keys (from the scenario-key table).
void print_link_queues() {
  std::cout << "\nLink queues (keys of a topology link; docs/scenario-format.md, docs/model.md)\n";
  std::cout << fmt::format("  {:<10} {}\n", "drop-tail",
                           "the default: a FIFO holding \"buffer\" packets or bytes, the arriving packet dropped");
  for (const char* name : {"red", "marking", "queue", "dummynet"}) {
    const auto& o = fastsim::config::object_spec(name);
    std::cout << fmt::format("  {:<10} {}\n", name, o.help);
    for (const auto* k : fastsim::config::object_keys(o)) {
      const std::string choices = k->choices.empty() ? "" : fmt::format(" ({})", fmt::join(k->choices, "|"));
      std::cout << fmt::format("    {:<18} {}{}\n", k->name, k->help, choices);
    }
  }
}

int cmd_algorithms(const std::vector<std::string>& args) {
  po::options_description opts("algorithms options");
  opts.add_options()("json", "print the listing as JSON");
  po::variables_map vm;
  const char* usage =
      "usage: fastsim algorithms [--json]\n"
      "  list congestion-control algorithms, their parameters, the TCP settings per stack and the link queues";
  if (auto rc = parse_options("algorithms", usage, args, opts, nullptr, vm))
    return *rc;
  const bool as_json = vm.count("json") > 0;
  if (as_json) {
    nlohmann::json algorithms = nlohmann::json::array();
    for (const auto& a : fastsim::cc::algorithms()) {
      nlohmann::json params = nlohmann::json::array();
      for (const auto& p : a.params) {
        const nlohmann::json by_stack = param_stack_defaults(a, p);
        params.push_back({{"name", p.name},
                          {"default", by_stack[std::string(fastsim::tcp::stack_name(fastsim::tcp::kDefaultStack))]},
                          {"min", p.min},
                          {"max", p.max},
                          {"unit", p.unit},
                          {"help", p.help},
                          {"stack_defaults", by_stack}});
        if (!p.choices.empty()) {
          params.back()["choices"] = p.choices;
          params.back().erase("min");
          params.back().erase("max");
        } else if (fastsim::cc::is_switch_param(p)) {  // true or false, never 0 or 1 (as in a scenario)
          params.back()["choices"] = {true, false};
          params.back()["unit"] = "";
          params.back().erase("min");
          params.back().erase("max");
        }
      }
      algorithms.push_back({{"name", a.name}, {"summary", a.summary}, {"params", params}});
    }
    const nlohmann::json out = {{"default_stack", fastsim::tcp::stack_name(fastsim::tcp::kDefaultStack)},
                                {"algorithms", algorithms},
                                {"tcp_settings", tcp_settings_json()},
                                {"link_queues", link_queues_json()}};
    std::cout << out.dump(2) << "\n";
    return kOk;
  }
  for (const auto& a : fastsim::cc::algorithms()) {
    std::cout << fmt::format("{}\n  {}\n", a.name, a.summary);
    if (a.params.empty())
      std::cout << "  (no parameters)\n";
    for (const auto& p : a.params) {
      // "default" is the value under the default stack; other stacks' follow when they differ.
      const nlohmann::json by_stack = param_stack_defaults(a, p);
      const nlohmann::json& by_default = by_stack[std::string(fastsim::tcp::stack_name(fastsim::tcp::kDefaultStack))];
      if (!p.choices.empty()) {
        std::cout << fmt::format("  {:<18} default {:<10} one of {:<13} {}\n", p.name, by_default.get<std::string>(),
                                 fmt::format("{}", fmt::join(p.choices, "|")), p.help);
      } else if (fastsim::cc::is_switch_param(p)) {  // written true or false, never 0 or 1
        std::cout << fmt::format("  {:<18} default {:<10} true or false {:<12} {}\n", p.name,
                                 by_default.get<bool>() ? "true" : "false", "", p.help);
      } else {
        std::cout << fmt::format("  {:<18} default {:<10} range [{}, {}] {:<12} {}\n", p.name, by_default.get<double>(),
                                 p.min, p.max, p.unit, p.help);
      }
      if (by_stack["rfc"] != by_stack["linux"] || by_stack["rfc"] != by_stack["ns2"])
        std::cout << fmt::format("  {:<18} (stack defaults: rfc {}, linux {}, ns2 {})\n", "", by_stack["rfc"].dump(),
                                 by_stack["linux"].dump(), by_stack["ns2"].dump());
    }
  }
  print_tcp_settings();
  print_link_queues();
  return kOk;
}

int cmd_run(const std::vector<std::string>& args) {
  po::options_description opts("run options");
  std::string file, out;
  std::vector<std::string> sets, unsets, limits;
  int64_t seed = -1;
  opts.add_options()("file", po::value(&file), "scenario file")("out", po::value(&out), "output directory")(
      "seed", int_in_range(&seed, "seed", 0, INT64_MAX), "override the scenario seed")(
      "set", po::value(&sets)->composing(), "override /json/pointer=value")("unset", po::value(&unsets)->composing(),
                                                                            "delete /json/pointer (before --set)")(
      "limit", po::value(&limits)->composing(), "raise a resource limit NAME=VALUE (docs/limits.md)")(
      "quiet,q", "no progress line")("predict", "add the predicted equilibria to summary.json (docs/predict.md)");
  po::variables_map vm;
  const char* usage =
      "usage: fastsim run FILE --out DIR [--seed N] [--set /json/pointer=value ...] [--unset /json/pointer ...]\n"
      "                   [--limit NAME=VALUE ...] [--quiet] [--predict]\n"
      "  simulate a scenario; write traces and summary.json to DIR";
  if (auto rc = parse_options("run", usage, args, opts, "file", vm))
    return *rc;
  if (file.empty() || out.empty()) {
    std::cerr << "fastsim run: need a scenario FILE and --out DIR\n" << usage << "\n";
    return kUsage;
  }
  if (!overrides_ok("run", sets, unsets) || !limits_ok("run", limits))
    return kUsage;
  if (std::error_code ec; std::filesystem::exists(out, ec) && !std::filesystem::is_directory(out, ec)) {
    std::cerr << fmt::format("fastsim run: --out {}: exists and is not a folder\n", out);
    return kUsage;
  }
  const bool quiet = vm.count("quiet") > 0;
  std::optional<fastsim::config::Scenario> scenario;
  try {
    scenario = load(file, sets, unsets, seed >= 0 ? std::optional<uint64_t>(static_cast<uint64_t>(seed)) : std::nullopt,
                    limits);
  } catch (const ScenarioError& e) {
    print_issues(e, file);
    return kBadScenario;
  } catch (const std::exception& e) {
    std::cerr << fmt::format("{}: {}\n", file, e.what());
    return kBadScenario;
  }
  try {
    fastsim::run::Experiment exp(std::move(*scenario));  // it releases what only the build reads
    fastsim::run::RunOptions options;
    options.out_dir = out;
    options.predict = vm.count("predict") > 0;
    const auto wall_start = std::chrono::steady_clock::now();
    double last_print = 0;
    const double total = exp.scenario().duration.to_seconds();
    // On a terminal the progress line is redrawn in place every half second; into a file
    // or a pipe (a batch job's log) it is a plain line every 30 s, no carriage returns.
    TerminalReporter reporter(quiet);
    const double print_every_s = reporter.terminal() ? 0.5 : 30.0;
    if (!quiet) {
      options.on_progress = [&](double sim_s, uint64_t events) {
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
        if (wall < 2.0 || wall - last_print < print_every_s)
          return;
        last_print = wall;
        reporter.progress(fmt::format("[fastsim] {:.1f}/{:.0f} s simulated ({:.0f}%), {:.1f} M events/s, {:.0f} s wall",
                                      sim_s, total, 100.0 * sim_s / total, static_cast<double>(events) / wall / 1e6,
                                      wall));
      };
    }
    const auto& r = exp.run(options);
    reporter.finish();
    if (!quiet) {
      std::cerr << fmt::format("[fastsim] done: {} s simulated in {:.2f} s wall, {} events, {} data packets -> {}\n",
                               r.sim_time_s, r.wall_time_s, r.events, r.data_packets_delivered, out);
    }
  } catch (const std::exception& e) {
    std::cerr << "fastsim run: failed: " << e.what() << "\n";
    return kRunFailed;
  }
  return kOk;
}

/// Runs subcommand `cmd`; nullopt if there is none of that name.
std::optional<int> dispatch(const std::string& cmd, const std::vector<std::string>& args) {
  if (cmd == "run")
    return cmd_run(args);
  if (cmd == "validate")
    return cmd_validate(args);
  if (cmd == "algorithms")
    return cmd_algorithms(args);
  if (cmd == "sweep")
    return cmd_sweep(args);
  if (cmd == "collect")
    return cmd_collect(args);
  if (cmd == "check")
    return cmd_check(args);
  if (cmd == "sweep-task")  // what a SLURM array task runs
    return cmd_sweep_task(args);
  if (cmd == "schema")
    return cmd_schema(args);
  if (cmd == "predict")
    return cmd_predict(args);
  return std::nullopt;
}

/// The commands a user types (for suggestions).
const std::vector<std::string> kCommands = {"run",     "validate", "algorithms", "sweep",
                                            "collect", "check",    "schema",     "predict"};

int unknown_command(const std::string& cmd) {
  std::cerr << fmt::format("fastsim: unknown command \"{}\"{}\n", cmd, fastsim::config::did_you_mean(cmd, kCommands))
            << kUsageText;
  return kUsage;
}

}  // namespace

int main(int argc, char** argv) {
  const char* huge_pages = std::getenv("FASTSIM_HUGE_PAGES");
  const auto use_huge_pages = fastsim::parse_huge_pages_setting(huge_pages);
  if (!use_huge_pages) {
    std::cerr << fmt::format("fastsim: environment variable FASTSIM_HUGE_PAGES=\"{}\" is not one of {}\n", huge_pages,
                             fastsim::kHugePagesValues);
    return kUsage;
  }
  if (*use_huge_pages)
    fastsim::back_heap_with_huge_pages();  // before the scenario's allocations
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::cerr << kUsageText;
    return kUsage;
  }
  const std::string cmd = args[0];
  args.erase(args.begin());
  if (cmd == "help" && args.size() == 1) {  // help COMMAND: COMMAND --help
    const auto rc = dispatch(args[0], {"--help"});
    return rc ? *rc : unknown_command(args[0]);
  }
  if ((cmd == "--version" || cmd == "version" || cmd == "--help" || cmd == "-h" || cmd == "help") && !args.empty()) {
    std::cerr << fmt::format("fastsim {}: takes no arguments\n", cmd);
    return kUsage;
  }
  if (cmd == "--version" || cmd == "version") {
    std::cout << "fastsim " << FASTSIM_VERSION << "\n";
    return kOk;
  }
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    std::cout << kUsageText;
    return kOk;
  }
  const auto rc = dispatch(cmd, args);
  if (const int sig = fastsim::cli::signal_to_reraise(); sig != 0) {
    std::signal(sig, SIG_DFL);
    std::raise(sig);
  }
  return rc ? *rc : unknown_command(cmd);
}
