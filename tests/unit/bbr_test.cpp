// BBR v1's state machine (cc/bbr.hpp) against Linux tcp_bbr.c, driven with hand-made
// delivery-rate samples (no network): one ACK per packet-timed round or per packet, the
// sample's prior_delivered at the round's start, so the bandwidth and RTT the algorithm
// sees are exactly the ones given.
// - Startup keeps its 2.885 gain while the bandwidth grows by 25 % or more per round and
//   leaves for Drain after the third round without that growth.
// - Drain ends (ProbeBW, gain cycle) once in flight <= BDP + 3.
// - ProbeRTT starts on the first ACK after RTprop is 10 s old, caps cwnd at 4, lasts at
//   least 200 ms and a round once in flight <= 4, then restores the window.
// - ProbeBW pacing gain cycles 1.25, 0.75, 1 x 6, never starting at 0.75.
#include <catch2/catch.hpp>

#include <memory>

#include "../support/cc_driver.hpp"
#include "fastsim/cc/bbr.hpp"

using namespace fastsim;

namespace {

/// Feeds Bbr samples of a path of `bw` packets/s and RTT `rtt`.
class BbrDriver final : public cc::SenderControl {
 public:
  BbrDriver() : algo_(fastsim::testing::make_algorithm("bbr")), bbr_(static_cast<cc::Bbr&>(*algo_)) {
    algo_->attach(this);
  }
  void set_timer(Time) override {}
  void set_pacing_rate(double r) override { pacing = r; }
  void set_base_rtt(Duration) override {}
  void mark_app_limited() override { ++app_limited_marks; }

  /// One ACK at now + dt acking `acked` packets; ends a round if `round_end`.
  void ack(Duration dt, double bw, Duration rtt, uint32_t acked, bool round_end, double in_flight) {
    now = now + dt;
    rtt_view.srtt = rtt;
    cc::RateSample rs;
    rs.acked_sacked = acked;
    // A round-ending ACK acks a packet sent after everything before it was delivered; the
    // others, packets sent at the start (before any round's end was set).
    rs.prior_delivered = round_end ? delivered : 0;
    delivered += acked;
    rs.flow_delivered = delivered;
    rs.delivery_rate = bw;
    rs.valid = true;
    rs.interval = rtt;
    rs.delivered = static_cast<uint64_t>(bw * rtt.to_seconds());
    rs.rtt = rtt;
    cc::AckEvent ev;
    ev.newly_acked = acked;
    ev.rtt_sample = rtt;
    ev.rate = &rs;
    cc::FlowView v;
    v.now = now;
    v.in_flight_pkts = in_flight;
    v.rtt = &rtt_view;
    algo_->on_ack(v, w, ev);
  }

  std::unique_ptr<cc::CongestionControl> algo_;
  cc::Bbr& bbr_;
  cc::Window w;
  cc::RttView rtt_view;
  Time now = Time::zero();
  uint64_t delivered = 0;
  double pacing = 0;
  int app_limited_marks = 0;
};

constexpr Duration kRtt = Duration::milliseconds(100);

}  // namespace

TEST_CASE("BBR Startup exits after three rounds without 25 % bandwidth growth", "[cc][bbr]") {
  BbrDriver d;
  const cc::Bbr& b = d.bbr_;
  CHECK(b.pacing_gain() == Approx(2.885));
  CHECK(b.cwnd_gain() == Approx(2.885));
  double bw = 100;
  for (int r = 0; r < 6; ++r) {  // doubling every round: stays in Startup
    d.ack(kRtt, bw, kRtt, 10, true, 50);
    bw *= 2;
    CHECK(b.mode() == cc::Bbr::Mode::kStartup);
  }
  const double plateau = bw;
  // In flight 2000 > BDP + 3 (768 + 3 packets at the plateau): Drain lasts.
  d.ack(kRtt, plateau, kRtt, 10, true, 2000);        // a last 25 % rise: the new reference
  d.ack(kRtt, plateau * 1.2, kRtt, 10, true, 2000);  // + 20 %: one round without growth
  CHECK(b.mode() == cc::Bbr::Mode::kStartup);
  d.ack(kRtt, plateau * 1.2, kRtt, 10, true, 2000);  // two
  CHECK(b.mode() == cc::Bbr::Mode::kStartup);
  CHECK_FALSE(b.full_bw_reached());
  d.ack(kRtt, plateau * 1.2, kRtt, 10, true, 2000);  // three: pipe full, Drain
  CHECK(b.full_bw_reached());
  CHECK(b.mode() == cc::Bbr::Mode::kDrain);
  CHECK(b.pacing_gain() == Approx(1 / 2.885));
  CHECK(d.pacing == Approx(plateau * 1.2 / 2.885 * 0.99));
}

