// JSON Schema of scenario files from the parser's tables (see schema.hpp).
#include "fastsim/config/schema.hpp"

#include <string>
#include <variant>

#include <fmt/format.h>

#include "fastsim/cc/registry.hpp"
#include "fastsim/config/scenario_keys.hpp"
#include "fastsim/config/units.hpp"
#include "fastsim/tcp/tcp_settings.hpp"

namespace fastsim::config {

using nlohmann::json;

namespace {

std::string def_ref(std::string_view def) {
  return fmt::format("#/$defs/{}", def);
}

/// A regular expression for "<number><unit>" as the parser reads it (units.cpp: a
/// decimal number, optional spaces, one of `units`).
std::string quantity_pattern(const std::vector<std::string>& units) {
  std::string alternatives;
  for (const auto& u : units) {
    std::string escaped;
    for (char c : u)
      escaped += (c == '/' || c == '.') ? std::string("\\") + c : std::string(1, c);
    alternatives += (alternatives.empty() ? "" : "|") + escaped;
  }
  return fmt::format(R"(^\s*\+?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?\s*({})$)", alternatives);
}

/// A quantity: a plain number in [min, max] (exclusive minimum if `exclusive`) or a string with a unit.
json quantity(Quantity q, double min, double max, bool exclusive, const std::string& description) {
  json number = {{"type", "number"}, {"maximum", max}};
  number[exclusive ? "exclusiveMinimum" : "minimum"] = min;
  return {{"description", description},
          {"anyOf", json::array({number, {{"type", "string"}, {"pattern", quantity_pattern(unit_suffixes(q))}}})}};
}

/// The definitions of the value kinds that are quantities or ids.
void add_value_defs(json& defs) {
  defs["duration"] = quantity(Quantity::kDuration, 0, kMaxDurationSeconds, false,
                              "a duration: \"100ms\", \"1.5s\", or a number of seconds");
  defs["positive_duration"] = quantity(Quantity::kDuration, 0, kMaxDurationSeconds, true,
                                       "a positive duration: \"100ms\", \"1.5s\", or a number of seconds");
  defs["rate"] =
      quantity(Quantity::kRate, kMinRateBps, kMaxRateBps, false, "a rate: \"100Mbps\", or a number of bits/s");
  defs["size"] =
      quantity(Quantity::kSize, kMinSizeBytes, kMaxSizeBytes, false, "a size: \"1.5MB\", or a number of bytes");
  defs["buffer"] = {
      {"description",
       "a buffer: packets (\"2000pkt\"), a size (\"1.5MB\", or a number of bytes) or a fraction of a BDP"},
      {"anyOf", json::array({{{"$ref", def_ref("size")}},
                             {{"type", "string"}, {"pattern", quantity_pattern(unit_suffixes(Quantity::kPackets))}},
                             {{"$ref", def_ref("bdp_buffer")}}})}};
  defs["id"] = {{"description", "1 to 128 letters, digits, '-', '_' or '.'; not \".\" or \"..\""},
                {"type", "string"},
                {"pattern", "^[A-Za-z0-9._-]{1,128}$"},
                {"not", {{"enum", json::array({".", ".."})}}}};
}

json algorithm_names() {
  json names = json::array();
  for (const auto& a : cc::algorithms())
    names.push_back(a.name);
  return names;
}

/// The schema of a key's value.
json value_schema(const KeySpec& k) {
  json s;
  switch (k.kind) {
    case ValueKind::kString:
      s = {{"type", "string"}};
      break;
    case ValueKind::kId:
      s = {{"$ref", def_ref("id")}};
      break;
    case ValueKind::kBoolean:
      s = {{"type", "boolean"}};
      break;
    case ValueKind::kNumber:
      s = {{"type", "number"}, {"minimum", k.min}, {"maximum", k.max}};
      break;
    case ValueKind::kInteger:
      s = {{"type", "integer"}, {"minimum", k.min}, {"maximum", k.max}};
      break;
    case ValueKind::kDuration:
      s = {{"$ref", def_ref(k.positive ? "positive_duration" : "duration")}};
      break;
    case ValueKind::kRate:
      s = {{"$ref", def_ref("rate")}};
      break;
    case ValueKind::kSize:
      s = {{"$ref", def_ref("size")}};
      break;
    case ValueKind::kBuffer:
      s = {{"$ref", def_ref("buffer")}};
      break;
    case ValueKind::kChoice:
      s = {{"enum", k.choices}};
      break;
    case ValueKind::kAlgorithm:
      s = {{"enum", algorithm_names()}};
      break;
    case ValueKind::kParams:
      s = {{"type", "object"}};  // per algorithm: see algorithm_rules()
      break;
    case ValueKind::kObject:
      s = {{"$ref", def_ref(k.object)}};
      break;
    case ValueKind::kArray:
      s = {{"type", "array"}, {"items", {{"$ref", def_ref(k.object)}}}};
      break;
    case ValueKind::kStrings:
      s = {{"type", "array"}, {"items", {{"type", "string"}}}};
      break;
    case ValueKind::kNodes:
      s = {{"type", "array"},
           {"minItems", 1},
           {"items", {{"anyOf", json::array({{{"$ref", def_ref("id")}}, {{"$ref", def_ref(k.object)}}})}}}};
      break;
    case ValueKind::kHops: {
      const json hop = {{"type", "integer"}, {"minimum", 1}};
      s = {{"anyOf",
            json::array({hop, {{"type", "array"}, {"prefixItems", {hop, hop}}, {"items", false}, {"minItems", 2}}})}};
      break;
    }
  }
  s["description"] = std::string(k.help);
  return s;
}

/// The schema of a TCP setting (tcp/tcp_settings.hpp).
json setting_schema(const tcp::TcpSetting& t) {
  json s = std::visit(
      [&](auto member) -> json {
        using M = decltype(member);
        if constexpr (std::is_same_v<M, uint32_t tcp::TcpConfig::*>) {
          return {{"type", "integer"}, {"minimum", t.min}, {"maximum", t.max}};
        } else if constexpr (std::is_same_v<M, bool tcp::TcpConfig::*>) {
          return {{"type", "boolean"}};
        } else if constexpr (std::is_same_v<M, Duration tcp::TcpConfig::*>) {
          return {{"$ref", def_ref(t.zero_ok ? "duration" : "positive_duration")}};
        } else if constexpr (std::is_same_v<M, double tcp::TcpConfig::*>) {
          return {{"type", "number"}, {"minimum", t.min}, {"maximum", t.max}};
        } else {
          return {{"$ref", def_ref("size")}};
        }
      },
      t.member);
  s["description"] = std::string(t.help);
  return s;
}

/// An algorithm's "params" object (cc/params.hpp).
json params_schema(const cc::AlgorithmInfo& a) {
  json props = json::object();
  for (const auto& p : a.params) {
    json s;
    if (!p.choices.empty()) {
      s = {{"enum", p.choices}};
    } else if (cc::is_switch_param(p)) {
      s = {{"type", "boolean"}};
    } else if (cc::is_duration_param(p)) {
      s = {{"anyOf",
            json::array({{{"type", "number"}, {"minimum", p.min}, {"maximum", p.max}},
                         {{"type", "string"}, {"pattern", quantity_pattern(unit_suffixes(Quantity::kDuration))}}})}};
    } else {
      s = {{"type", "number"}, {"minimum", p.min}, {"maximum", p.max}};
    }
    s["description"] = p.unit.empty() ? p.help : fmt::format("{} ({})", p.help, p.unit);
    props[p.name] = s;
  }
  return {{"type", "object"},
          {"description", fmt::format("parameters of {}: {}", a.name, a.summary)},
          {"properties", props},
          {"additionalProperties", false}};
}

/// For an object with "algorithm" and "params": params checked against the named
/// algorithm's (reno when "algorithm" is absent).
json algorithm_rules() {
  json rules = json::array();
  for (const auto& a : cc::algorithms()) {
    rules.push_back({{"if", {{"required", {"algorithm"}}, {"properties", {{"algorithm", {{"const", a.name}}}}}}},
                     {"then", {{"properties", {{"params", {{"$ref", def_ref("params_" + a.name)}}}}}}}});
  }
  rules.push_back({{"if", {{"not", {{"required", {"algorithm"}}}}}},
                   {"then", {{"properties", {{"params", {{"$ref", def_ref("params_reno")}}}}}}}});
  return rules;
}

json object_schema(const ObjectSpec& o) {
  json props = json::object();
  json required = json::array();
  bool has_params = false;
  for (const KeySpec* k : object_keys(o)) {
    props[std::string(k->name)] = value_schema(*k);
    if (k->required)
      required.push_back(k->name);
    has_params = has_params || k->kind == ValueKind::kParams;
  }
  if (takes_tcp_settings(o)) {
    for (const auto& t : tcp::tcp_settings())
      props[std::string(t.name)] = setting_schema(t);
  }
  json s = {
      {"type", "object"}, {"description", std::string(o.help)}, {"properties", props}, {"additionalProperties", false}};
  if (!required.empty())
    s["required"] = required;
  if (has_params)
    s["allOf"] = algorithm_rules();
  return s;
}

}  // namespace

json scenario_schema() {
  json defs = json::object();
  add_value_defs(defs);
  for (const auto& o : scenario_objects())
    defs[std::string(o.name)] = object_schema(o);
  for (const auto& a : cc::algorithms())
    defs["params_" + a.name] = params_schema(a);
  return {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
          {"title", "fastsim scenario"},
          {"description",
           "generated by `fastsim schema` from the tables the scenario validator reads; "
           "docs/scenario-format.md"},
          {"$ref", def_ref("scenario")},
          {"$defs", defs}};
}

}  // namespace fastsim::config
