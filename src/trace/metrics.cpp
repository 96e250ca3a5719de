// Metric computations (see metrics.hpp and docs/metrics.md).
#include "fastsim/trace/metrics.hpp"

#include <algorithm>
#include <cmath>

namespace fastsim::trace {

std::optional<double> jain_index(const std::vector<double>& means) {
  double sum = 0, sum_sq = 0;
  for (double x : means) {
    sum += x;
    sum_sq += x * x;
  }
  if (means.empty() || sum_sq <= 0)
    return std::nullopt;
  return sum * sum / (static_cast<double>(means.size()) * sum_sq);
}

std::optional<double> coefficient_of_variation(const std::vector<double>& samples) {
  const size_t m = samples.size();
  if (m < 2)
    return std::nullopt;
  double mean = 0;
  for (double x : samples)
    mean += x;
  mean /= static_cast<double>(m);
  if (mean <= 0)
    return std::nullopt;
  double ss = 0;
  for (double x : samples)
    ss += (x - mean) * (x - mean);
  return std::sqrt(ss / static_cast<double>(m - 1)) / mean;
}

size_t responsiveness_periods(const std::vector<double>& samples, double tolerance) {
  if (samples.empty())
    return 0;
  double total = 0;
  for (double x : samples)
    total += x;
  const double mean = total / static_cast<double>(samples.size());
  if (mean <= 0)
    return 0;
  size_t last = 0;
  double running = 0;
  for (size_t k = 0; k < samples.size(); ++k) {
    running += samples[k];
    const double avg = running / static_cast<double>(k + 1);
    if (std::fabs(avg - mean) / mean > tolerance)
      last = k + 1;
  }
  return last;
}

std::optional<double> fairness_ratio(double newest, const std::vector<double>& existing) {
  double sum = 0;
  for (double x : existing)
    sum += x;
  if (existing.empty() || sum <= 0)
    return std::nullopt;
  return static_cast<double>(existing.size()) * newest / sum;
}

std::optional<size_t> convergence_periods(const std::vector<double>& samples, double tolerance) {
  if (samples.empty())
    return std::nullopt;
  double mean = 0;
  for (double x : samples)
    mean += x;
  mean /= static_cast<double>(samples.size());
  if (mean <= 0)
    return std::nullopt;
  size_t k = samples.size();
  while (k > 0 && std::fabs(samples[k - 1] - mean) <= tolerance * mean)
    --k;
  if (k == samples.size())
    return std::nullopt;
  return k;
}

std::vector<IntervalPlan> plan_intervals(const std::vector<Span>& flows, double duration, double tau, double warmup,
                                         const std::vector<double>& events) {
  std::vector<double> cuts{0.0, duration};
  for (double t : events) {
    if (t > 0 && t < duration)
      cuts.push_back(t);
  }
  for (const auto& f : flows) {
    cuts.push_back(std::clamp(f.start, 0.0, duration));
    cuts.push_back(std::clamp(f.end, 0.0, duration));
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  std::vector<IntervalPlan> out;
  constexpr double kEps = 1e-9;
  for (size_t i = 0; i + 1 < cuts.size(); ++i) {
    IntervalPlan p;
    p.start = cuts[i];
    p.end = cuts[i + 1];
    for (size_t f = 0; f < flows.size(); ++f) {
      if (flows[f].start <= p.start + kEps && flows[f].end >= p.end - kEps)
        p.flows.push_back(f);
    }
    if (p.flows.empty())
      continue;
    p.first_period = static_cast<size_t>(std::ceil((p.start + warmup) / tau - kEps));
    p.end_period = static_cast<size_t>(std::floor(p.end / tau + kEps));
    if (p.end_period < p.first_period)
      p.end_period = p.first_period;
    out.push_back(p);
  }
  return out;
}

}  // namespace fastsim::trace
