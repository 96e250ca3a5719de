// Compound TCP (Tan et al. 2006) and CUBIC (RFC 8312) without a network (docs/algorithms.md):
// CTCP's dwnd grows by alpha w^k - 1 per RTT while the backlog is below gamma and
// shrinks by zeta * backlog above it, its loss rule, at w = 1000 and w = 10000;
// CUBIC's W(t) = C (t - K)^3 + W_max with K = cbrt(W_max (1 - beta) / C), the
// TCP-friendly region and fast convergence; and each parameter's direction.
#include <catch2/catch.hpp>

#include <cmath>
#include <optional>

#include "../support/cc_driver.hpp"
#include "fastsim/cc/ctcp.hpp"
#include "fastsim/cc/cubic.hpp"
#include "fastsim/cc/hystart.hpp"
#include "fastsim/tcp/rtt_estimator.hpp"

using namespace fastsim;
using fastsim::testing::CcDriver;

namespace {
const Duration kBase = Duration::milliseconds(100);

const cc::Compound& compound(const CcDriver& d) {
  return dynamic_cast<const cc::Compound&>(*d.cc);
}
const cc::Cubic& cubic(const CcDriver& d) {
  return dynamic_cast<const cc::Cubic&>(*d.cc);
}

/// A CTCP flow in congestion avoidance at window w with baseRTT known.
CcDriver ctcp_at(double w, const std::map<std::string, double>& params = {}) {
  CcDriver d("ctcp", params);
  d.w = {w, 1};
  d.round_trip(kBase);  // the first round only records the window
  d.w.cwnd_pkts = w;
  return d;
}

/// The RTT at which a window w keeps `backlog` packets queued: w (RTT - base) / RTT = backlog.
Duration rtt_for_backlog(double w, double backlog) {
  return Duration::picoseconds(static_cast<int64_t>(static_cast<double>(kBase.ps()) * w / (w - backlog)));
}
}  // namespace

TEST_CASE("CTCP grows by alpha w^k per RTT while the backlog is below gamma", "[cc][ctcp]") {
  for (double w : {1000.0, 10000.0}) {
    CcDriver d = ctcp_at(w);
    d.round_trip(kBase);
    const double expected = 0.125 * std::pow(w, 0.75);  // dwnd: alpha w^k - 1; wnd: +1
    INFO("w = " << w << ": +" << d.w.cwnd_pkts - w << " per RTT, alpha w^k = " << expected);
    CHECK(d.w.cwnd_pkts - w == Approx(expected).epsilon(0.01));
    CHECK(compound(d).dwnd() == Approx(expected - 1).epsilon(0.01));
  }
}

TEST_CASE("CTCP shrinks dwnd by the backlog once it exceeds gamma, then grows like Reno", "[cc][ctcp]") {
  for (double w : {1000.0, 10000.0}) {
    CcDriver d = ctcp_at(w);
    d.round_trips(3, kBase);
    const double dwnd0 = compound(d).dwnd();
    const double w0 = d.w.cwnd_pkts;
    REQUIRE(dwnd0 > 60);
    d.round_trip(rtt_for_backlog(w0, 50));  // a backlog of ~50 > gamma = 30
    const double dwnd1 = compound(d).dwnd();
    INFO("w = " << w << ": dwnd " << dwnd0 << " -> " << dwnd1);
    CHECK(dwnd0 - dwnd1 == Approx(50).epsilon(0.03));
    d.round_trips(50, rtt_for_backlog(w0, 50));
    CHECK(compound(d).dwnd() == 0);
    const double before = d.w.cwnd_pkts;
    d.round_trip(rtt_for_backlog(w0, 50));
    CHECK(d.w.cwnd_pkts - before == Approx(1).epsilon(0.02));  // only wnd grows: Reno
  }
}