TEST_CASE("BBR Drain ends at one BDP in flight; ProbeBW cycles its gains", "[cc][bbr]") {
  BbrDriver d;
  const cc::Bbr& b = d.bbr_;
  const double bw = 1000;  // BDP = 100 packets at 100 ms
  for (int r = 0; r < 4; ++r)
    d.ack(kRtt, bw, kRtt, 10, true, 300);
  REQUIRE(b.mode() == cc::Bbr::Mode::kDrain);
  CHECK(b.target_cwnd(1) == 104);  // BDP + 3, rounded up to even
  d.ack(Duration::milliseconds(1), bw, kRtt, 1, false, 105);
  CHECK(b.mode() == cc::Bbr::Mode::kDrain);
  d.ack(Duration::milliseconds(1), bw, kRtt, 1, false, 104);
  REQUIRE(b.mode() == cc::Bbr::Mode::kProbeBw);
  CHECK(b.pacing_gain() != Approx(0.75));
  CHECK(b.cwnd_gain() == 2);
  // One phase per RTprop (in flight at 1.25 BDP lets the 1.25 phase end on time).
  std::vector<double> gains{b.pacing_gain()};
  for (int i = 0; i < 16; ++i) {
    d.ack(Duration::milliseconds(101), bw, kRtt, 10, true, 130);
    gains.push_back(b.pacing_gain());
  }
  int probes = 0;
  for (size_t i = 0; i + 1 < gains.size(); ++i) {
    if (gains[i] == 1.25) {
      ++probes;
      CHECK(gains[i + 1] == 0.75);
    }
  }
  CHECK(probes == 2);  // 17 phases: the 8-phase cycle twice
}

TEST_CASE("BBR enters ProbeRTT when RTprop is 10 s old and holds cwnd 4 for >= 200 ms and a round", "[cc][bbr]") {
  BbrDriver d;
  const cc::Bbr& b = d.bbr_;
  const double bw = 1000;
  for (int r = 0; r < 5; ++r)
    d.ack(kRtt, bw, kRtt, 10, true, 100);
  const Time stamp = d.now;  // the last time the RTT matched the minimum
  const Duration higher = Duration::milliseconds(120);
  while (d.now + Duration::milliseconds(10) <= stamp + Duration::seconds_int(10)) {
    d.ack(Duration::milliseconds(10), bw, higher, 1, false, 100);
    REQUIRE(b.mode() != cc::Bbr::Mode::kProbeRtt);
  }
  const double cwnd_before = d.w.cwnd_pkts;
  REQUIRE(cwnd_before > 100);
  d.ack(Duration::milliseconds(10), bw, higher, 1, false, 100);  // now > stamp + 10 s
  REQUIRE(b.mode() == cc::Bbr::Mode::kProbeRtt);
  CHECK(d.w.cwnd_pkts == 4);
  CHECK(b.pacing_gain() == 1);
  CHECK(d.app_limited_marks > 0);
  CHECK(b.min_rtt() == higher);  // the expired minimum takes the current sample
  // In flight drains to 4: the 200 ms start now.
  d.ack(Duration::milliseconds(10), bw, higher, 1, false, 4);
  const Time low = d.now;
  while (d.now < low + Duration::milliseconds(200)) {
    d.ack(Duration::milliseconds(10), bw, higher, 1, d.now >= low + Duration::milliseconds(100), 4);
    REQUIRE(b.mode() == cc::Bbr::Mode::kProbeRtt);
    CHECK(d.w.cwnd_pkts == 4);
  }
  d.ack(Duration::milliseconds(10), bw, higher, 1, false, 4);  // 210 ms and a round: done
  CHECK(b.mode() == cc::Bbr::Mode::kProbeBw);
  CHECK(d.w.cwnd_pkts >= cwnd_before);  // the window before ProbeRTT is restored
}

TEST_CASE("BBR's round counts must be whole numbers", "[cc][bbr]") {
  const cc::AlgorithmInfo* info = cc::find_algorithm("bbr");
  REQUIRE(info != nullptr);
  cc::ParamValues v = cc::ParamValues::defaults(info->params);
  CHECK(info->check(v).empty());
  v.set("full_bw_rounds", 2.5);
  const auto issues = info->check(v);
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].first == "full_bw_rounds");
}
