// fastsim schema: prints the JSON Schema of scenario files (config/schema.hpp).
#include <iostream>

#include <boost/program_options.hpp>

#include "commands.hpp"
#include "fastsim/config/schema.hpp"

namespace fastsim::cli {

int cmd_schema(const std::vector<std::string>& args) {
  boost::program_options::options_description opts("schema options");
  boost::program_options::variables_map vm;
  const char* usage =
      "usage: fastsim schema\n"
      "  print the JSON Schema (draft 2020-12) of scenario files, made from the tables the validator\n"
      "  reads; for editors (docs/scenario-format.md, \"Editor setup\")";
  if (auto rc = parse_options("schema", usage, args, opts, nullptr, vm))
    return *rc;
  std::cout << config::scenario_schema().dump(2) << "\n";
  std::cout.flush();
  return std::cout ? kOk : kRunFailed;
}

}  // namespace fastsim::cli
