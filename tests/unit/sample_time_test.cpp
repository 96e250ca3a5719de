// The time_s column of the traces (trace/sample_time.hpp): exact for every sample interval.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "fastsim/trace/sample_time.hpp"

using fastsim::Duration;
using fastsim::Time;
using fastsim::trace::SampleTime;

TEST_CASE("sample times show every multiple of the sample interval exactly", "[unit][outputs]") {
  auto at = [](int64_t ps, int64_t tau_ps) {
    return fmt::format("{}", SampleTime{Time::at(Duration::picoseconds(ps)), Duration::picoseconds(tau_ps)});
  };
  // Microseconds or coarser: 6 decimals, as the traces always had.
  CHECK(at(100'000'000'000, 100'000'000'000) == "0.100000");
  CHECK(at(12'000'000'000'000, 1'000'000'000'000) == "12.000000");
  CHECK(at(1'000'000'000'000'000'000, 1'000'000'000'000) == "1000000.000000");  // 10^6 s
  // Finer intervals get the decimals they need: 250 ns needs 8 (6 gave 0.000000 twice).
  CHECK(at(250'000, 250'000) == "0.00000025");
  CHECK(at(500'000, 250'000) == "0.00000050");
  CHECK(at(2'500'000, 2'500'000) == "0.0000025");
  CHECK(at(7, 1) == "0.000000000007");  // 1 ps: 12 decimals
}