TEST_CASE("CTCP loss: wnd halves, dwnd = max(w (1 - beta) - wnd/2, 0)", "[cc][ctcp]") {
  for (double w : {1000.0, 10000.0}) {
    CcDriver d = ctcp_at(w);
    d.round_trips(4, kBase);
    const double total = d.w.cwnd_pkts;
    const double dwnd = compound(d).dwnd();
    const double wnd = total - dwnd;
    const double expected = wnd / 2 + std::max(total * 0.5 - wnd / 2, 0.0);
    CHECK(d.loss().ssthresh_pkts == Approx(expected));
    CHECK(compound(d).dwnd() == Approx(std::max(total * 0.5 - wnd / 2, 0.0)));
    // without a delay window the loss rule is Reno's halving
    CcDriver reno_like = ctcp_at(w);
    CHECK(reno_like.loss().ssthresh_pkts == Approx(w / 2));
  }
}

TEST_CASE("CTCP parameters move the response in the documented direction", "[cc][ctcp]") {
  const double w = 1000;
  auto growth = [&](const std::map<std::string, double>& p, Duration rtt) {
    CcDriver d = ctcp_at(w, p);
    d.round_trip(rtt);
    return d.w.cwnd_pkts - w;
  };
  CHECK(growth({{"alpha", 0.25}}, kBase) == Approx(2 * 0.125 * std::pow(w, 0.75)).epsilon(0.01));
  CHECK(growth({{"k", 0.8}}, kBase) > growth({}, kBase) * 1.3);
  // gamma: a backlog of 40 packets shrinks the window at gamma = 30 and not at gamma = 50
  CHECK(growth({}, rtt_for_backlog(w, 40)) < 1.5);
  CHECK(growth({{"gamma", 50}}, rtt_for_backlog(w, 40)) > 20);
  // zeta: the decrease per packet of backlog
  auto shrink = [&](double zeta) {
    CcDriver d = ctcp_at(w, {{"zeta", zeta}});
    d.round_trips(4, kBase);
    const double before = compound(d).dwnd();
    d.round_trip(rtt_for_backlog(d.w.cwnd_pkts, 40));
    return before - compound(d).dwnd();
  };
  CHECK(shrink(0.5) == Approx(20).epsilon(0.05));
  CHECK(shrink(1.0) == Approx(40).epsilon(0.05));
  // beta: the share of the whole window removed at a loss
  auto after_loss = [&](double beta) {
    CcDriver d = ctcp_at(w, {{"beta", beta}});
    d.round_trips(10, kBase);
    const double before = d.w.cwnd_pkts;
    return d.loss().ssthresh_pkts / before;
  };
  CHECK(after_loss(0.3) > after_loss(0.5));
}

TEST_CASE("CTCP low_window: below it dwnd is 0 and the window grows like Reno", "[cc][ctcp]") {
  const std::map<std::string, double> low{{"low_window", 38}};
  // w = 30 < 38: five rounds exactly as Reno's (about one packet each), no dwnd; without
  // the switch dwnd grows by alpha 30^0.75 - 1 = 0.60 per round.
  CcDriver below = ctcp_at(30, low);
  CcDriver reno("reno");
  reno.w = {30, 1};
  for (int round = 0; round < 5; ++round) {
    below.round_trip(kBase);
    reno.round_trip(kBase);
  }
  CHECK(below.w.cwnd_pkts == Approx(reno.w.cwnd_pkts).epsilon(1e-12));
  CHECK(below.w.cwnd_pkts > 34.5);
  CHECK(compound(below).dwnd() == 0);
  // (The round's window is between w and w + 2: ctcp_at's first round has already grown wnd.)
  auto dwnd_step = [](double w) { return 0.125 * std::pow(w, 0.75) - 1; };
  CcDriver off = ctcp_at(30);
  off.round_trip(kBase);
  CHECK(compound(off).dwnd() >= dwnd_step(30));
  CHECK(compound(off).dwnd() <= dwnd_step(32));
  // w = 50 >= 38: the delay window works as usual.
  CcDriver above = ctcp_at(50, low);
  above.round_trip(kBase);
  CHECK(compound(above).dwnd() >= dwnd_step(50));
  CHECK(compound(above).dwnd() <= dwnd_step(52));
  // A loss that leaves the window below 38 with some dwnd: dwnd is dropped at the next
  // round end, and the window is the loss window alone.
  CcDriver cut = ctcp_at(60, low);
  cut.round_trips(4, kBase);
  const double dwnd = compound(cut).dwnd();
  const double wnd = cut.w.cwnd_pkts - dwnd;
  REQUIRE(dwnd > 5);
  const double total = cut.loss().cwnd_pkts;  // wnd / 2 + (w / 2 - wnd / 2) = w / 2 < 38
  REQUIRE(total < 38);
  REQUIRE(compound(cut).dwnd() > 0);
  cut.w.cwnd_pkts = total;
  cut.round_trip(kBase);
  CHECK(compound(cut).dwnd() == 0);
  CHECK(cut.w.cwnd_pkts == Approx(wnd / 2 + 1).epsilon(0.01));
  // TUBE takes no diff_reno below low_window (as the Linux module), one above it.
  for (const double w : {30.0, 50.0}) {
    CcDriver tube("ctcp", low, {{"tube", "on"}});
    tube.w = {w, 1};
    tube.round_trip(kBase);
    tube.w.cwnd_pkts = w;
    tube.round_trips(2, kBase);
    CHECK(compound(tube).diff_reno().has_value() == (w > 38));
  }
}

