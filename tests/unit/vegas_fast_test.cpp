// Vegas (Brakmo & Peterson 1995), Quick Vegas (Chan et al.) and FAST (Jin, Wei, Low
// 2004) without a network (docs/algorithms.md): Vegas's +-1
// per RTT around [alpha, beta] and its every-other-RTT slow start; Quick Vegas's
// increment-history rule; FAST's update law (target formula, update every other RTT
// spread over one RTT, at most doubling, the fixed point w = alpha / (1 - baseRTT/RTT)),
// gamma's direction, multiplicative increase and the loss response. Windows of 100
// and 1000 packets.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <vector>

#include "../support/cc_driver.hpp"
#include "fastsim/cc/fast.hpp"
#include "fastsim/cc/quick_vegas.hpp"
#include "fastsim/cc/vegas.hpp"

using namespace fastsim;
using fastsim::testing::CcDriver;

namespace {
const Duration kBase = Duration::milliseconds(100);

/// The RTT at which a window w keeps `backlog` packets queued: w (RTT - base) / RTT = backlog.
Duration rtt_for_backlog(double w, double backlog) {
  return Duration::seconds(kBase.to_seconds() * w / (w - backlog));
}

/// A driver in congestion avoidance at window w whose baseRTT is kBase.
CcDriver at_window(const std::string& algo, double w, const std::map<std::string, double>& params = {}) {
  CcDriver d(algo, params);
  d.w = {w, 1};
  d.rtt.set_min_rtt(kBase);
  return d;
}
}  // namespace

TEST_CASE("Vegas moves the window by one packet per RTT towards [alpha, beta] queued", "[cc][vegas]") {
  for (double w0 : {100.0, 1000.0}) {
    INFO("w = " << w0);
    CcDriver d = at_window("vegas", w0);
    d.round_trip(rtt_for_backlog(w0, 1.0));  // diff 1 < alpha = 2
    CHECK(d.w.cwnd_pkts == Approx(w0 + 1));
    d.w = {w0, 1};
    d.round_trip(rtt_for_backlog(w0, 3.0));  // alpha <= 3 <= beta
    CHECK(d.w.cwnd_pkts == Approx(w0));
    d.round_trip(rtt_for_backlog(w0, 6.0));  // above beta = 4
    CHECK(d.w.cwnd_pkts == Approx(w0 - 1));
    CHECK(d.w.ssthresh_pkts <= d.w.cwnd_pkts);  // a decrease does not restart slow start
    const auto& v = dynamic_cast<const cc::Vegas&>(*d.cc);
    CHECK(v.diff() == Approx(6.0).epsilon(1e-6));
  }
  SECTION("alpha and beta move the band") {
    CcDriver d = at_window("vegas", 1000, {{"alpha", 10}, {"beta", 20}});
    d.round_trip(rtt_for_backlog(1000, 6.0));  // below the new alpha: grow
    CHECK(d.w.cwnd_pkts == Approx(1001));
  }
}

