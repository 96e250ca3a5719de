// The fastsim subcommands and their shared exit codes: 0 success, 1 invalid scenario
// (or sweep spec, baseline, a folder that is not a sweep), 2 usage error, 3 failure
// while running or writing outputs (collect: an unusable run), 4 a regression check
// found a metric outside its band.
#pragma once

#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "fastsim/config/errors.hpp"

namespace fastsim::cli {

constexpr int kOk = 0, kBadScenario = 1, kUsage = 2, kRunFailed = 3, kCheckFailed = 4;

/// Parses a subcommand's options, the one positional argument being the option named
/// `positional`; on an error prints it with the options and returns false.
bool parse_options(const char* cmd, const std::vector<std::string>& args,
                   boost::program_options::options_description& opts, const char* positional,
                   boost::program_options::variables_map& vm);

/// Prints every issue as "file: /path: message" on stderr.
void print_issues(const config::ScenarioError& e, const std::string& file);

int cmd_sweep(const std::vector<std::string>& args);
int cmd_sweep_task(const std::vector<std::string>& args);
int cmd_collect(const std::vector<std::string>& args);
int cmd_check(const std::vector<std::string>& args);
int cmd_predict(const std::vector<std::string>& args);
/// The --set arguments' form check of `run` (main.cpp), for the other subcommands.
bool set_args_ok(const std::string& cmd, const std::vector<std::string>& sets);

}  // namespace fastsim::cli