TEST_CASE("CTCP timeout empties dwnd and restarts from one packet", "[cc][ctcp]") {
  CcDriver d = ctcp_at(1000);
  d.round_trips(4, kBase);
  REQUIRE(compound(d).dwnd() > 0);
  const auto r = d.timeout();
  CHECK(r.cwnd_pkts == 1);
  CHECK(compound(d).dwnd() == 0);
}

namespace {
/// CUBIC after a loss at w_max: returns the driver positioned at the loss.
CcDriver cubic_after_loss(double w_max, const std::map<std::string, double>& p = {}) {
  CcDriver d("cubic", p);
  d.w = {w_max, 1};
  d.loss();
  return d;
}
/// Runs rounds of `rtt` until `t` seconds after the epoch start (the first ACK).
void run_for(CcDriver& d, double t, Duration rtt) {
  const Time start = d.now;
  while ((d.now - start).to_seconds() < t)
    d.round_trip(rtt);
}
}  // namespace

namespace {
/// CTCP with TUBE in congestion avoidance at w = 1000, dwnd grown over 3 rounds.
CcDriver ctcp_tube(const std::string& tube) {
  CcDriver d("ctcp", {}, {{"tube", tube}});
  d.w = {1000, 1};
  d.round_trip(kBase);
  d.w.cwnd_pkts = 1000;
  d.round_trips(3, kBase);
  return d;
}
/// The backlog of a window w at RTT rtt: w (rtt - base) / rtt.
double backlog(double w, Duration rtt) {
  return w * (rtt.to_seconds() - kBase.to_seconds()) / rtt.to_seconds();
}
}  // namespace

