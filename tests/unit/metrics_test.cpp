// Metric definitions of docs/metrics.md on hand-computed examples.
#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>
#include <vector>

#include "fastsim/trace/metrics.hpp"

using namespace fastsim::trace;

TEST_CASE("Jain's index", "[metrics]") {
  CHECK(*jain_index({5.0}) == Approx(1.0));
  CHECK(*jain_index({1.0, 1.0, 1.0}) == Approx(1.0));
  CHECK(*jain_index({1.0, 0.0}) == Approx(0.5));
  CHECK(*jain_index({3.0, 1.0}) == Approx(16.0 / 20.0));
  CHECK_FALSE(jain_index({}).has_value());
}

TEST_CASE("stability is the sample coefficient of variation", "[metrics]") {
  // mean 2, sample stddev sqrt(((1)^2 + 0 + 1^2)/2) = 1
  CHECK(*coefficient_of_variation({1.0, 2.0, 3.0}) == Approx(0.5));
  CHECK(*coefficient_of_variation({4.0, 4.0}) == Approx(0.0));
  CHECK_FALSE(coefficient_of_variation({4.0}).has_value());
}

TEST_CASE("responsiveness counts periods until the running average settles", "[metrics]") {
  CHECK(responsiveness_periods({10, 10, 10, 10}) == 0);
  // mean 7.5; running averages 0, 5, 6.67, 7.5 -> off by >10% at k = 1, 2, 3 (6.67 is 11% low)
  CHECK(responsiveness_periods({0, 10, 10, 10}) == 3);
}

TEST_CASE("equilibrium intervals split at every start and stop", "[metrics]") {
  // flow 0 over [0, 90), flow 1 over [20, 60); tau = 1 s, warm-up 2 s
  const auto plans = plan_intervals({{0, 90}, {20, 60}}, 90, 1.0, 2.0);
  REQUIRE(plans.size() == 3);
  CHECK(plans[0].flows == std::vector<size_t>{0});
  CHECK(plans[0].first_period == 2);
  CHECK(plans[0].end_period == 20);
  CHECK(plans[1].flows == std::vector<size_t>{0, 1});
  CHECK(plans[1].first_period == 22);
  CHECK(plans[1].end_period == 60);
  CHECK(plans[2].start == 60);
  CHECK(plans[2].end == 90);
}

TEST_CASE("fairness ratio of a newest flow against the existing ones", "[metrics]") {
  CHECK(*fairness_ratio(5.0, {5.0, 5.0}) == Approx(1.0));
  CHECK(*fairness_ratio(2.0, {4.0, 4.0}) == Approx(0.5));  // 2 * 2 / 8
  CHECK(*fairness_ratio(6.0, {3.0}) == Approx(2.0));
  CHECK_FALSE(fairness_ratio(1.0, {}).has_value());
}

