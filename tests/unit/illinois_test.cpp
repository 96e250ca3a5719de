// TCP Illinois without a network: alpha from alpha_max (10) at zero queueing delay
// down to alpha_min (0.3) at the largest delay seen, beta from 1/8 to 1/2, at two
// window sizes; the theta rule; the reset on timeout; post-loss RTT filtering; and
// the direction of each parameter (Liu, Basar, Srikant 2008; Linux tcp_illinois;
// docs/algorithms.md "illinois").
#include <catch2/catch.hpp>

#include "../support/cc_driver.hpp"
#include "fastsim/cc/illinois.hpp"

using namespace fastsim;
using fastsim::testing::CcDriver;

namespace {
const Duration kBase = Duration::milliseconds(100);
const Duration kMaxDelay = Duration::milliseconds(100);  // dm

const cc::Illinois& illinois(const CcDriver& d) {
  return dynamic_cast<const cc::Illinois&>(*d.cc);
}

/// A flow at window w that has seen baseRTT = 100 ms and maxRTT = 200 ms (dm = 100 ms).
CcDriver primed(double w, const std::map<std::string, double>& params = {}) {
  CcDriver d("illinois", params);
  d.w = {w, 1};
  d.round_trip(kBase);
  d.round_trip(kBase + kMaxDelay);
  return d;
}

/// Holds the average queueing delay at `da` for a round (alpha, beta follow at its end),
/// then returns the window increase over the next round.
double increase_at(CcDriver& d, Duration da, double w) {
  d.w.cwnd_pkts = w;
  d.round_trip(kBase + da);
  d.w.cwnd_pkts = w;
  d.round_trip(kBase + da);
  return d.w.cwnd_pkts - w;
}

// Liu, Basar, Srikant 2008 (and Linux tcp_illinois): alpha = k1 / (k2 + da) between
// d1 = dm/100 and dm.
double spec_alpha(double da, double dm) {
  const double amax = 10, amin = 0.3, d1 = dm / 100;
  const double k1 = (dm - d1) * amin * amax / (amax - amin);
  const double k2 = (dm - d1) * amin / (amax - amin) - d1;
  return k1 / (k2 + da);
}
double spec_beta(double da, double dm) {
  const double d2 = dm / 10, d3 = 0.8 * dm;
  if (da <= d2)
    return 0.125;
  if (da >= d3)
    return 0.5;
  return 0.125 + (0.5 - 0.125) * (da - d2) / (d3 - d2);
}
}  // namespace

TEST_CASE("Illinois alpha and beta curves match the published curves", "[cc][illinois]") {
  CcDriver d("illinois");
  const auto& il = illinois(d);
  const double dm = 0.1;
  CHECK(il.alpha_curve(0, dm) == Approx(10));
  CHECK(il.alpha_curve(dm / 100, dm) == Approx(10));
  CHECK(il.alpha_curve(dm, dm) == Approx(0.3));
  for (double f : {0.05, 0.2, 0.5, 0.9}) {
    CHECK(il.alpha_curve(f * dm, dm) == Approx(spec_alpha(f * dm, dm)));
    CHECK(il.beta_curve(f * dm, dm) == Approx(spec_beta(f * dm, dm)));
  }
  CHECK(il.beta_curve(0, dm) == Approx(0.125));
  CHECK(il.beta_curve(0.1 * dm, dm) == Approx(0.125));
  CHECK(il.beta_curve(0.8 * dm, dm) == Approx(0.5));
  CHECK(il.beta_curve(dm, dm) == Approx(0.5));
}

TEST_CASE("Illinois grows alpha per RTT and cuts beta at w = 1000 and w = 10000", "[cc][illinois]") {
  for (double w : {1000.0, 10000.0}) {
    INFO("w = " << w);
    // Maximum queueing delay: alpha_min, beta_max.
    CcDriver d = primed(w);
    CHECK(increase_at(d, kMaxDelay, w) == Approx(0.3).epsilon(0.02));
    d.w.cwnd_pkts = w;
    CHECK(d.loss().ssthresh_pkts == Approx(w * 0.5));
    // Half the maximum delay: the curves in between.
    d = primed(w);
    CHECK(increase_at(d, kMaxDelay / 2, w) == Approx(spec_alpha(0.05, 0.1)).epsilon(0.02));
    d.w.cwnd_pkts = w;
    CHECK(d.loss().ssthresh_pkts == Approx(w * (1 - spec_beta(0.05, 0.1))).epsilon(1e-6));
    // Zero queueing delay: back to alpha_max only after theta = 5 rounds; beta_min.
    d = primed(w);
    increase_at(d, kMaxDelay, w);  // alpha = 0.3
    for (int r = 1; r < 5; ++r) {
      d.w.cwnd_pkts = w;
      d.round_trip(kBase);
      CHECK(illinois(d).alpha() == Approx(0.3));
    }
    CHECK(increase_at(d, Duration::zero(), w) == Approx(10).epsilon(0.02));
    d.w.cwnd_pkts = w;
    CHECK(d.loss().ssthresh_pkts == Approx(w * (1 - 0.125)));
  }
}

