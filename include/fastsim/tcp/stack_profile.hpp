// Stack profiles: named bundles of TCP settings and algorithm-parameter defaults that
// make a flow behave like the stack a publication measured ("rfc": fastsim's
// idealised stack, TcpConfig's own defaults; "linux": the Linux stack; "ns2": ns-2.35's
// one-way Agent/TCP with a TCPSink). Both tables are data, one row per setting or
// parameter, each with its value under every profile and where the value comes from;
// docs/model.md prints the same table. A setting or parameter without a row keeps its
// default under every profile. Adding a switch to a profile is one row in
// stack_profile.cpp.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "fastsim/cc/params.hpp"
#include "fastsim/core/time.hpp"
#include "fastsim/tcp/tcp_config.hpp"

namespace fastsim::tcp {

enum class Stack { kRfc, kLinux, kNs2 };

/// Every profile, in table order (rfc, linux, ns2).
inline constexpr Stack kStacks[] = {Stack::kRfc, Stack::kLinux, Stack::kNs2};
/// The profile a scenario gets when it names none.
inline constexpr Stack kDefaultStack = Stack::kLinux;

std::string_view stack_name(Stack s);
/// nullopt for an unknown name.
std::optional<Stack> find_stack(std::string_view name);
/// "rfc", "linux", "ns2" as the scenario spells them, for error messages and listings.
std::vector<std::string> stack_names();

/// A TCP setting's value under a profile: a switch, a number (integers too) or a duration.
using SettingValue = std::variant<bool, double, Duration>;

/// One row of the TCP-settings table: `setting` is a key of tcp_settings().
struct SettingRow {
  std::string_view setting;
  SettingValue in_rfc, in_linux, in_ns2;
  std::string_view source;  ///< where the linux and ns2 values come from
  [[nodiscard]] const SettingValue& value(Stack s) const;
};

/// A parameter default under a profile: a number, or one of a string option's choices.
using ParamValue = std::variant<double, std::string_view>;

/// One row of the algorithm-parameter table: `param` is one of `algorithm`'s params.
struct ParamRow {
  std::string_view algorithm, param;
  ParamValue in_rfc, in_linux, in_ns2;
  std::string_view source;
  [[nodiscard]] const ParamValue& value(Stack s) const;
};

std::span<const SettingRow> stack_setting_rows();
std::span<const ParamRow> stack_param_rows();

/// Sets every setting with a row to its value under `s`; false (nothing changed for that
/// row) if a row names no setting or its value has the wrong type (a unit test guards both).
bool apply_stack(Stack s, TcpConfig& cfg);
/// TcpConfig{} with `s` applied: the settings a flow of that stack starts from.
TcpConfig stack_config(Stack s);
/// Sets the parameters of `algorithm` that have a row to their value under `s`.
void apply_stack_params(Stack s, std::string_view algorithm, cc::ParamValues& values);

}  // namespace fastsim::tcp
