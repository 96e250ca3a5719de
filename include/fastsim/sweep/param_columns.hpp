// Numeric columns for a sweep's parameters in the tables of `fastsim collect`.
// A parameter whose string values all carry a unit of the scenario reader (config/units.hpp)
// gets one column per kind of quantity among its values, in the reader's base units, named
// by the pointer with "." for "/" and the unit appended:
//   durations -> "_s" (seconds), rates -> "_bps", sizes -> "_B" (bytes), packets -> "_pkt";
//   "/flows/0/rtt": ["20ms", "60ms"] -> flows.0.rtt_s = 0.02, 0.06;
//   "/topology/dumbbell/bottleneck/buffer": ["50pkt", "75KB"] -> ..._pkt = 50, "" and ..._B = "", 75000.
// A plain number among such values is read as the reader reads it at a quantity field: in
// base units (bytes for a buffer). Parameters that are not quantities (plain numbers,
// names, booleans) get no extra column: their own column is already what they mean.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace fastsim::sweep {

/// A value as a quantity: its unit ("s", "bps", "B", "pkt") and its number in that unit
/// ("0.02"); both empty when the value is not a string with one of the reader's units.
struct Quantity {
  std::string unit;
  std::string number;
};
Quantity quantity_of(const nlohmann::json& value);

class ParamColumns {
 public:
  /// Decides the numeric columns from every value each pointer takes (`points`: the
  /// parameter objects {pointer: value} of the sweep's runs).
  explicit ParamColumns(const std::vector<nlohmann::json>& points);

  /// Column names, in the order of the pointers, then of the units (s, bps, pkt, B).
  const std::vector<std::string>& names() const { return names_; }

  /// The numeric cells of one point: column name -> number ("" where the column's unit
  /// is not the value's).
  std::map<std::string, std::string> cells(const nlohmann::json& params) const;

 private:
  struct Column {
    std::string pointer, name, unit;
  };
  std::map<std::string, std::string> number_unit_;  ///< pointer -> unit of its plain numbers
  std::vector<Column> columns_;
  std::vector<std::string> names_;
};

}  // namespace fastsim::sweep
