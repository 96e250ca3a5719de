// Typed algorithm parameters: each algorithm publishes a list of
// {name, default, min, max, unit, help}; the scenario's "params" object is checked
// against it once, and `fastsim algorithms` prints the same list.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace fastsim::cc {

struct ParamSpec {
  std::string name;
  double default_value = 0;
  double min = 0;
  double max = 0;
  std::string unit;
  std::string help;
};

/// Resolved parameter values (every spec'd name present, defaults filled in).
class ParamValues {
 public:
  void set(const std::string& name, double v) { values_[name] = v; }
  /// Precondition: `name` is one of the algorithm's specs.
  [[nodiscard]] double get(const std::string& name) const { return values_.at(name); }
  [[nodiscard]] const std::map<std::string, double>& all() const { return values_; }

 private:
  std::map<std::string, double> values_;
};

}  // namespace fastsim::cc
