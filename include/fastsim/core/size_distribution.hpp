// Flow sizes of arriving finite flows: fixed, exponential, Pareto (mean and shape) and
// bounded Pareto (min, max, shape), the size models of web-like cross traffic in the
// Illinois/Compound and persistent-congestion evaluations. Sampled by inverse transform
// from a uniform variate of the arrival process's own stream; exponential sizes use
// Boost.Random's exponential_distribution.
#pragma once

#include <cstdint>

#include "fastsim/core/rng.hpp"

namespace fastsim {

struct SizeDistribution {
  enum class Kind { kFixed, kExponential, kPareto, kBoundedPareto };
  Kind kind = Kind::kFixed;
  double mean = 0;   ///< bytes (fixed: the size)
  double shape = 0;  ///< Pareto, bounded Pareto
  double min = 0;    ///< bounded Pareto: lower bound, bytes
  double max = 0;    ///< bounded Pareto: upper bound, bytes

  /// The distribution's mean in bytes (bounded Pareto: from min, max and shape).
  [[nodiscard]] double mean_bytes() const;
  /// A size in bytes (at least 1).
  [[nodiscard]] uint64_t sample(RandomStream& rng) const;
};

}  // namespace fastsim
