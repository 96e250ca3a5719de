// Delivery-rate sampling (tcp/rate_sampler.hpp) and the `pacing` switch, on one scripted
// sender (tests/support/sender_harness.hpp):
// - behind a modelled 1000 packet/s bottleneck (each packet leaves it 1 ms after the
//   previous one or after its own arrival, its ACK returns 20 ms later) kept busy by a
//   fixed window of 80 packets, every sample taken after the first three flights equals the
//   bottleneck rate (a sender that sends slower than the bottleneck, as BBR in Drain,
//   gets its send rate: the interval is the longer of the send and ACK phases);
// - data sent after the application paused is marked app-limited;
// - with `pacing`, a Reno flow's packets leave srtt / (ratio * cwnd) apart, ratio 1.2 in
//   congestion avoidance and 2 in slow start (Linux tcp_update_pacing_rate).
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <vector>

#include "../support/sender_harness.hpp"

using namespace fastsim;
using fastsim::testing::SenderHarness;

namespace {

struct BottleneckRun {
  // Valid samples of the ACKs after the first 200 packets. Earlier ones span the first RTT,
  // in which the bottleneck idled, or start at the burst the first ACK released (packets
  // 10 to 80, all sent at 21 ms): the send phase of a packet clocked out by their ACKs
  // starts at 21 ms, so its sample reports the send rate since then, below the bottleneck's.
  std::vector<cc::RateSample> samples;
};

/// Drives `h` (already started) through a 1 packet/ms bottleneck with a 20 ms return path,
/// one ACK per packet, until `packets` are acked.
BottleneckRun through_bottleneck(SenderHarness& h, uint64_t packets) {
  BottleneckRun run;
  const Duration service = Duration::milliseconds(1);
  const Duration back = Duration::milliseconds(20);
  Time last_departure = Time::zero();
  for (uint64_t k = 0; k < packets; ++k) {
    for (int step = 0; h.sent().size() <= k && step < 100000; ++step)  // paced: let it send packet k
      h.advance(Duration::microseconds(100));
    REQUIRE(h.sent().size() > k);
    const Time arrival = h.sent()[k].at;
    last_departure = std::max(last_departure, arrival) + service;
    h.run_until(last_departure + back);
    h.ack(k + 1);
    const cc::RateSample& rs = h.sender().rate_sampler()->last_sample();
    if (k >= 200 && rs.valid)
      run.samples.push_back(rs);
  }
  return run;
}

}  // namespace

/// A fixed window of 80 packets that asks for rate samples. The path's BDP is 21 packets,
/// but the bottleneck idles for 11 ms of the first RTT (the initial window is served in
/// 10 ms, the first ACK returns at 21 ms); a pure ACK clock keeps that gap circulating
/// unless the window exceeds the 51 packets of the resulting cycle (a window of 40
/// delivers 40 per 51 ms, which the samples then report). 80 closes it at once.
class FixedWindow final : public cc::CongestionControl {
 public:
  [[nodiscard]] bool wants_rate_samples() const override { return true; }
  void on_ack(const cc::FlowView&, cc::Window& w, const cc::AckEvent&) override { w.cwnd_pkts = 80; }
  [[nodiscard]] cc::LossResponse on_loss(const cc::FlowView&, const cc::Window&) override { return {80, 80}; }
};

TEST_CASE("rate samples equal the bottleneck rate on a saturated path", "[tcp][rate]") {
  tcp::TcpConfig cfg;
  cfg.delayed_ack = false;
  SenderHarness h(cfg, std::make_unique<FixedWindow>(), 0);
  REQUIRE(h.sender().rate_sampler() != nullptr);
  h.start();
  const BottleneckRun run = through_bottleneck(h, 500);
  REQUIRE(run.samples.size() > 250);
  for (const cc::RateSample& rs : run.samples) {
    INFO("delivered " << rs.delivered << " over " << rs.interval.to_seconds() << " s, rtt "
                      << (rs.rtt ? rs.rtt->to_seconds() : -1.0) << ", prior_delivered " << rs.prior_delivered);
    CHECK(rs.delivery_rate == Approx(1000).epsilon(0.02));
    CHECK_FALSE(rs.is_app_limited);
    CHECK(rs.rtt.has_value());
  }
}

