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

size_t settled_tail(size_t m, double fraction) {
  const auto share = static_cast<size_t>(std::ceil(fraction * static_cast<double>(m)));
  return std::max<size_t>(share, kMinSettledPeriods);
}

namespace {
/// The longest run of consecutive samples in [low, high] among the first `end` that was
/// left before `end` (a run reaching end - 1 continues into the stay from `end`: it did not
/// leave the band).
size_t longest_earlier_stay(const std::vector<double>& samples, size_t end, double low, double high) {
  size_t longest = 0, run = 0;
  for (size_t k = 0; k < end; ++k) {
    if (samples[k] >= low && samples[k] <= high) {
      ++run;
    } else {
      longest = std::max(longest, run);
      run = 0;
    }
  }
  return longest;
}
}  // namespace

std::optional<size_t> convergence_periods(const std::vector<double>& samples, double tolerance) {
  const size_t m = samples.size();
  if (m < kMinSettledPeriods)
    return std::nullopt;
  // The rate must stay in the band at least over the settled tail (the interval's last
  // tenth and three periods): a short tail always agrees with its own mean.
  const size_t latest = m - std::min(settled_tail(m, kSettledTailFraction), m);
  std::optional<size_t> first;
  double first_mean = 0;
  double sum = 0, low = samples[m - 1], high = samples[m - 1];
  for (size_t k = m; k-- > 0;) {
    sum += samples[k];
    low = std::min(low, samples[k]);
    high = std::max(high, samples[k]);
    const double mean = sum / static_cast<double>(m - k);
    if (k <= latest && mean > 0 && high - mean <= tolerance * mean && mean - low <= tolerance * mean) {
      first = k;
      first_mean = mean;
    }
  }
  // ... and outlast every earlier stay in the same band (a periodic rate visits it once per cycle).
  if (first &&
      longest_earlier_stay(samples, *first, first_mean * (1 - tolerance), first_mean * (1 + tolerance)) >= m - *first)
    return std::nullopt;
  return first;
}

std::optional<size_t> settling_periods(const std::vector<double>& samples, const SettlingBand& band) {
  const size_t m = samples.size();
  const size_t tail = settled_tail(m, band.final_fraction);
  if (m < tail)
    return std::nullopt;  // fewer than three periods: too short to tell
  // The final mean is over the settled tail, and the band must hold over all of it:
  // otherwise a tail of one sample agrees with itself and a sawtooth whose last sample
  // happened to lie in the band "settled" there.
  double final_mean = 0;
  for (size_t k = m - tail; k < m; ++k)
    final_mean += samples[k];
  final_mean /= static_cast<double>(tail);
  const double half_width = std::max(band.relative * std::fabs(final_mean), band.absolute);
  size_t k = m;
  while (k > 0 && std::fabs(samples[k - 1] - final_mean) <= half_width)
    --k;
  if (k > m - tail)
    return std::nullopt;
  // The stay must outlast every earlier one in the band: a sawtooth whose flat part covers
  // the tail (CUBIC near W_max) has stayed as long in the band once per cycle before.
  if (longest_earlier_stay(samples, k, final_mean - half_width, final_mean + half_width) >= m - k)
    return std::nullopt;
  return k;
}

std::vector<IntervalPlan> plan_intervals(const std::vector<Span>& flows, double duration, double tau, double warmup,
                                         const std::vector<double>& events, size_t max_flow_entries,
                                         OmittedIntervals* omitted) {
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
  constexpr double kEps = 1e-9;
  const size_t n_intervals = cuts.size() - 1;
  // Flow f is active throughout interval i (cuts[i], cuts[i+1]) iff
  // start <= cuts[i] + eps and end >= cuts[i+1] - eps: the intervals [first[f], last[f]).
  std::vector<size_t> first(flows.size()), last(flows.size());
  std::vector<int64_t> delta(n_intervals + 1, 0);
  for (size_t f = 0; f < flows.size(); ++f) {
    auto a = static_cast<size_t>(std::lower_bound(cuts.begin(), cuts.end(), flows[f].start - 2 * kEps) - cuts.begin());
    a = std::min(a, n_intervals);  // a flow that starts after the run: no interval
    while (a < n_intervals && !(flows[f].start <= cuts[a] + kEps))
      ++a;
    // b: the number of cuts c with c - eps <= end (an interval i qualifies iff i + 1 < b).
    auto b = static_cast<size_t>(std::upper_bound(cuts.begin(), cuts.end(), flows[f].end + 2 * kEps) - cuts.begin());
    while (b > 0 && !(flows[f].end >= cuts[b - 1] - kEps))
      --b;
    first[f] = a;
    last[f] = std::max(a, b > 0 ? std::min(b - 1, n_intervals) : 0);
    delta[first[f]] += 1;
    delta[last[f]] -= 1;
  }
  // The intervals with at least one flow, in time order, with their sample periods.
  auto first_period = [&](size_t i) {
    return static_cast<size_t>(std::ceil((cuts[i] + warmup) / tau - kEps));
  };
  auto end_period = [&](size_t i) {
    return std::max(first_period(i), static_cast<size_t>(std::floor(cuts[i + 1] / tau + kEps)));
  };
  std::vector<size_t> flow_count(n_intervals, 0);
  size_t total = 0;
  int64_t active = 0;
  for (size_t i = 0; i < n_intervals; ++i) {
    active += delta[i];
    flow_count[i] = active > 0 ? static_cast<size_t>(active) : 0;
    total += flow_count[i];
  }
  // Over the budget, the intervals without a whole sample period (no metrics) go first:
  // many flows starting within one period would otherwise spend it all on them.
  const bool drop_empty = total > max_flow_entries;
  std::vector<IntervalPlan> out;
  std::vector<size_t> planned;  // the interval index of each element of `out`
  size_t entries = 0, planned_end = n_intervals;
  for (size_t i = 0; i < n_intervals; ++i) {
    const size_t n = flow_count[i];
    if (n == 0)
      continue;
    const bool empty = end_period(i) == first_period(i);
    if (planned_end == n_intervals && !(drop_empty && empty) && entries + n > max_flow_entries)
      planned_end = i;
    if (i >= planned_end || (drop_empty && empty)) {
      if (omitted != nullptr) {
        if (omitted->count++ == 0)
          omitted->from = cuts[i];
        omitted->flow_entries += n;
        omitted->without_periods += empty ? 1 : 0;
      }
      continue;
    }
    entries += n;
    IntervalPlan p;
    p.start = cuts[i];
    p.end = cuts[i + 1];
    p.flows.reserve(n);
    p.first_period = first_period(i);
    p.end_period = end_period(i);
    planned.push_back(i);
    out.push_back(std::move(p));
  }
  // Each flow is in the intervals [first, last): its planned ones are a run of `planned`.
  for (size_t f = 0; f < flows.size(); ++f) {
    const size_t stop = std::min(last[f], planned_end);
    for (auto k = static_cast<size_t>(std::lower_bound(planned.begin(), planned.end(), first[f]) - planned.begin());
         k < planned.size() && planned[k] < stop; ++k)
      out[k].flows.push_back(f);
  }
  return out;
}

}  // namespace fastsim::trace
