// Numeric parameter columns of the sweep tables (see param_columns.hpp).
#include "fastsim/sweep/param_columns.hpp"

#include <array>
#include <set>
#include <variant>

#include <fmt/format.h>

#include "fastsim/config/units.hpp"

namespace fastsim::sweep {

using nlohmann::json;

namespace {

/// The units in column order.
constexpr std::array<const char*, 4> kUnits = {"s", "bps", "pkt", "B"};

/// "/flows/0/rtt" -> "flows.0.rtt" (RFC 6901 escapes undone).
std::string dotted(const std::string& pointer) {
  std::string out;
  for (size_t i = 1; i < pointer.size(); ++i) {
    if (pointer[i] == '/') {
      out += '.';
    } else if (pointer[i] == '~' && i + 1 < pointer.size() && (pointer[i + 1] == '0' || pointer[i + 1] == '1')) {
      out += pointer[++i] == '0' ? '~' : '/';
    } else {
      out += pointer[i];
    }
  }
  return out;
}

}  // namespace

Quantity quantity_of(const json& value) {
  if (!value.is_string())
    return {};
  // The unit sets of the reader's quantities do not overlap ("ps" is a duration, "p" a
  // packet count), so at most one of these accepts a string.
  if (auto d = config::parse_duration(value); const auto* x = std::get_if<Duration>(&d))
    return {"s", fmt::format("{}", static_cast<double>(x->ps()) / 1e12)};
  if (auto r = config::parse_rate(value); const auto* x = std::get_if<Rate>(&r))
    return {"bps", fmt::format("{}", x->bps)};
  if (auto b = config::parse_buffer(value); const auto* x = std::get_if<net::BufferLimit>(&b)) {
    if (x->packets > 0)
      return {"pkt", fmt::format("{}", x->packets)};
    return {"B", fmt::format("{}", x->bytes)};
  }
  return {};
}

ParamColumns::ParamColumns(const std::vector<json>& points) {
  std::map<std::string, std::vector<const json*>> values;  // pointer -> every value it takes
  for (const auto& p : points) {
    if (!p.is_object())
      continue;
    for (const auto& [pointer, v] : p.items())
      values[pointer].push_back(&v);
  }
  for (const auto& [pointer, list] : values) {
    std::set<std::string> units;
    bool quantity = true, numbers = false;
    for (const json* v : list) {
      if (v->is_number()) {
        numbers = true;
      } else if (const Quantity q = quantity_of(*v); !q.unit.empty()) {
        units.insert(q.unit);
      } else {
        quantity = false;  // a name, a boolean, an object, a string without a unit
      }
    }
    if (!quantity || units.empty())
      continue;
    // A buffer takes packets or bytes, and a plain number is bytes; other quantities
    // have one unit each, and a parameter mixing them is not a quantity.
    const bool buffer = !units.count("s") && !units.count("bps");
    if (!buffer && units.size() > 1)
      continue;
    const std::string number_unit = buffer ? "B" : *units.begin();
    if (numbers)
      units.insert(number_unit);
    number_unit_[pointer] = number_unit;
    for (const char* u : kUnits) {
      if (units.count(u)) {
        columns_.push_back({pointer, fmt::format("{}_{}", dotted(pointer), u), u});
        names_.push_back(columns_.back().name);
      }
    }
  }
}

std::map<std::string, std::string> ParamColumns::cells(const json& params) const {
  std::map<std::string, std::string> out;
  for (const auto& c : columns_) {
    std::string cell;
    if (params.contains(c.pointer)) {
      const json& v = params[c.pointer];
      if (v.is_number()) {
        if (number_unit_.at(c.pointer) == c.unit)
          cell = fmt::format("{}", v.get<double>());
      } else if (const Quantity q = quantity_of(v); q.unit == c.unit) {
        cell = q.number;
      }
    }
    out[c.name] = cell;
  }
  return out;
}

}  // namespace fastsim::sweep