TEST_CASE("without an algorithm that asks, the sender keeps no rate-sampling state", "[tcp][rate]") {
  SenderHarness h({}, "reno");
  CHECK(h.sender().rate_sampler() == nullptr);
}

TEST_CASE("data sent after the application ran out is marked app-limited", "[tcp][rate]") {
  tcp::TcpConfig cfg;
  cfg.delayed_ack = false;
  SenderHarness h(cfg, std::make_unique<FixedWindow>(), 0);
  h.start();
  REQUIRE(h.sent().size() == 10);
  h.sender().pause();
  h.advance(Duration::milliseconds(50));
  h.ack(10);  // everything acked while paused: the window has room, no data
  REQUIRE(h.sender().rate_sampler()->app_limited());
  h.sender().resume();
  const size_t first = h.sent().size();
  REQUIRE(first > 10);
  h.advance(Duration::milliseconds(50));
  h.ack(first);
  CHECK(h.sender().rate_sampler()->last_sample().is_app_limited);
}

namespace {

/// Gaps between the sends after index `from` of `h`.
std::vector<double> gaps_after(const SenderHarness& h, size_t from) {
  std::vector<double> g;
  for (size_t i = from + 1; i < h.sent().size(); ++i)
    g.push_back((h.sent()[i].at - h.sent()[i - 1].at).to_seconds());
  return g;
}

}  // namespace

TEST_CASE("pacing: a Reno flow's packets leave srtt / (1.2 cwnd) apart in congestion avoidance", "[tcp][pacing]") {
  tcp::TcpConfig cfg;
  cfg.delayed_ack = false;
  cfg.pacing = true;
  cfg.initial_ssthresh = 2;  // congestion avoidance from the start (cwnd >= ssthresh / 2)
  SenderHarness h(cfg, "reno");
  h.start();
  REQUIRE(h.sent().size() == 10);  // no RTT sample yet: the initial window leaves unpaced
  h.advance(Duration::milliseconds(100));
  h.ack(10);  // srtt = 100 ms; cwnd 10 + 10/10 = 11
  const size_t from = h.sent().size() - 1;
  h.advance(Duration::milliseconds(99));
  REQUIRE(h.cwnd() == Approx(11));
  const double srtt = h.srtt()->to_seconds();
  CHECK(h.sender().pacing_rate() == Approx(1.2 * 11 / srtt));
  const std::vector<double> gaps = gaps_after(h, from - 0);
  REQUIRE(gaps.size() == 10);  // 11 packets in 99 ms
  for (double g : gaps)
    CHECK(g == Approx(srtt / (1.2 * 11)).epsilon(1e-6));
}

TEST_CASE("pacing: twice cwnd / srtt in slow start; off by default", "[tcp][pacing]") {
  tcp::TcpConfig cfg;
  cfg.delayed_ack = false;
  cfg.pacing = true;
  SenderHarness h(cfg, "reno");
  h.start();
  h.advance(Duration::milliseconds(100));
  h.ack(10);  // slow start (ABC, L = 2): cwnd 12
  const size_t from = h.sent().size() - 1;
  h.advance(Duration::milliseconds(99));
  const double srtt = h.srtt()->to_seconds();
  const std::vector<double> gaps = gaps_after(h, from);
  REQUIRE(gaps.size() == 11);
  for (double g : gaps)
    CHECK(g == Approx(srtt / (2 * 12)).epsilon(1e-6));

  cfg.pacing = false;
  SenderHarness off(cfg, "reno");
  off.start();
  off.advance(Duration::milliseconds(100));
  off.ack(10);
  CHECK(off.sender().pacing_rate() == 0);
  CHECK(off.sent().back().at == off.sent()[10].at);  // the window leaves at once
}

TEST_CASE("pacing: an algorithm's own rate wins over the switch", "[tcp][pacing]") {
  tcp::TcpConfig cfg;
  cfg.delayed_ack = false;
  cfg.pacing = true;
  SenderHarness h(cfg, "bbr");  // BBR sets 2.885 cwnd / srtt at its first RTT sample
  h.start();
  h.advance(Duration::milliseconds(100));
  h.ack(10);
  const double srtt = h.srtt()->to_seconds();
  CHECK(h.sender().pacing_rate() == Approx(2.885 * 10 / srtt));  // cwnd before BBR's growth
  CHECK(h.sender().pacing_rate() != Approx(2 * h.cwnd() / srtt));
}
