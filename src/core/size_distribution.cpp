// Flow-size sampling (see size_distribution.hpp).
#include "fastsim/core/size_distribution.hpp"

#include <algorithm>
#include <cmath>

#include <boost/random/exponential_distribution.hpp>

namespace fastsim {

double SizeDistribution::mean_bytes() const {
  if (kind != Kind::kBoundedPareto)
    return mean;
  const double a = shape;
  const double ratio = std::pow(min / max, a);
  if (std::fabs(a - 1.0) < 1e-12)
    return min * std::log(max / min) / (1 - ratio);
  return std::pow(min, a) / (1 - ratio) * a / (a - 1) * (1 / std::pow(min, a - 1) - 1 / std::pow(max, a - 1));
}

uint64_t SizeDistribution::sample(RandomStream& rng) const {
  double x = mean;
  switch (kind) {
    case Kind::kFixed:
      break;
    case Kind::kExponential:
      x = boost::random::exponential_distribution<double>(1.0 / mean)(rng.engine());
      break;
    case Kind::kPareto:
      x = rng.pareto(mean, shape);
      break;
    case Kind::kBoundedPareto: {
      const double u = rng.uniform();  // [0, 1)
      x = min / std::pow(1 - u * (1 - std::pow(min / max, shape)), 1 / shape);
      break;
    }
  }
  return static_cast<uint64_t>(std::llround(std::clamp(x, 1.0, 1e15)));  // the Pareto tail is unbounded
}

}  // namespace fastsim