TEST_CASE("Vegas rtt_statistic: the round's minimum (Linux), ns-2's round mean, or the smoothed RTT",
          "[cc][vegas][quick-vegas]") {
  // One round of 100 ACKs at w = 100: 10 samples of 100 ms, 70 of 102 ms, 20 of 110 ms.
  std::vector<Duration> round;
  round.insert(round.end(), 10, Duration::milliseconds(100));
  round.insert(round.end(), 70, Duration::milliseconds(102));
  round.insert(round.end(), 20, Duration::milliseconds(110));
  const auto diff_at = [](double w, Duration rtt) { return w * (rtt - kBase).to_seconds() / rtt.to_seconds(); };
  SECTION("round_min: the smallest sample, no queue seen, +1") {
    CcDriver d = at_window("vegas", 100);
    d.round_trip_samples(round);
    CHECK(dynamic_cast<const cc::Vegas&>(*d.cc).diff() == Approx(0).margin(1e-9));
    CHECK(d.w.cwnd_pkts == Approx(101));
  }
  SECTION("round_mean: ns-2 averages the samples before the ACK that ends the round, which counts in the next") {
    CcDriver d("vegas", {}, {{"rtt_statistic", "round_mean"}});
    d.w = {100, 1};
    d.rtt.set_min_rtt(kBase);
    d.round_trip_samples(round);
    // (10 x 100 + 70 x 102 + 19 x 110) / 99 ms: 3.2 packets queued, inside [alpha, beta]
    const Duration mean = Duration::picoseconds(
        (Duration::milliseconds(1000) + Duration::milliseconds(7140) + Duration::milliseconds(2090)).ps() / 99);
    const auto& v = dynamic_cast<const cc::Vegas&>(*d.cc);
    CHECK(v.diff() == Approx(diff_at(100, mean)).epsilon(1e-9));
    CHECK(d.w.cwnd_pkts == Approx(100));
    // The next round's samples are all 100 ms, but its mean includes the 110-ms sample
    // of the ACK that ended the previous round.
    d.round_trip_samples(std::vector<Duration>(100, kBase));
    const Duration carried = Duration::picoseconds((Duration::milliseconds(110) + kBase * 99).ps() / 100);
    CHECK(v.diff() == Approx(diff_at(100, carried)).epsilon(1e-9));
    CHECK(v.diff() > 0.05);
  }
  SECTION("srtt: the RFC 6298 smoothed RTT, pulled up by the last samples, -1") {
    CcDriver d("vegas", {}, {{"rtt_statistic", "srtt"}});
    d.w = {100, 1};
    d.rtt.set_min_rtt(kBase);
    d.round_trip_samples(round);
    const Duration srtt = *d.rtt.view().srtt;
    const auto& v = dynamic_cast<const cc::Vegas&>(*d.cc);
    CHECK(v.diff() == Approx(diff_at(100, srtt)).epsilon(1e-9));
    CHECK(v.diff() > 4);
    CHECK(d.w.cwnd_pkts == Approx(99));
  }
  SECTION("Quick Vegas reads the same statistic") {
    CcDriver d("quick-vegas", {}, {{"rtt_statistic", "round_mean"}});
    d.w = {100, 1};
    d.rtt.set_min_rtt(kBase);
    d.round_trip_samples(std::vector<Duration>(100, Duration::milliseconds(104)));
    const double qv_diff = d.cc->trace_columns()[0].value(*d.cc);
    CHECK(qv_diff == Approx(diff_at(100, Duration::milliseconds(104))).epsilon(1e-9));
  }
}

TEST_CASE("Vegas slow start doubles every other RTT and stops once gamma packets are queued", "[cc][vegas]") {
  CcDriver d("vegas");
  d.w = {10, 1e9};
  d.rtt.set_min_rtt(kBase);
  // Growth and measuring rounds alternate; the switch happens on the ACK that ends a
  // round: 10 -> 19 (grow) -> 20 (measure; its last ACK starts growing) -> 39 -> 40.
  d.round_trips(4, kBase);  // empty path: diff = 0
  CHECK(d.w.cwnd_pkts == Approx(40));
  // A growing round (40 ACKs: 39 grow to 79) that ends with diff = 79 * 2/40 > gamma = 1:
  // slow start ends with a cut by 1/8.
  d.round_trip(rtt_for_backlog(40, 2.0));
  CHECK(d.w.cwnd_pkts == Approx(79.0 * 7 / 8));
  CHECK(d.w.ssthresh_pkts == Approx(d.w.cwnd_pkts));
}

TEST_CASE("Vegas and Quick Vegas halve on loss", "[cc][vegas][quick-vegas]") {
  for (const char* algo : {"vegas", "quick-vegas"}) {
    CcDriver d = at_window(algo, 1000);
    CHECK(d.loss().ssthresh_pkts == Approx(500));
  }
}