TEST_CASE("CTCP TUBE: at a loss gamma = (1 - lambda) gamma + lambda 3/4 diff_reno, within [5, 30]", "[cc][ctcp]") {
  CcDriver d = ctcp_tube("on");
  REQUIRE(compound(d).gamma() == 30);
  // diff_reno: the backlog of the loss window wnd (at the round's start) alone.
  double wnd = d.w.cwnd_pkts - compound(d).dwnd();
  Duration rtt = rtt_for_backlog(d.w.cwnd_pkts, 20);  // 20 queued by the whole window
  d.round_trip(rtt);
  REQUIRE(compound(d).diff_reno());
  CHECK(*compound(d).diff_reno() == Approx(backlog(wnd, rtt)).epsilon(1e-9));
  const double sample1 = 0.75 * *compound(d).diff_reno();
  d.loss();
  const double gamma1 = 0.2 * 30 + 0.8 * sample1;  // lambda = 0.8
  INFO("diff_reno " << sample1 / 0.75 << ", gamma " << gamma1);
  CHECK(compound(d).gamma() == Approx(gamma1).epsilon(1e-12));
  CHECK(gamma1 > 5);
  CHECK(gamma1 < 30);
  // diff_reno is spent: a second loss with no round in between leaves gamma alone.
  CHECK_FALSE(compound(d).diff_reno());
  d.loss();
  CHECK(compound(d).gamma() == Approx(gamma1).epsilon(1e-12));
  // The round after a loss is not measured; an empty queue then gives a sample of 0:
  // 0.2 gamma1 < 5, clamped to gamma_low = 5.
  d.round_trip(kBase);
  CHECK_FALSE(compound(d).diff_reno());
  d.round_trip(kBase);
  REQUIRE(compound(d).diff_reno());
  CHECK(*compound(d).diff_reno() == Approx(0).margin(1e-9));
  d.loss();
  CHECK(0.2 * gamma1 < 5);
  CHECK(compound(d).gamma() == 5);
  // A large backlog: 0.2 x 5 + 0.8 x 3/4 diff_reno > 30, clamped to gamma_high = 30.
  d.round_trip(kBase);
  wnd = d.w.cwnd_pkts - compound(d).dwnd();
  rtt = kBase * 2;  // half of the window queued
  d.round_trip(rtt);
  REQUIRE(compound(d).diff_reno());
  CHECK(*compound(d).diff_reno() == Approx(backlog(wnd, rtt)).epsilon(1e-9));
  CHECK(0.2 * 5 + 0.8 * 0.75 * backlog(wnd, rtt) > 30);
  d.loss();
  CHECK(compound(d).gamma() == 30);
  SECTION("tube_lambda weighs the new sample") {
    CcDriver e("ctcp", {{"tube_lambda", 0.25}}, {{"tube", "on"}});
    e.w = {1000, 1};
    e.round_trip(kBase);
    e.w.cwnd_pkts = 1000;
    e.round_trips(3, kBase);
    e.round_trip(rtt_for_backlog(e.w.cwnd_pkts, 20));
    const double sample = 0.75 * *compound(e).diff_reno();
    e.loss();
    CHECK(compound(e).gamma() == Approx(0.75 * 30 + 0.25 * sample).epsilon(1e-12));
  }
}

TEST_CASE("CTCP TUBE: the tuned gamma is the threshold dwnd obeys; off keeps gamma fixed", "[cc][ctcp]") {
  std::map<std::string, double> dwnd_change;
  for (const std::string tube : {"on", "off"}) {
    CcDriver d = ctcp_tube(tube);
    d.round_trip(rtt_for_backlog(d.w.cwnd_pkts, 20));
    d.loss();             // TUBE: gamma ~ 17
    d.round_trip(kBase);  // the round after the loss is not measured
    const double before = compound(d).dwnd();
    REQUIRE(before > 0);
    d.round_trip(rtt_for_backlog(d.w.cwnd_pkts, 25));  // 25 queued: above ~17, below 30
    dwnd_change[tube] = compound(d).dwnd() - before;
    INFO("tube " << tube << ": gamma " << compound(d).gamma() << ", dwnd " << before << " -> " << compound(d).dwnd());
    CHECK(compound(d).gamma() == Approx(tube == "on" ? 17.0 : 30.0).margin(tube == "on" ? 1.5 : 0.0));
    CHECK(d.cc->trace_columns().size() == (tube == "on" ? 4U : 3U));  // ct_gamma only with TUBE
  }
  CHECK(dwnd_change["on"] < 0);   // shrinks: 25 >= gamma
  CHECK(dwnd_change["off"] > 0);  // grows: 25 < 30
}