TEST_CASE("convergence is the first period after which the rate stays in the band of its mean from there",
          "[metrics]") {
  // a ramp 0, 50 then 48 periods at 100: from period 2 on the mean is 100 and every sample
  // is on it; from period 1 the mean is 4850 / 49 = 98.98 and 50 is outside
  std::vector<double> ramp{0, 50};
  for (int i = 0; i < 48; ++i)
    ramp.push_back(100);
  CHECK(*convergence_periods(ramp, 0.1) == 2);
  CHECK(*convergence_periods(ramp, 0.01) == 2);  // the reference is the level settled on, not the whole mean (97)
  CHECK(*convergence_periods({100, 100, 100}, 0.1) == 0);
  CHECK_FALSE(convergence_periods({100, 100, 0}, 0.1).has_value());  // never settles
  // A long ramp: 0, 1, ..., 59, then 20 periods at 60 (the Vegas ramp-up shape). The mean
  // of all 80 samples (32.6) is far below the level; from k the mean is ((60 - k) (k + 59) /
  // 2 + 1200) / (80 - k), and k = 54 is the first whose lowest sample is within 10 % (54 >= 0.9 x 59.19).
  std::vector<double> slow;
  for (int i = 0; i < 60; ++i)
    slow.push_back(i);
  for (int i = 0; i < 20; ++i)
    slow.push_back(60);
  CHECK(*convergence_periods(slow, 0.1) == 54);
  // A step late in the interval (at 85 % of it) is measured: the settled tail needs only the
  // last tenth of the interval (10 of 100 periods here).
  std::vector<double> late(85, 0.0);
  late.resize(100, 100.0);
  CHECK(*convergence_periods(late, 0.1) == 85);
  std::vector<double> too_late(95, 0.0);  // at 95 %: 5 periods settled, fewer than a tenth
  too_late.resize(100, 100.0);
  CHECK_FALSE(convergence_periods(too_late, 0.1).has_value());
  // A sawtooth never settles, although any short tail agrees with its own mean: the band
  // must hold at least over the last tenth and three periods.
  std::vector<double> saw;
  for (int i = 0; i < 80; ++i)
    saw.push_back(70 + 6.0 * (i % 10));
  CHECK_FALSE(convergence_periods(saw, 0.1).has_value());
  CHECK(*convergence_periods(saw, 0.5) == 0);
  // Short intervals: the band must hold over at least three periods (all of them when
  // fewer), so neither a two-period sawtooth nor a jump converges on its last sample alone.
  CHECK_FALSE(convergence_periods({10, 1, 10, 1}, 0.1).has_value());
  CHECK_FALSE(convergence_periods({1, 10}, 0.1).has_value());
  CHECK_FALSE(convergence_periods({0, 100, 100}, 0.1).has_value());
  CHECK(*convergence_periods({0, 100, 100, 100}, 0.1) == 1);
  CHECK_FALSE(convergence_periods({100}, 0.1).has_value());  // fewer than three periods: too short to tell
  CHECK_FALSE(convergence_periods({100, 100}, 0.1).has_value());
  // The stay must outlast every earlier stay in the band: a rate that was at this level for
  // longer before, left and came back cannot be told from one that visits it every cycle.
  const auto steps = [](std::initializer_list<std::pair<int, double>> runs) {
    std::vector<double> v;
    for (const auto& [n, level] : runs)
      v.insert(v.end(), static_cast<size_t>(n), level);
    return v;
  };
  CHECK(*convergence_periods(steps({{2, 100}, {3, 50}, {15, 100}}), 0.1) == 5);
  CHECK_FALSE(convergence_periods(steps({{10, 100}, {5, 50}, {5, 100}}), 0.1).has_value());
  CHECK_FALSE(convergence_periods(steps({{5, 100}, {5, 50}, {5, 100}}), 0.1).has_value());  // as long: not longer
  // A run that reaches K - 1 never left the band (K - 1 fails the band of its own mean but
  // lies in K's): it is not an earlier stay. In [90, 110] from period 2 on, K = 13.
  CHECK(*convergence_periods(steps({{2, 0}, {11, 108}, {1, 89.5}, {9, 100}}), 0.1) == 13);
}

TEST_CASE("a flow that starts after the run has no interval (found by fuzz_run under ASan)", "[metrics]") {
  // Its start is past every cut: the planner indexed one past its difference array.
  const auto plans = plan_intervals({{0, 10}, {15, 20}, {10.5, 12}}, 10, 1, 0);
  REQUIRE(plans.size() == 1);
  CHECK(plans[0].start == 0);
  CHECK(plans[0].end == 10);
  CHECK(plans[0].flows == std::vector<size_t>{0});
}

TEST_CASE("capacity-change events split intervals without being flows", "[metrics]") {
  // One flow over [0, 30) s; a CBR source from 10 s to 20 s.
  const auto plans = plan_intervals({{0, 30}}, 30, 1, 0, {10, 20, 0, 30, 45});
  REQUIRE(plans.size() == 3);
  CHECK(plans[0].start == 0);
  CHECK(plans[0].end == 10);
  CHECK(plans[1].start == 10);
  CHECK(plans[1].end == 20);
  CHECK(plans[2].end == 30);
  for (const auto& p : plans)
    CHECK(p.flows == std::vector<size_t>{0});
  CHECK(plans[1].first_period == 10);
  CHECK(plans[1].end_period == 20);
}

