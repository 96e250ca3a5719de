// Metric definitions of docs/metrics.md on hand-computed examples.
#include <catch2/catch.hpp>

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

TEST_CASE("convergence is the first period after which the rate stays in the band", "[metrics]") {
  // a ramp 0, 50 then 48 periods at 100: mean = 4850 / 50 = 97
  std::vector<double> ramp{0, 50};
  for (int i = 0; i < 48; ++i)
    ramp.push_back(100);
  CHECK(*convergence_periods(ramp, 0.1) == 2);  // 100 is within 10 % of 97; 50 and 0 are not
  CHECK(*convergence_periods({100, 100, 100}, 0.1) == 0);
  CHECK_FALSE(convergence_periods({100, 100, 0}, 0.1).has_value());  // never settles
  CHECK_FALSE(convergence_periods(ramp, 0.01).has_value());          // 100 is 3 % off the mean: never within 1 %
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
