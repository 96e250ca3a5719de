// The fastsim subcommands and their shared exit codes: 0 success, 1 invalid scenario
// (or sweep spec, baseline, a folder that is not a sweep), 2 usage error, 3 failure
// while running or writing outputs (collect: an unusable run), 4 a regression check
// found a metric outside its band.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "fastsim/config/errors.hpp"

namespace fastsim::cli {

constexpr int kOk = 0, kBadScenario = 1, kUsage = 2, kRunFailed = 3, kCheckFailed = 4;

/// Parses a subcommand's options plus --help/-h, the one positional argument (if
/// `positional` is not null) being the option of that name. Returns nullopt to go on, or
/// the exit code to return: kOk after --help (`usage` and the options printed on stdout),
/// kUsage after an error (printed with the usage and options on stderr).
std::optional<int> parse_options(const char* cmd, const char* usage, const std::vector<std::string>& args,
                                 boost::program_options::options_description& opts, const char* positional,
                                 boost::program_options::variables_map& vm);

/// Prints every issue as "file: /path: message" on stderr.
void print_issues(const config::ScenarioError& e, const std::string& file);

/// A command stopped by SIGINT or SIGTERM returns this after its locals are gone (a lock
/// released, a temporary folder removed): main then ends the process by `signal`, with its
/// default action, as the shell expects of an interrupted command (exit status 128 + N).
int reraise_after_exit(int signal);
/// The signal reraise_after_exit() was given, 0 if none.
int signal_to_reraise();

int cmd_sweep(const std::vector<std::string>& args);
int cmd_sweep_task(const std::vector<std::string>& args);
int cmd_collect(const std::vector<std::string>& args);
int cmd_check(const std::vector<std::string>& args);
int cmd_schema(const std::vector<std::string>& args);
int cmd_predict(const std::vector<std::string>& args);

}  // namespace fastsim::cli