TEST_CASE("CUBIC HyStart (Linux): an ACK train longer than delay_min / 2 ends slow start", "[cc][cubic][hystart]") {
  // 100 ACKs 1 ms apart (< 2 ms: one train), every sample 100 ms: the train exceeds
  // 50 ms at the 52nd ACK, when slow start has grown the window from 100 to 151.
  CcDriver d("cubic", {}, {{"hystart", "linux"}});
  d.w = {100, cc::kInfiniteSsthresh};
  d.round_trip(kBase);
  CHECK(cubic(d).hystart().found());
  CHECK(d.w.ssthresh_pkts == 151);
  CHECK(cubic(d).hystart().exit_window() == 151);
  CcDriver off("cubic");
  off.w = {100, cc::kInfiniteSsthresh};
  off.round_trip(kBase);
  CHECK(cc::is_infinite_ssthresh(off.w.ssthresh_pkts));
  CHECK(off.w.cwnd_pkts == 200);
}

TEST_CASE("CUBIC HyStart (Linux): a round's first samples above delay_min + clamp(delay_min / 8, 4 ms, 16 ms)",
          "[cc][cubic][hystart]") {
  // 20 packets at the start, delayed ACKs (2 packets each; > 2 ms apart while a train
  // could matter). A HyStart round begins with the ACK that ends the sender's round,
  // whose sample counts in it; the test uses the smallest of its samples once more
  // than 8 were taken.
  for (const auto& [base_ms, threshold_ms] : {std::pair{100, 12.5}, std::pair{200, 16.0}}) {
    INFO("delay_min " << base_ms << " ms, threshold +" << threshold_ms << " ms");
    const Duration base = Duration::milliseconds(base_ms);
    const Duration below = base + Duration::seconds(threshold_ms * 1e-3 - 0.0005);
    const Duration above = base + Duration::seconds(threshold_ms * 1e-3 + 0.0005);
    CcDriver d("cubic", {}, {{"hystart", "linux"}});
    d.w = {20, cc::kInfiniteSsthresh};
    d.round_trip(base, 2);   // 20 -> 40
    d.round_trip(below, 2);  // 40 -> 80: not above the threshold
    CHECK_FALSE(cubic(d).hystart().found());
    d.round_trip(above, 2);  // 80 -> 160: its HyStart round began with a `below` sample
    CHECK_FALSE(cubic(d).hystart().found());
    CHECK(d.w.cwnd_pkts == 160);
    d.round_trip(above, 2);  // the 9th sample (8th ACK) of the next round: 160 + 7 x 2
    CHECK(cubic(d).hystart().found());
    CHECK(d.w.ssthresh_pkts == 174);
  }
}

TEST_CASE("CUBIC HyStart (Linux): the ACK train's threshold includes hystart_ack_delay", "[cc][cubic][hystart]") {
  // delay_min 4 ms, 100 ACKs 40 us apart: TCP's slow-start pacing rate 2 mss cwnd / srtt
  // (73 MB/s at cwnd 100) makes 4 x 64 KB / rate more than 1 ms, so the cushion is 1 ms and
  // the train must last (4 + 1) / 2 = 2.5 ms: the 64th ACK (63 x 40 us), cwnd 163 (with
  // delay_min / 2 alone it was the 52nd, 151).
  CcDriver d("cubic", {}, {{"hystart", "linux"}});
  d.w = {100, cc::kInfiniteSsthresh};
  d.round_trip(Duration::milliseconds(4));
  CHECK(cubic(d).hystart().found());
  CHECK(d.w.ssthresh_pkts == 163);
}

TEST_CASE("CUBIC HyStart (Linux): a paced sender's ACK train must last the whole delay_min + ack_delay",
          "[cc][cubic][hystart]") {
  // The round of the test above (delay_min 4 ms, 100 ACKs 40 us apart) with the pacing
  // switch on: Linux does not halve the threshold when sk_pacing_status is set, so the
  // train needs 5 ms and the 3.96-ms round ends without an exit; unpaced it exits at 163.
  for (const bool paced : {true, false}) {
    CAPTURE(paced);
    cc::Hystart hy;
    cc::Window w{100, cc::kInfiniteSsthresh};
    tcp::RttEstimator rtt{Duration::seconds_int(1), Duration::milliseconds(200), Duration::seconds_int(60)};
    Time now = Time::zero();
    const Duration sample = Duration::milliseconds(4);
    for (int i = 0; i < 100 && !hy.found(); ++i) {
      now = now + Duration::microseconds(40);
      rtt.add_sample(sample);
      cc::FlowView v;
      v.now = now;
      v.in_flight_pkts = w.cwnd_pkts;
      v.rtt = &rtt.view();
      v.paced = paced;
      cc::AckEvent ev;
      ev.newly_acked = 1;
      ev.rtt_sample = sample;
      hy.on_ack(v, w, ev, false);
      if (!hy.found())
        w.cwnd_pkts += 1;  // slow start, one packet per ACK
    }
    CHECK(hy.found() == !paced);
    if (!paced)
      CHECK(w.ssthresh_pkts == 163);
  }
}

