// Seeded random streams: one independent stream per component, derived from the
// scenario seed and the component's stable name, so adding a flow or a link does not
// shift anybody else's random numbers. Boost.Random engines and distributions give
// the same sequence on every platform (std:: distributions do not).
#pragma once

#include <cmath>
#include <cstdint>
#include <string_view>

#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_01.hpp>

namespace fastsim {

/// splitmix64 finalizer: decorrelates nearby seeds.
constexpr uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/// FNV-1a of a component name.
constexpr uint64_t hash_name(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

class RandomStream {
 public:
  RandomStream(uint64_t scenario_seed, std::string_view component)
      : engine_(mix64(scenario_seed ^ mix64(hash_name(component)))) {}
  /// Uniform in [0, 1).
  double uniform() { return boost::random::uniform_01<double>()(engine_); }
  /// True with probability p.
  bool bernoulli(double p) { return uniform() < p; }
  /// Pareto variate with the given mean and shape (> 1), by inverse transform:
  /// x_m / U^(1/shape) with x_m = mean (shape - 1) / shape and U uniform in (0, 1].
  double pareto(double mean, double shape) {
    const double u = 1.0 - uniform();
    return mean * (shape - 1.0) / shape / std::pow(u, 1.0 / shape);
  }
  boost::random::mt19937_64& engine() { return engine_; }

 private:
  boost::random::mt19937_64 engine_;
};

}  // namespace fastsim
