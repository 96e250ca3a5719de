// The table of congestion-control algorithms, by name. One explicit table in
// registry.cpp (self-registering statics in a static library are silently dropped
// by the linker).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "fastsim/cc/congestion_control.hpp"
#include "fastsim/cc/params.hpp"

namespace fastsim::cc {

/// A violated cross-parameter constraint: {parameter name, message}.
using ParamIssue = std::pair<std::string, std::string>;

struct AlgorithmInfo {
  std::string name;
  std::string summary;
  std::vector<ParamSpec> params;
  std::function<std::unique_ptr<CongestionControl>(const ParamValues&)> make;
  /// Constraints between parameters (ranges of single parameters are in `params`); may be empty.
  std::function<std::vector<ParamIssue>(const ParamValues&)> check;
};

/// All algorithms, in a fixed order.
const std::vector<AlgorithmInfo>& algorithms();
/// nullptr when unknown.
const AlgorithmInfo* find_algorithm(const std::string& name);
/// "reno, ..." for error messages.
std::string algorithm_names();

}  // namespace fastsim::cc