TEST_CASE("CUBIC asks for the sender's TX_START event (its epoch moves on after idle)", "[cc][cubic]") {
  CHECK(fastsim::testing::make_algorithm("cubic")->wants_tx_start());
  CHECK_FALSE(fastsim::testing::make_algorithm("reno")->wants_tx_start());
}

TEST_CASE("CUBIC HyStart (Linux): a round boundary on an ACK without an RTT sample still starts a round",
          "[cc][cubic][hystart]") {
  // Linux begins a round at the first ACK with a sample past the round's end. A round of 10
  // ACKs 10 ms apart (no train) at 100 ms; its boundary ACK carries no sample (Karn); the
  // next ACKs' samples are far above the delay threshold: the new round's minimum exceeds
  // it once 8 have been taken. (Carried on in the old round, its 100-ms samples would keep
  // the round's minimum below the threshold: no exit.)
  CcDriver d("cubic", {}, {{"hystart", "linux"}});
  d.w = {20, cc::kInfiniteSsthresh};
  d.round_trip(kBase, 2);  // 20 -> 40; delay_min 100 ms
  auto ack = [&d](std::optional<Duration> sample, bool round_start) {
    d.now = d.now + Duration::milliseconds(10);
    cc::AckEvent ev;
    ev.newly_acked = 2;
    ev.rtt_sample = sample;
    ev.round_start = round_start;
    d.cc->on_ack(d.view(), d.w, ev);
  };
  for (int i = 0; i < 9; ++i)
    ack(kBase, false);
  ack(std::nullopt, true);  // the boundary, without a sample
  ack(Duration::milliseconds(150), false);
  CHECK_FALSE(cubic(d).hystart().found());
  for (int i = 0; i < 8; ++i)
    ack(Duration::milliseconds(150), false);
  CHECK(cubic(d).hystart().found());
}

TEST_CASE("CUBIC: after an idle period the epoch moves on by the idle time (Linux CA_EVENT_TX_START)",
          "[cc][cubic]") {
  // Two flows at the same point of one epoch (1 s in); one then idles 20 s (the
  // application had nothing to send) and resumes: its window grows as the other's does
  // over the next round, instead of jumping towards W(21 s) at 0.5 per packet.
  CcDriver busy = cubic_after_loss(1000);
  CcDriver idle = cubic_after_loss(1000);
  run_for(busy, 1.0, kBase);
  run_for(idle, 1.0, kBase);
  REQUIRE(busy.w.cwnd_pkts == idle.w.cwnd_pkts);
  const double before = idle.w.cwnd_pkts;
  idle.now = idle.now + Duration::seconds_int(20);
  idle.cc->on_tx_start(idle.view(), Duration::seconds_int(20));
  busy.round_trip(kBase);
  idle.round_trip(kBase);
  INFO("busy " << busy.w.cwnd_pkts << ", after idle " << idle.w.cwnd_pkts << ", before " << before);
  CHECK(idle.w.cwnd_pkts == Approx(busy.w.cwnd_pkts).epsilon(1e-9));
  CHECK(idle.w.cwnd_pkts - before < 0.1 * before);
  // Without the shift (no call) the pause counts in t: the window grows by half of itself.
  CcDriver counted = cubic_after_loss(1000);
  run_for(counted, 1.0, kBase);
  counted.now = counted.now + Duration::seconds_int(20);
  counted.round_trip(kBase);
  CHECK(counted.w.cwnd_pkts > 1.4 * before);
}

