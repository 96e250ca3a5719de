// Resource limits of one run (docs/limits.md): what a scenario may cost before it is
// refused at validation (estimated memory, trace bytes, packets, open files) and how many
// per-flow entries summary.json's intervals[] lists. Defaults here; the command line
// raises them (`--limit NAME=VALUE`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace fastsim::config {

struct Limits {
  uint64_t memory_bytes = uint64_t{4} << 30;  ///< estimated peak memory
  uint64_t trace_bytes = uint64_t{2} << 30;   ///< estimated size of all trace files
  uint64_t packets = 100'000'000'000;         ///< estimated packets (≈ events) of the run
  uint64_t interval_flow_entries = 100'000;   ///< flow entries over all intervals[] in summary.json
  // A sweep's runs together (fastsim sweep only; each run is also held to the limits above).
  uint64_t sweep_output_bytes = uint64_t{100} << 30;  ///< estimated trace files of all runs
  uint64_t sweep_packets = 10'000'000'000'000;       ///< estimated packets of all runs (the CPU time)
};

/// Sets one limit from "NAME=VALUE" (NAME: memory, trace-bytes, packets, interval-flows,
/// sweep-output-bytes, sweep-packets;
/// VALUE: a non-negative integer, for bytes optionally with K, M, G or T (powers of 1024),
/// or "none" for no limit). Returns an error message, or nullopt on success.
std::optional<std::string> set_limit(Limits& limits, std::string_view assignment);

}  // namespace fastsim::config
