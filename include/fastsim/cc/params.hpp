// Typed algorithm parameters: each algorithm publishes a list of
// {name, default, min, max, unit, help}; the scenario's "params" object is checked
// against it once, and `fastsim algorithms` prints the same list.
// A parameter with `choices` is a string option (e.g. FAST's base_rtt_correction): the
// scenario gives one of the strings, the algorithm reads it back as that string
// (ParamValues::choice) and maps it to its own enum.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace fastsim::cc {

struct ParamSpec {
  ParamSpec() = default;
  ParamSpec(std::string n, double def, double lo, double hi, std::string u, std::string h)
      : name(std::move(n)), default_value(def), min(lo), max(hi), unit(std::move(u)), help(std::move(h)) {}

  std::string name;
  double default_value = 0;  ///< numbers only (a string option's default is choices.front())
  double min = 0;            ///< numbers only
  double max = 0;            ///< numbers only
  std::string unit;
  std::string help;
  std::vector<std::string> choices;  ///< non-empty: a string option, one of these
};

/// A numeric parameter in seconds (unit "s"): a scenario may give it as a duration
/// ("10ms") or as a number of seconds.
inline bool is_duration_param(const ParamSpec& s) {
  return s.choices.empty() && s.unit == "s";
}

/// A switch (unit "0 or 1"): a scenario gives true or false, as every switch of a
/// scenario (the numbers 0 and 1 are errors); held as 0 or 1.
inline bool is_switch_param(const ParamSpec& s) {
  return s.choices.empty() && s.unit == "0 or 1";
}

/// A string-option parameter; its default is the first choice.
inline ParamSpec choice_param(std::string name, std::vector<std::string> choices, std::string help) {
  ParamSpec s(std::move(name), 0, 0, 0, "", std::move(help));
  s.choices = std::move(choices);
  return s;
}

/// Resolved parameter values (every spec'd name present, defaults filled in): a number
/// per numeric parameter, a string per string option. Copies share one table until one
/// of them is written (copy on write): the `count` replicas of a scenario flow hold one
/// table between them, not a pair of maps each (10 000 flows: 2.2 MB).
class ParamValues {
 public:
  /// Every parameter of `specs` at its default.
  static ParamValues defaults(const std::vector<ParamSpec>& specs) {
    ParamValues v;
    for (const auto& s : specs) {
      if (s.choices.empty()) {
        v.set(s.name, s.default_value);
      } else {
        v.set_choice(s.name, s.choices.front());
      }
    }
    return v;
  }

  void set(const std::string& name, double v) { own().values[name] = v; }
  /// Precondition: `choice` is one of the parameter's choices.
  void set_choice(const std::string& name, std::string choice) { own().choices[name] = std::move(choice); }
  /// A numeric parameter. Precondition: `name` is one of the algorithm's numeric specs
  /// (std::out_of_range otherwise).
  [[nodiscard]] double get(const std::string& name) const { return table().values.at(name); }
  /// A string option. Precondition: `name` is one of the algorithm's string options
  /// (std::out_of_range otherwise).
  [[nodiscard]] const std::string& choice(const std::string& name) const { return table().choices.at(name); }
  [[nodiscard]] bool empty() const { return !table_ || (table_->values.empty() && table_->choices.empty()); }
  /// Whether this value and `other` read the same table (tests: copies share until written).
  [[nodiscard]] bool shares_table_with(const ParamValues& other) const { return table_ && table_ == other.table_; }

 private:
  struct Table {
    std::map<std::string, double> values;
    std::map<std::string, std::string> choices;
  };
  [[nodiscard]] const Table& table() const {
    static const Table kEmpty;
    return table_ ? *table_ : kEmpty;
  }
  /// The table this value may write: its own, copied first if another value shares it.
  Table& own() {
    if (!table_)
      table_ = std::make_shared<Table>();
    else if (table_.use_count() > 1)
      table_ = std::make_shared<Table>(*table_);
    return *table_;
  }

  std::shared_ptr<Table> table_;
};

}  // namespace fastsim::cc