namespace {
/// The definition, interval by interval and flow by flow (quadratic): the reference.
std::vector<std::vector<size_t>> brute_force_flows(const std::vector<Span>& flows, double duration) {
  std::vector<double> cuts{0.0, duration};
  for (const auto& f : flows) {
    cuts.push_back(std::clamp(f.start, 0.0, duration));
    cuts.push_back(std::clamp(f.end, 0.0, duration));
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  std::vector<std::vector<size_t>> out;
  for (size_t i = 0; i + 1 < cuts.size(); ++i) {
    std::vector<size_t> active;
    for (size_t f = 0; f < flows.size(); ++f) {
      if (flows[f].start <= cuts[i] + 1e-9 && flows[f].end >= cuts[i + 1] - 1e-9)
        active.push_back(f);
    }
    if (!active.empty())
      out.push_back(active);
  }
  return out;
}
}  // namespace

TEST_CASE("interval planning matches the definition and its flow entries are capped", "[metrics][intervals]") {
  // Staggered flows (and some ending together, some within 1e-9 s of a cut).
  std::vector<Span> flows;
  for (int i = 0; i < 60; ++i)
    flows.push_back({0.5 * i + (i % 7 == 0 ? 4e-10 : 0), i % 3 == 0 ? 40.0 : 30.0 + 0.25 * i});
  const auto reference = brute_force_flows(flows, 40.0);
  const auto all = plan_intervals(flows, 40.0, 0.5, 0.0);  // periods of 0.5 s: intervals with and without
  REQUIRE(all.size() == reference.size());
  size_t entries = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    CHECK(all[i].flows == reference[i]);
    entries += all[i].flows.size();
  }
  // A budget: over it, the intervals without a whole sample period go first, then the
  // others in time order while their flow entries fit; the rest are counted.
  size_t with_periods = 0;  // the flow entries of the intervals that hold a whole period
  for (const auto& p : all)
    with_periods += p.end_period > p.first_period ? p.flows.size() : 0;
  const size_t budget = with_periods / 2;
  OmittedIntervals omitted;
  const auto capped = plan_intervals(flows, 40.0, 0.5, 0.0, {}, budget, &omitted);
  std::vector<size_t> expected;  // indices into `all`
  size_t kept = 0, empty = 0;
  std::optional<double> first_omitted;
  bool full = false;
  for (size_t i = 0; i < all.size(); ++i) {
    const bool no_period = all[i].end_period == all[i].first_period;
    empty += no_period ? 1 : 0;
    full = full || (!no_period && kept + all[i].flows.size() > budget);
    if (no_period || full) {
      first_omitted = first_omitted.value_or(all[i].start);
      continue;
    }
    kept += all[i].flows.size();
    expected.push_back(i);
  }
  REQUIRE(empty > 0);  // the case has both kinds
  REQUIRE(full);
  REQUIRE(capped.size() == expected.size());
  for (size_t k = 0; k < capped.size(); ++k) {
    CHECK(capped[k].start == all[expected[k]].start);
    CHECK(capped[k].flows == reference[expected[k]]);
  }
  CHECK(capped.size() + omitted.count == reference.size());
  CHECK(kept + omitted.flow_entries == entries);
  CHECK(omitted.without_periods == empty);
  CHECK(omitted.from == Approx(*first_omitted));
  // Within the budget every interval is planned, those without periods included.
  OmittedIntervals none;
  CHECK(plan_intervals(flows, 40.0, 0.5, 0.0, {}, entries, &none).size() == all.size());
  CHECK(none.count == 0);
}