TEST_CASE("Quick Vegas follows the increment-history rule every other RTT", "[cc][quick-vegas]") {
  // The paper's pseudo code runs once per estimation, every other RTT ("like the updating
  // in slow-start phase": the round in between keeps the window fixed); eq. (3) grows the
  // window by (beta - diff) succ per estimation, spread as incr per ACK over one RTT.
  for (double w0 : {100.0, 1000.0}) {
    INFO("w = " << w0);
    SECTION("above beta: w drops by diff - (alpha + beta) / 2 at once, on every other round") {
      CcDriver d = at_window("quick-vegas", w0);
      d.round_trip(rtt_for_backlog(w0, 10.0));  // adjustment: 10 > beta
      CHECK(d.w.cwnd_pkts == Approx(w0 - 7));
      d.round_trip(rtt_for_backlog(w0, 10.0));  // measuring round: no adjustment
      CHECK(d.w.cwnd_pkts == Approx(w0 - 7));
    }
    SECTION("below alpha: each estimation adds (beta - diff) succ over one RTT, the next RTT holds") {
      CcDriver d = at_window("quick-vegas", w0);
      const auto& qv = dynamic_cast<const cc::QuickVegas&>(*d.cc);
      d.round_trip(kBase);  // adjustment: diff 0, succ 1, incr = 4 / w per ACK
      CHECK(qv.succ() == 1);
      CHECK(qv.incr() == Approx(4 / w0));
      // One RTT of ACKs at that increment (the ACK that ended the adjusting round is the
      // first of the next one and already carried one increment): +4 packets.
      d.round_trip(kBase);
      CHECK(d.w.cwnd_pkts == Approx(w0 + 4).epsilon(1e-12));
      CHECK(qv.incr() == 0);  // the round that follows holds the window
      d.round_trip(kBase);    // held, then the next adjustment: succ 2, incr = 8 / w
      CHECK(qv.succ() == 2);
      CHECK(qv.incr() == Approx(8 / (w0 + 4)));
      CHECK(d.w.cwnd_pkts == Approx(w0 + 4 + 8 / (w0 + 4)).epsilon(1e-12));  // only the new adjustment's first ACK
      d.round_trip(kBase);
      CHECK(d.w.cwnd_pkts == Approx(w0 + 4 + 8).epsilon(1e-12));
    }
    SECTION("between the middle and beta: -1; between alpha and the middle: +1 per estimation") {
      CcDriver d = at_window("quick-vegas", w0);
      d.round_trip(rtt_for_backlog(w0, 3.5));  // adjustment: 3 < 3.5 <= 4
      CHECK(d.w.cwnd_pkts == Approx(w0 - 1));
      CcDriver e = at_window("quick-vegas", w0);
      e.round_trip(rtt_for_backlog(w0, 2.5));  // adjustment: incr = 1/w
      e.round_trip(rtt_for_backlog(w0, 2.5));
      CHECK(e.w.cwnd_pkts == Approx(w0 + 1).epsilon(1e-12));
      e.round_trip(rtt_for_backlog(w0 + 1, 2.5));  // held; the next adjustment's first ACK adds 1/(w + 1)
      CHECK(e.w.cwnd_pkts == Approx(w0 + 1 + 1 / (w0 + 1)).epsilon(1e-12));
    }
    SECTION("a round that ends without an estimate (fewer than 3 samples) adds nothing") {
      CcDriver d = at_window("quick-vegas", w0);
      d.round_trips(2, kBase);                                // adjustment (succ 1), +4, hold
      d.round_trip_samples(std::vector<Duration>(2, kBase));  // would be the next adjustment: no estimate
      CHECK(d.w.cwnd_pkts == Approx(w0 + 4).epsilon(1e-12));
      d.round_trip(kBase);  // no increment; this round ends on a hold boundary
      CHECK(d.w.cwnd_pkts == Approx(w0 + 4).epsilon(1e-12));
    }
  }
  SECTION("(beta - diff) succ > w: incr = 1, the window at most doubles per estimation") {
    CcDriver d = at_window("quick-vegas", 3);
    const auto& qv = dynamic_cast<const cc::QuickVegas&>(*d.cc);
    d.round_trip(kBase);  // 3 ACKs; the last adjusts: 4 * 1 > 3, incr = 1 (and adds 1)
    CHECK(qv.incr() == 1.0);
    CHECK(d.w.cwnd_pkts == 4);
    // The 3 ACKs of the packets in flight at the adjustment (the first one above):
    // 3 -> 6, then the round ends and the next one holds.
    d.round_trip_samples(std::vector<Duration>(3, kBase));
    CHECK(d.w.cwnd_pkts == 6);
    d.round_trip_samples(std::vector<Duration>(5, kBase));  // held; its last ACK adjusts (succ 2, incr 1)
    CHECK(qv.succ() == 2);
    CHECK(d.w.cwnd_pkts == 7);
  }
}

TEST_CASE("FAST's target follows the published update law", "[cc][fast]") {
  cc::ParamValues p = cc::ParamValues::defaults(cc::Fast::param_specs());
  p.set("alpha", 50);
  p.set("gamma", 0.5);
  const cc::Fast fast(p);
  // target = min(2w, (1 - gamma) w + gamma (base/avg w + alpha))
  CHECK(fast.target(1000, 0.1, 0.125) == Approx(0.5 * 1000 + 0.5 * (800 + 50)));
  CHECK(fast.target(100, 0.1, 0.125) == Approx(0.5 * 100 + 0.5 * (80 + 50)));
  CHECK(fast.target(10, 0.1, 0.1) == Approx(20));  // capped at doubling: 5 + 0.5 (10 + 50) = 35 > 20
  p.set("mi_a", 0.5);
  const cc::Fast mi(p);
  CHECK(mi.target(1000, 0.1, 0.1) == Approx(0.5 * 1000 + 0.5 * (1000 + 500)));  // qdelay 0: alpha = mi_a w
  CHECK(mi.target(1000, 0.1, 0.125) == Approx(fast.target(1000, 0.1, 0.125)));  // queueing: constant alpha
}

