// Typed algorithm parameters: each algorithm publishes a list of
// {name, default, min, max, unit, help}; the scenario's "params" object is checked
// against it once, and `fastsim algorithms` prints the same list.
// A parameter with `choices` is a string option (e.g. FAST's base_rtt_correction):
// the scenario gives one of the strings, the value is its index in `choices`.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace fastsim::cc {

struct ParamSpec {
  ParamSpec() = default;
  ParamSpec(std::string n, double def, double lo, double hi, std::string u, std::string h)
      : name(std::move(n)), default_value(def), min(lo), max(hi), unit(std::move(u)), help(std::move(h)) {}

  std::string name;
  double default_value = 0;
  double min = 0;
  double max = 0;
  std::string unit;
  std::string help;
  std::vector<std::string> choices;  ///< non-empty: a string option, value = index
};

/// A string-option parameter (value = index into choices, default = first choice).
inline ParamSpec choice_param(std::string name, std::vector<std::string> choices, std::string help) {
  ParamSpec s(std::move(name), 0, 0, static_cast<double>(choices.size() - 1), "", std::move(help));
  s.choices = std::move(choices);
  return s;
}

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
