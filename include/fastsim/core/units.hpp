// Physical quantities used by the model: link rates and the exact integer
// serialization time of a packet.
// - Rates are integer bits per second (every published rate is an integer).
// - Serialization time is ceil(bytes * 8 * 1e12 / rate) picoseconds, computed with a
//   128-bit intermediate, never from a truncated per-byte constant (STYLE.md).
#pragma once

#include <cstdint>

#include "fastsim/core/time.hpp"

namespace fastsim {

/// Link rate in bits per second.
struct Rate {
  uint64_t bps = 0;
  [[nodiscard]] constexpr double to_double() const { return static_cast<double>(bps); }
};

__extension__ typedef unsigned __int128 uint128_t;

/// Multiplies a * b / c in 128-bit arithmetic, rounding up.
constexpr int64_t mul_div_ceil(uint64_t a, uint64_t b, uint64_t c) {
  const uint128_t num = static_cast<uint128_t>(a) * b;
  return static_cast<int64_t>((num + c - 1) / c);
}

/// Time to clock `bytes` onto a link of rate `rate`.
constexpr Duration serialization_time(uint64_t bytes, Rate rate) {
  return Duration::picoseconds(mul_div_ceil(bytes * 8, 1'000'000'000'000ULL, rate.bps));
}

}  // namespace fastsim