TEST_CASE("FAST updates every other RTT, spreads the step over one RTT and reaches w = alpha/(1 - base/RTT)",
          "[cc][fast]") {
  for (double w0 : {100.0, 1000.0}) {
    INFO("w = " << w0);
    SECTION("empty path: +gamma alpha = 25 packets per update, spread over one RTT, then a frozen RTT") {
      CcDriver d = at_window("fast", w0, {{"alpha", 50}});
      std::vector<double> steps;
      for (int i = 0; i < 6; ++i) {
        const double before = d.w.cwnd_pkts;
        d.round_trip(kBase);
        steps.push_back(d.w.cwnd_pkts - before);
      }
      // The ACK that ends a round starts the next: the update begins on it.
      for (size_t i = 0; i < steps.size(); i += 2) {
        CHECK(steps[i] + steps[i + 1] == Approx(25));
        CHECK(steps[i] < 0.3);  // only that one ACK's share of the step
      }
    }
    SECTION("RTT held at 125 ms: w' = 0.9 w + 25 per update, fixed point 50 / (1 - 0.1/0.125) = 250") {
      CcDriver d = at_window("fast", w0, {{"alpha", 50}});
      const Duration rtt = Duration::milliseconds(125);
      d.round_trips(2, rtt);
      CHECK(d.w.cwnd_pkts == Approx(0.9 * w0 + 25));
      d.round_trips(2, rtt);
      CHECK(d.w.cwnd_pkts == Approx(0.9 * (0.9 * w0 + 25) + 25));
      d.round_trips(200, rtt);
      CHECK(d.w.cwnd_pkts == Approx(250).epsilon(1e-3));
    }
  }
}

TEST_CASE("FAST: a smaller gamma approaches the equilibrium more slowly", "[cc][fast]") {
  // Distance to 250 after 20 updates: 750 * (1 - 0.2 gamma)^20.
  auto distance_after = [](double gamma, int rounds) {
    CcDriver d = at_window("fast", 1000, {{"alpha", 50}, {"gamma", gamma}});
    const Duration rtt = Duration::milliseconds(125);
    for (int i = 0; i < rounds; ++i)
      d.round_trip(rtt);
    return std::abs(d.w.cwnd_pkts - 250);
  };
  const double slow = distance_after(0.1, 40);
  const double fast = distance_after(0.5, 40);
  const double full = distance_after(1.0, 40);
  CHECK(slow == Approx(750 * std::pow(0.98, 20)).epsilon(0.01));
  CHECK(fast == Approx(750 * std::pow(0.9, 20)).epsilon(0.01));
  CHECK(full == Approx(750 * std::pow(0.8, 20)).epsilon(0.01));
}

TEST_CASE("FAST halves on loss but keeps min_loss_window for large windows", "[cc][fast]") {
  CcDriver d = at_window("fast", 1000, {{"alpha", 50}});
  CHECK(d.loss().cwnd_pkts == Approx(500));
  d.w = {20, 1};
  CHECK(d.loss().cwnd_pkts == Approx(16));  // 20/2 = 10 < min_loss_window = 16 < 20
  d.w = {10, 1};
  CHECK(d.loss().cwnd_pkts == Approx(5));  // small windows halve normally
  CcDriver e = at_window("fast", 20, {{"alpha", 50}, {"min_loss_window", 4}});
  CHECK(e.loss().cwnd_pkts == Approx(10));
  CHECK(e.timeout().cwnd_pkts == Approx(1));
}

TEST_CASE("Vegas diff arithmetic: real, ns-2's rounding, Linux's truncated integers over baseRTT", "[vegas]") {
  // w = 95.5 packets, baseRTT 100 ms, RTT 105 ms: the real diff is 95.5 x 5 / 105 = 4.548;
  // ns-2 rounds it to 5 (int(4.548 + 0.5)); Linux computes 95 x 5 / 100 = 4.75 in
  // integers and truncates it to 4.
  const Duration base = Duration::milliseconds(100);
  const Duration rtt = Duration::milliseconds(105);
  CHECK(cc::vegas_diff(cc::DiffArithmetic::kExact, 95.5, base, rtt) == Approx(95.5 * 5 / 105));
  CHECK(cc::vegas_diff(cc::DiffArithmetic::kNs2, 95.5, base, rtt) == 5);
  CHECK(cc::vegas_diff(cc::DiffArithmetic::kLinux, 95.5, base, rtt) == 4);
  // Beta = 4: the same flow shrinks under ns-2 (5 > 4), holds under Linux (4) and under
  // the real value shrinks too (4.548 > 4).
  CHECK(cc::vegas_diff(cc::DiffArithmetic::kNs2, 60, base, Duration::milliseconds(104)) == 2);  // 2.31 -> 2
  CHECK(cc::vegas_diff(cc::DiffArithmetic::kNs2, 60, base, rtt) == 3);                          // 2.86 -> 3
}
