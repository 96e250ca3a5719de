// Metric definitions of docs/metrics.md as pure functions over per-period goodput
// samples: Jain's fairness index, stability, responsiveness, and the splitting of a
// run into equilibrium intervals (maximal spans with a fixed set of active flows).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace fastsim::trace {

/// (sum x)^2 / (n sum x^2); 1 for a single flow; nullopt if all zero or empty.
std::optional<double> jain_index(const std::vector<double>& means);

/// Sample standard deviation (m-1) over the mean; nullopt if fewer than 2 samples or mean 0.
std::optional<double> coefficient_of_variation(const std::vector<double>& samples);

/// Largest k (1-based number of periods) at which the running average of the first k
/// samples is more than `tolerance` away from the mean of all; 0 if never.
size_t responsiveness_periods(const std::vector<double>& samples, double tolerance = 0.1);

/// Fairness ratio of a newest flow against the n existing ones: n * newest / sum(existing);
/// 1 is fair. nullopt without existing flows or if they carried nothing.
std::optional<double> fairness_ratio(double newest, const std::vector<double>& existing);

/// The share of an interval a level or rate must be seen settled over, at least: the last
/// tenth, and at least kMinSettledPeriods periods.
inline constexpr double kSettledTailFraction = 0.1;
inline constexpr size_t kMinSettledPeriods = 3;

/// The settled tail of m samples: max(ceil(fraction * m), kMinSettledPeriods).
size_t settled_tail(size_t m, double fraction);

/// Convergence: the first period k from which every sample stays within `tolerance`
/// (relative) of the mean y of the samples from k on (the rate averaged over the rest of
/// the interval), k no later than the start of the last settled_tail(m, kSettledTailFraction)
/// samples; nullopt if there is no such k, if m < 3, or if the stay from k does not outlast
/// every earlier run of samples within y (1 +- tolerance) that left it before k.
std::optional<size_t> convergence_periods(const std::vector<double>& samples, double tolerance = 0.1);

/// The band and reference of settling_periods() (docs/metrics.md, window and queue convergence).
struct SettlingBand {
  double relative = 0.02;        ///< half-width as a fraction of the final mean ...
  double absolute = 3;           ///< ... or this many packets, whichever is larger
  double final_fraction = kSettledTailFraction;  ///< the final mean is over this last fraction (>= 3)
};

/// Convergence of a level (a window, a queue): the first index k from which every sample
/// lies within max(relative * |f|, absolute) of the final mean f, the mean of the last
/// t = settled_tail(m, final_fraction) samples; nullopt if m < t, if one of those last t
/// lies outside the band (k <= m - t), or if the stay from k does not outlast every
/// earlier run of samples in the band that left it (a periodic level visits it once per cycle).
std::optional<size_t> settling_periods(const std::vector<double>& samples, const SettlingBand& band = {});

/// A flow's activity span, seconds.
struct Span {
  double start = 0;
  double end = 0;
};

/// An equilibrium interval: [start, end) with the indices of the flows active throughout,
/// and the sample periods [first_period, end_period) that lie inside it after warm-up.
struct IntervalPlan {
  double start = 0;
  double end = 0;
  std::vector<size_t> flows;
  size_t first_period = 0;
  size_t end_period = 0;
};

/// The intervals plan_intervals() left out once its budget of flow entries was spent.
struct OmittedIntervals {
  size_t count = 0;            ///< intervals (with at least one flow) not planned
  double from = 0;             ///< start of the first of them
  size_t flow_entries = 0;     ///< the sum of their flow counts
  size_t without_periods = 0;  ///< how many of them hold no whole sample period
};

/// Splits [0, duration) at every flow start and end; periods are [k tau, (k+1) tau).
/// `events`: further cut times (a change of the capacity left to the flows: a UDP source
/// or an arrival process starting or stopping), which split intervals without being flows.
/// Intervals are planned in time order while the sum of their flow counts stays within
/// `max_flow_entries`; the rest are only counted into `omitted` (when given). When all the
/// intervals' flow counts together exceed the budget, the intervals that hold no whole
/// sample period (whose metrics are empty) are left out first. Time and memory are
/// O(n log n + intervals + planned flow entries) in the number of flows n.
std::vector<IntervalPlan> plan_intervals(const std::vector<Span>& flows, double duration, double tau, double warmup,
                                         const std::vector<double>& events = {}, size_t max_flow_entries = SIZE_MAX,
                                         OmittedIntervals* omitted = nullptr);

}  // namespace fastsim::trace