TEST_CASE("6000 staggered flows plan a bounded number of flow entries", "[metrics][intervals]") {
  // Starts 1 ms apart, all to the end: 12 000 cuts and 18 million (interval, flow)
  // pairs, which used to be planned (and reported) in full. With 1-ms sample periods
  // every interval has one: intervals in time order while the budget lasts.
  std::vector<Span> flows;
  for (int i = 0; i < 6000; ++i)
    flows.push_back({0.001 * i, 10.0});
  OmittedIntervals omitted;
  const auto plans = plan_intervals(flows, 10.0, 0.001, 0.0, {}, 100'000, &omitted);
  size_t kept = 0;
  for (const auto& p : plans)
    kept += p.flows.size();
  CHECK(kept <= 100'000);
  CHECK(plans.size() == 446);  // 1 + 2 + ... + 446 = 99 681 entries; 447 would pass 100 000
  CHECK(omitted.count == 6000 - 446);
  CHECK(omitted.without_periods == 0);
  CHECK(kept + omitted.flow_entries == 6000ull * 6001 / 2);
  // With 1-s periods, the 5999 intervals of the first 6 s hold no whole period: they go
  // first, and the one interval with metrics, all 6000 flows from 5.999 s, is planned
  // (the budget used to be spent on the first 446 of them, the summary left with none).
  OmittedIntervals coarse;
  const auto one = plan_intervals(flows, 10.0, 1.0, 0.0, {}, 100'000, &coarse);
  REQUIRE(one.size() == 1);
  CHECK(one[0].start == Approx(5.999));
  CHECK(one[0].flows.size() == 6000);
  CHECK(one[0].end_period - one[0].first_period == 4);
  CHECK(coarse.count == 5999);
  CHECK(coarse.without_periods == 5999);
  CHECK(coarse.from == 0.0);
}

TEST_CASE("window/queue convergence: the band is 2 % or 3 packets around the mean of the last tenth", "[metrics]") {
  // 100 samples: a slow linear decrease 200 -> 102 over 50 periods (2 per period), then
  // 50 at exactly 100. Final mean (last 10) = 100, band max(2, 3) = 3: 102 is inside, 104 not.
  std::vector<double> w;
  for (int k = 0; k < 50; ++k)
    w.push_back(200 - 2.0 * k);
  for (int k = 0; k < 50; ++k)
    w.push_back(100);
  CHECK(*settling_periods(w) == 49);  // w[48] = 104 is the last sample outside
  // The goodput criterion's reference is the mean from the candidate period on: from 45
  // (110, 108, ..., 102, then 100s: mean 100.5) every sample is within 10 %; from 44 the
  // 112 is not.
  CHECK(*convergence_periods(w, 0.1) == 45);
  // Relative band wins at large levels: final mean 1000, band 20.
  std::vector<double> big{900, 979, 1019, 1000, 1000, 1000, 1000, 1000};
  CHECK(*settling_periods(big) == 2);  // 979 is 21 below: outside; 1019 is inside
  // Absolute band at small levels: a queue of 0 settles once it stays within 3 packets.
  CHECK(*settling_periods({50, 10, 3, 0, 0, 0, 0, 0}) == 2);
  CHECK(*settling_periods({5, 5, 5, 5}) == 0);
  // A sawtooth never settles (last sample outside the band around its mean).
  std::vector<double> saw;
  for (int k = 0; k < 40; ++k)
    saw.push_back(50 + (k % 10) * 5);
  CHECK_FALSE(settling_periods(saw).has_value());
  CHECK_FALSE(settling_periods({}).has_value());
  // The final mean is over the last tenth of the samples and at least three, and the band
  // must hold over all of them: a level settled at 85 % of the interval is measured, one
  // settled at 95 % is not (the Vegas window after the Quick Vegas bandwidth doubling
  // settles 31.5 s into a 40-s interval).
  std::vector<double> late(85, 500.0);
  late.resize(100, 600.0);
  CHECK(*settling_periods(late) == 85);
  std::vector<double> too_late(95, 500.0);
  too_late.resize(100, 600.0);
  CHECK_FALSE(settling_periods(too_late).has_value());
  CHECK_FALSE(settling_periods({0, 4, 10, 10}).has_value());  // final mean 8: 4 is outside
  CHECK(*settling_periods({0, 9, 10, 10}) == 1);              // final mean 9.67: 9, 10, 10 inside, 0 not
  CHECK_FALSE(settling_periods({0, 100}).has_value());        // fewer than three periods: too short to tell
  CHECK_FALSE(settling_periods({5, 5}).has_value());
  CHECK(*settling_periods({0, 0, 0, 0, 0, 100, 100, 100}) == 5);  // settles exactly at the tail's start
  // A sawtooth whose last sample lies on the final mean does not settle on that sample.
  CHECK_FALSE(settling_periods({100, 0, 100, 0, 100, 0, 100, 0, 50}).has_value());
  // A slow sawtooth whose flat top covers the tail (CUBIC near W_max): 4 cycles of 30
  // periods rising 500 -> 597 and 20 flat at 600. The last 20 are flat, but every earlier
  // top stayed in the band as long: a recurring visit, not a settled level.
  std::vector<double> cubic_like;
  for (int cycle = 0; cycle < 4; ++cycle) {
    for (int k = 0; k < 30; ++k)
      cubic_like.push_back(500 + 100.0 * k / 30);
    cubic_like.insert(cubic_like.end(), 20, 600.0);
  }
  CHECK_FALSE(settling_periods(cubic_like).has_value());
  CHECK_FALSE(settling_periods(std::vector<double>(cubic_like.begin(), cubic_like.end() - 5)).has_value());
  // The same window after a late, brief visit to its final level is settled: the final stay
  // outlasts the earlier one (2 periods against 15).
  std::vector<double> visit{600, 600, 500, 500, 500};
  visit.insert(visit.end(), 15, 600.0);
  CHECK(*settling_periods(visit) == 5);
  std::vector<double> back(10, 600.0);  // 10 at the level, 5 away, 5 back: as likely a cycle
  back.insert(back.end(), 5, 500.0);
  back.insert(back.end(), 5, 600.0);
  CHECK_FALSE(settling_periods(back).has_value());
  // The final-mean fraction: with 1.0 the mean of all (the goodput-style reference).
  CHECK_FALSE(settling_periods({0, 9, 10, 10}, SettlingBand{0.02, 3, 1.0}).has_value());  // mean 7.25: 0 is outside
  CHECK(*settling_periods({8, 9, 10, 10}, SettlingBand{0.02, 3, 1.0}) == 0);              // mean 9.25: all inside
}