TEST_CASE("CUBIC follows W(t) = C (t - K)^3 + W_max at w = 1000 and w = 10000", "[cc][cubic]") {
  for (double w_max : {1000.0, 10000.0}) {
    const double K = std::cbrt(w_max * (1 - 0.7) / 0.4);
    CcDriver d = cubic_after_loss(w_max);
    CHECK(d.w.cwnd_pkts == Approx(0.7 * w_max));  // cut to beta W_max
    d.round_trip(kBase);                          // the epoch starts
    CHECK(cubic(d).k_seconds() == Approx(K).epsilon(1e-9));
    CHECK(cubic(d).w_max() == Approx(w_max));
    const Time epoch = d.now - kBase;
    for (double frac : {0.5, 1.0, 1.5}) {
      while ((d.now - epoch).to_seconds() < frac * K)
        d.round_trip(kBase);
      const double t = (d.now - epoch).to_seconds();
      const double W = 0.4 * std::pow(t - K, 3) + w_max;
      INFO("W_max " << w_max << ", t = " << t << " s (K = " << K << "): cwnd " << d.w.cwnd_pkts << ", W(t) " << W);
      CHECK(d.w.cwnd_pkts == Approx(W).epsilon(0.01));
    }
  }
}

TEST_CASE("CUBIC uses the TCP-friendly window when it is larger", "[cc][cubic]") {
  // RTT 2 ms: Reno-equivalent growth 3 (1 - beta)/(1 + beta) per RTT outruns the cubic curve.
  const Duration rtt = Duration::milliseconds(2);
  const double w_max = 1000;
  CcDriver on = cubic_after_loss(w_max);
  CcDriver off = cubic_after_loss(w_max, {{"tcp_friendly", 0}});
  run_for(on, 0.5, rtt);
  run_for(off, 0.5, rtt);
  const double w_est = 700 + 3 * 0.3 / 1.7 * 0.5 / 0.002;
  const double K = std::cbrt(750.0);
  const double w_cubic = 0.4 * std::pow(0.5 - K, 3) + w_max;
  INFO("friendly " << on.w.cwnd_pkts << " (W_est " << w_est << "), pure " << off.w.cwnd_pkts << " (W " << w_cubic
                   << ")");
  CHECK(on.w.cwnd_pkts == Approx(w_est).epsilon(0.02));
  CHECK(off.w.cwnd_pkts == Approx(w_cubic).epsilon(0.02));
}

TEST_CASE("CUBIC fast convergence lowers W_max after a loss below the previous one", "[cc][cubic]") {
  for (double fc : {1.0, 0.0}) {
    CcDriver d = cubic_after_loss(1000, {{"fast_convergence", fc}});
    d.w.cwnd_pkts = 800;
    d.loss();
    d.round_trip(kBase);
    CHECK(cubic(d).w_max() == Approx(fc == 1.0 ? 800 * 1.7 / 2 : 800));
  }
}

TEST_CASE("CUBIC parameters move the response in the documented direction", "[cc][cubic]") {
  CcDriver base = cubic_after_loss(1000), steep = cubic_after_loss(1000, {{"c", 1.6}});
  base.round_trip(kBase);
  steep.round_trip(kBase);
  CHECK(steep.cc->trace_columns().size() == 2);
  CHECK(cubic(steep).k_seconds() == Approx(cubic(base).k_seconds() / std::cbrt(4.0)));
  run_for(base, 3, kBase);
  run_for(steep, 3, kBase);
  CHECK(steep.w.cwnd_pkts > base.w.cwnd_pkts);
  CcDriver deep = cubic_after_loss(1000, {{"beta", 0.5}});
  CHECK(deep.w.cwnd_pkts == Approx(500));
  CcDriver to("cubic");
  CHECK(to.timeout().ssthresh_pkts == Approx(700));  // beta W, then slow start from 1
  CHECK(to.w.cwnd_pkts == 1);
}
