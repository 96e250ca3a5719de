// The time_s column of the traces: a sample instant in seconds with 6 decimals
// (microseconds), or as many more, up to 12 (picoseconds), as the sample interval needs for
// every multiple of it to be shown exactly; printed from the integer picoseconds, so no
// rounding (with a 250-ns interval, 6 decimals gave rows 0.000000, 0.000000, 0.000001).
#pragma once

#include <cstdint>

#include <fmt/format.h>

#include "fastsim/core/time.hpp"

namespace fastsim::trace {

struct SampleTime {
  Time at;
  Duration tau;  ///< the sample interval
};

}  // namespace fastsim::trace

template <>
struct fmt::formatter<fastsim::trace::SampleTime> {
  constexpr auto parse(fmt::format_parse_context& ctx) -> decltype(ctx.begin()) { return ctx.begin(); }
  template <class Context>
  auto format(const fastsim::trace::SampleTime& s, Context& ctx) const -> decltype(ctx.out()) {
    constexpr int64_t kPsPerSecond = 1'000'000'000'000;
    int decimals = 6;
    int64_t step = 1'000'000;  // picoseconds of the last decimal shown
    while (decimals < 12 && s.tau.ps() % step != 0) {
      ++decimals;
      step /= 10;
    }
    const int64_t ps = s.at.ps();
    return fmt::format_to(ctx.out(), "{}.{:0{}d}", ps / kPsPerSecond, (ps % kPsPerSecond) / step, decimals);
  }
};
