// Parsing of quantities in scenario files: a JSON number in SI base units
// (seconds, bits/s, bytes) or a string with a unit.
// - durations: "100ms", "1.5s", "250us", "10ns", "2min" (also "h");
// - rates: "800Mbps", "1Gbps", "10kbps", "2.5Gbit/s" (bits only; k/M/G/T are powers of 1000);
// - sizes: "1460B", "64KB", "1.5MB", "2GB" (powers of 1000) and "KiB", "MiB", "GiB" (1024);
// - buffers: a size, or packets as "2000pkt" / "2000pkts" / "2000packets".
// Each returns the value or an error message naming the expected form.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "fastsim/core/time.hpp"
#include "fastsim/core/units.hpp"
#include "fastsim/net/link_config.hpp"

namespace fastsim::config {

/// The bounds of quantities given as plain numbers (seconds, bits/s, bytes, packets).
inline constexpr double kMaxDurationSeconds = 1e6;
inline constexpr double kMinRateBps = 1;
inline constexpr double kMaxRateBps = 1e13;
inline constexpr double kMinSizeBytes = 1;
inline constexpr double kMaxSizeBytes = 1e15;
inline constexpr double kMaxBufferPackets = 1e9;

/// The quantities with units; kPackets: a buffer's packet units ("2000pkt").
enum class Quantity { kDuration, kRate, kSize, kPackets };
/// The unit suffixes the parser accepts for `q` (for the JSON Schema's patterns).
std::vector<std::string> unit_suffixes(Quantity q);

template <class T>
using Parsed = std::variant<T, std::string>;  ///< value, or what was wrong

Parsed<Duration> parse_duration(const nlohmann::json& j);
Parsed<Rate> parse_rate(const nlohmann::json& j);
Parsed<uint64_t> parse_size(const nlohmann::json& j);
Parsed<net::BufferLimit> parse_buffer(const nlohmann::json& j);
/// An integer in [min, max]: a JSON integer, or a number with an integral value (5.0);
/// the rule every integer of a scenario (the seed among them) is read by.
Parsed<int64_t> parse_integer(const nlohmann::json& j, int64_t min, int64_t max);

/// Formats for summaries and messages: "100ms", "800Mbps"; a byte count as "X.Y GiB",
/// "X.Y MiB", "X.Y KiB" or "N B" (the limits' messages).
std::string format_duration(Duration d);
std::string format_rate(Rate r);
std::string format_bytes(uint64_t bytes);

}  // namespace fastsim::config
