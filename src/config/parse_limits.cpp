// `--limit NAME=VALUE` (see config/limits.hpp and docs/limits.md).
#include <charconv>

#include <fmt/format.h>

#include "fastsim/config/limits.hpp"
#include "fastsim/config/suggest.hpp"

namespace fastsim::config {

std::optional<std::string> set_limit(Limits& limits, std::string_view assignment) {
  const size_t eq = assignment.find('=');
  if (eq == std::string_view::npos)
    return fmt::format("--limit expects NAME=VALUE, got \"{}\"", assignment);
  const std::string_view name = assignment.substr(0, eq);
  std::string_view value = assignment.substr(eq + 1);
  uint64_t* target = nullptr;
  bool bytes = false;
  if (name == "memory") {
    target = &limits.memory_bytes;
    bytes = true;
  } else if (name == "trace-bytes") {
    target = &limits.trace_bytes;
    bytes = true;
  } else if (name == "packets") {
    target = &limits.packets;
  } else if (name == "interval-flows") {
    target = &limits.interval_flow_entries;
  } else if (name == "sweep-output-bytes") {
    target = &limits.sweep_output_bytes;
    bytes = true;
  } else if (name == "sweep-packets") {
    target = &limits.sweep_packets;
  } else {
    return fmt::format(
        "--limit: unknown limit \"{}\"{} (one of memory, trace-bytes, packets, interval-flows, sweep-output-bytes, "
        "sweep-packets)",
        name,
        did_you_mean(name, {"memory", "trace-bytes", "packets", "interval-flows", "sweep-output-bytes", "sweep-packets"}));
  }
  if (value == "none") {
    *target = UINT64_MAX;
    return std::nullopt;
  }
  unsigned shift = 0;
  if (bytes && !value.empty()) {
    const char unit = value.back();
    const std::string_view units = "KMGT";
    if (const size_t k = units.find(unit); k != std::string_view::npos) {
      shift = 10 * static_cast<unsigned>(k + 1);
      value.remove_suffix(1);
    }
  }
  uint64_t n = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (ec != std::errc() || end != value.data() + value.size() || value.empty() ||
      (shift > 0 && n > (UINT64_MAX >> shift)))
    return fmt::format("--limit {}: expected a non-negative integer{} or \"none\", got \"{}\"", name,
                       bytes ? " (optionally with K, M, G or T)" : "", assignment.substr(eq + 1));
  *target = n << shift;
  return std::nullopt;
}

}  // namespace fastsim::config