TEST_CASE("Illinois is Reno below win_thresh and resets on a timeout", "[cc][illinois]") {
  CcDriver d("illinois");
  d.w = {5, 1};  // alpha starts at alpha_max (Linux); the round ends below win_thresh
  d.round_trip(kBase);
  CHECK(illinois(d).alpha() == Approx(1));
  CHECK(illinois(d).beta() == Approx(0.5));
  d.w.cwnd_pkts = 12;
  d.round_trip(kBase);
  CHECK(d.w.cwnd_pkts - 12 == Approx(1).epsilon(0.05));  // Reno: one packet per RTT
  d = CcDriver("illinois");                              // never above the low-delay threshold: alpha_max at once
  d.round_trips(2, kBase);
  CHECK(illinois(d).alpha() == Approx(10));
  const double before = d.w.cwnd_pkts;
  const auto r = d.timeout();
  CHECK(r.cwnd_pkts == 1);
  CHECK(r.ssthresh_pkts == Approx(before * (1 - 0.125)));  // beta of the moment, then reset
  CHECK(illinois(d).alpha() == Approx(1));
  CHECK(illinois(d).beta() == Approx(0.5));
}

TEST_CASE("Illinois post-loss RTT filtering keeps an outlier out of maxRTT", "[cc][illinois]") {
  // baseRTT 100 ms, a real maximum of 120 ms; after a loss, one 400 ms outlier round;
  // then 110 ms rounds (da = 10 ms). Unfiltered, dm = 300 ms and beta = beta_min;
  // filtered (2 rounds), dm = 20 ms and beta = spec_beta(10 ms, 20 ms).
  auto run = [](double filter) {
    CcDriver d("illinois", {{"loss_filter_rtts", filter}});
    d.round_trip(kBase);
    d.round_trip(Duration::milliseconds(120));
    d.loss();
    d.round_trip(Duration::milliseconds(400));
    d.round_trips(3, Duration::milliseconds(110));
    return illinois(d).beta();
  };
  CHECK(run(0) == Approx(0.125));
  CHECK(run(2) == Approx(spec_beta(0.010, 0.020)));
}

TEST_CASE("Illinois parameters move the response in the documented direction", "[cc][illinois]") {
  const double w = 1000;
  {  // alpha_max: growth at low delay
    CcDriver lo = primed(w), hi = primed(w, {{"alpha_max", 20}});
    lo.round_trips(6, kBase);
    hi.round_trips(6, kBase);
    CHECK(increase_at(hi, Duration::zero(), w) == Approx(2 * increase_at(lo, Duration::zero(), w)).epsilon(0.02));
  }
  {  // alpha_min: growth at the largest delay
    CcDriver lo = primed(w), hi = primed(w, {{"alpha_min", 1}});
    CHECK(increase_at(hi, kMaxDelay, w) > 3 * increase_at(lo, kMaxDelay, w));
  }
  {  // beta_min, beta_max: the cuts at low and high delay
    CcDriver base = primed(w), soft = primed(w, {{"beta_min", 0.05}}), hard = primed(w, {{"beta_max", 0.7}});
    increase_at(base, Duration::zero(), w);
    increase_at(soft, Duration::zero(), w);
    CHECK(soft.loss().ssthresh_pkts > base.loss().ssthresh_pkts);
    base = primed(w);
    increase_at(base, kMaxDelay, w);
    increase_at(hard, kMaxDelay, w);
    CHECK(hard.loss().ssthresh_pkts < base.loss().ssthresh_pkts);
  }
  {  // theta: rounds of low delay before alpha_max returns
    CcDriver quick = primed(w, {{"theta", 2}});
    increase_at(quick, kMaxDelay, w);
    quick.round_trips(2, kBase);
    CHECK(illinois(quick).alpha() == Approx(10));
  }
  {  // win_thresh: Reno below it
    CcDriver d = primed(100, {{"win_thresh", 200}});
    CHECK(increase_at(d, Duration::zero(), 100) == Approx(1).epsilon(0.02));
  }
  {  // alpha_base, beta_base: the increase and cut below win_thresh (and after a timeout)
    CcDriver d = primed(100, {{"win_thresh", 200}, {"alpha_base", 2}, {"beta_base", 0.3}});
    CHECK(increase_at(d, Duration::zero(), 100) == Approx(2).epsilon(0.02));
    d.w.cwnd_pkts = 100;
    CHECK(d.loss().ssthresh_pkts == Approx(70));
  }
}
