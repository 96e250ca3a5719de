// HighSpeed TCP and Scalable TCP against their response functions under random loss (the
// ideal processes with the same losses: HSTCP's computed here, close to RFC 3649's
// 0.12 / p^0.835; Scalable TCP's 0.0749 / p above the legacy window), and equal to Reno
// below those windows.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "../support/helpers.hpp"

using namespace fastsim;
using fastsim::testing::dumbbell_json;
using fastsim::testing::scenario_from;

namespace {

struct Measured {
  double mean_window = 0;
  uint64_t loss_events = 0;
  uint64_t queue_drops = 0;
};

/// One flow on an uncongested 10 Gb/s path, 20 ms RTT, Bernoulli loss p on data packets,
/// delayed ACK off, SACK. Slow start ends at `ssthresh` (near the expected window, so
/// the first epoch does not start from a huge overshoot) and the mean window is taken
/// over the last 80 % of the run. `tcp_extra` adds TCP settings.
Measured response(const std::string& algorithm, double p, double duration_s, double ssthresh,
                  const std::string& tcp_extra = "", uint64_t seed = 1) {
  const std::string flows = R"([{"id": "a", "algorithm": ")" + algorithm + R"(", "rtt": "20ms"}])";
  const std::string defaults =
      R"({"delayed_ack": false, "sack": true, "initial_ssthresh": )" + std::to_string(ssthresh) + tcp_extra + "}";
  auto doc = nlohmann::json::parse(dumbbell_json("10Gbps", "1ms", "1000000pkt", std::to_string(duration_s) + "s",
                                                 flows, defaults, ", \"loss_rate\": " + std::to_string(p)));
  doc["seed"] = seed;
  const auto s = config::parse_scenario(doc);
  run::Experiment exp(s);
  auto& f = exp.flow(0);
  exp.run_until(Time::at(Duration::seconds(0.2 * duration_s)));
  const auto w0 = f.sender->window_integral();
  const auto c0 = f.sender->counters();
  const auto& r = exp.run();
  const auto w1 = f.sender->window_integral();
  const auto& c1 = f.sender->counters();
  const uint64_t events = c1.fast_recoveries + c1.timeouts - c0.fast_recoveries - c0.timeouts;
  return {(w1.cwnd_pkt_seconds - w0.cwnd_pkt_seconds) / (w1.seconds - w0.seconds), events, r.links[0].drops};
}

double slope(const std::vector<double>& x, const std::vector<double>& y) {
  const double n = static_cast<double>(x.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    sx += x[i];
    sy += y[i];
    sxx += x[i] * x[i];
    sxy += x[i] * y[i];
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

struct Point {
  double p;
  double duration_s;
  int seeds = 1;  ///< runs averaged (seeds 1 .. seeds)
  double relative = 0.02;  ///< the tolerance: `packets` + relative x theory
};

/// Time-average window of the ideal HSTCP process under independent per-packet loss p:
/// w grows a(w) / w per packet and is multiplied by 1 - b(w) at each loss, with RFC 3649's
/// a(w) and b(w) at the defaults (Reno's 1 and 1/2 at or below low_window = 38). Between
/// losses the packets from w to w' are N(w') - N(w), N = int w / a(w) dw, taking T(w') -
/// T(w) RTTs, T = int dw / a(w); both are tabulated over ln w and the process is stepped
/// from loss to loss (200 000 losses). Mean window = packets / RTTs.
double ideal_hstcp_window(double p) {
  constexpr double kLow = 38, kHigh = 83000, kHighP = 1e-7, kHighDecrease = 0.1;
  const double slope_p = std::log(kHighP / 1e-3) / std::log(kHigh / kLow);
  auto b = [&](double w) {
    return w <= kLow ? 0.5 : (kHighDecrease - 0.5) * std::log(w / kLow) / std::log(kHigh / kLow) + 0.5;
  };
  auto a = [&](double w) {
    if (w <= kLow)
      return 1.0;
    const double pw = 1e-3 * std::pow(w / kLow, slope_p);
    return std::max(w * w * pw * 2 * b(w) / (2 - b(w)), 1.0);
  };
  constexpr int kSteps = 200000;
  const double u0 = std::log(2.0), u1 = std::log(2e6), du = (u1 - u0) / kSteps;
  std::vector<double> packets_to(kSteps + 1, 0.0), rtts_to(kSteps + 1, 0.0);  // N and T at u0 + k du
  for (int k = 1; k <= kSteps; ++k) {
    const double w0 = std::exp(u0 + (k - 1) * du), w1 = std::exp(u0 + k * du);
    packets_to[k] = packets_to[k - 1] + 0.5 * (w0 * w0 / a(w0) + w1 * w1 / a(w1)) * du;  // dN = w^2 / a du
    rtts_to[k] = rtts_to[k - 1] + 0.5 * (w0 / a(w0) + w1 / a(w1)) * du;                  // dT = w / a du
  }
  auto at = [&](const std::vector<double>& table, double u) {
    const double x = (u - u0) / du;
    const auto k = std::clamp(static_cast<int>(x), 0, kSteps - 1);
    return table[k] + (table[k + 1] - table[k]) * (x - k);
  };
  auto u_after = [&](double packets) {  // the u at which N reaches `packets`
    const auto it = std::lower_bound(packets_to.begin() + 1, packets_to.end(), packets);
    const auto k = static_cast<int>(std::min(it, packets_to.end() - 1) - packets_to.begin());
    const double f = (packets - packets_to[k - 1]) / (packets_to[k] - packets_to[k - 1]);
    return u0 + (k - 1 + f) * du;
  };
  std::mt19937_64 rng(3);
  std::exponential_distribution<double> packets_to_loss(p);
  double w = 0.12 / std::pow(p, 0.835), packets = 0, rtts = 0;
  for (int k = 0; k < 200000; ++k) {
    const double n = packets_to_loss(rng);
    const double u = std::log(w);
    const double peak_u = u_after(at(packets_to, u) + n);
    if (k >= 1000) {
      packets += n;
      rtts += at(rtts_to, peak_u) - at(rtts_to, u);
    }
    w = std::exp(peak_u) * (1 - b(std::exp(peak_u)));
  }
  return packets / rtts;
}

/// The mean window at each point, averaged over its seeds, may differ from `theory(p)` by
/// `packets` + the point's `relative` x theory; the log-log slope from the theory's by at
/// most `slope_margin`.
void check_response(const std::string& algorithm, const std::vector<Point>& points,
                    const std::function<double(double)>& theory_of, double packets, double slope_margin) {
  std::vector<double> lx, ly, ly_theory;
  for (const auto& pt : points) {
    const double theory = theory_of(pt.p);
    double sum = 0;
    for (int seed = 1; seed <= pt.seeds; ++seed) {
      const Measured m = response(algorithm, pt.p, pt.duration_s, theory, "", static_cast<uint64_t>(seed));
      INFO(algorithm << " p=" << pt.p << " seed " << seed << ": mean window " << m.mean_window << " (theory "
                     << theory << "), loss events " << m.loss_events);
      CHECK(m.queue_drops == 0);
      CHECK(m.loss_events >= 500);
      sum += m.mean_window;
    }
    const double mean = sum / pt.seeds;
    WARN(algorithm << " p=" << pt.p << ": mean window " << mean << " over " << pt.seeds << " seeds (theory " << theory
                   << ")");
    CHECK(std::abs(mean - theory) <= packets + pt.relative * theory);
    lx.push_back(std::log(pt.p));
    ly.push_back(std::log(mean));
    ly_theory.push_back(std::log(theory));
  }
  const double k = slope(lx, ly), k_theory = slope(lx, ly_theory);
  WARN(algorithm << " log-log slope " << k << " (theory " << k_theory << ")");
  CHECK(k == Approx(k_theory).margin(slope_margin));
}

}  // namespace

TEST_CASE("HSTCP follows its random-loss response function above low_window", "[scenario][hstcp][slow]") {
  // Against the ideal HSTCP process under the same independent losses, 2.7-3.6 % above
  // RFC 3649's deterministic 0.12 / p^0.835 (periodic losses). The window's costs the
  // ideal process lacks (growth on ACKs of packets sent a round earlier, a recovery round
  // without growth per loss; tools/reno-cycle-model for Reno) are 0.3 % here. b(w) of
  // 0.29-0.45 keeps memory for a few losses, so a run's mean is noisy: over 8 seeds, one
  // run's standard deviation is 2.0 % (p = 3e-4, 1200 s), 1.2 % (1e-4, 1200 s), 4.8 %
  // (3e-5, 450 s) and 3.3 % (1e-5, 450 s). Where runs are cheap (small windows) the test
  // averages 4 seeds of 2400 s and allows 3 %, as the Reno test; at the large windows 2
  // seeds of 900 s and 7 % (about 3 standard deviations of those means), which still
  // excludes Reno by a factor of 3 and pins the slope. Measured: -1.8, -1.8, +0.0 and
  // +1.2 %. At the small windows fastsim sits about 2 % below the ideal process (Reno sits
  // 1 % below its finite-window model, not explained either): between the random-loss curve
  // and the periodic-loss one, 3.2 and 3.0 % below it there. So this test shows HSTCP's
  // response function and slope within 3 %, not which of those two loss models it follows
  // at small windows (at the large ones, +0.0 and +1.2 % against 2.6 %, the random one).
  const std::vector<Point> points = {{3e-4, 2400, 4, 0.03}, {1e-4, 2400, 4, 0.03}, {3e-5, 900, 2, 0.07},
                                     {1e-5, 900, 2, 0.07}};
  check_response("hstcp", points, ideal_hstcp_window, 0, 0.03);
}

TEST_CASE("STCP follows the random-loss MIMD response function above its legacy window", "[scenario][stcp][slow]") {
  // The ideal MIMD process (w += 0.01 per packet, w *= 0.875 at each independent loss) has a
  // time-average window of 0.0749 / p (derived in src/predict/response.cpp and checked
  // against the process simulated in tests/unit/predict_test.cpp); Kelly's 0.08 / p is its
  // mean over packets. 700-850 loss events per point. Measured: 71.8, 741.4 and 7489.0 at
  // p = 1e-3, 1e-4, 1e-5 (theory 74.9, 749, 7490): as Reno, a few packets below the ideal
  // process at small windows; 3 packets + 2 % rejects 0.08 / p at 1e-4 and 1e-5.
  check_response(
      "stcp", {{1e-3, 300}, {1e-4, 300}, {1e-5, 250}}, [](double p) { return 0.0749 / p; }, 3, 0.02);
}

TEST_CASE("HSTCP and STCP equal Reno below their low windows", "[scenario][hstcp][stcp][slow]") {
  // At p = 2 % and 5 % Reno's window (mean 8 and 5) stays below HSTCP's 38 packets but for
  // rare excursions (the means differ by 2e-5 at 2 %, not at all at 5 %). It does cross
  // STCP's 16 now and then, so for STCP a receive window of 15 packets holds the window
  // below the legacy window: the trajectories then coincide exactly.
  const std::string rwnd15 = R"(, "receive_window": )" + std::to_string(15 * 1460);
  for (double p : {0.05, 0.02}) {
    const Measured reno = response("reno", p, 300, 1e9);
    const Measured hs = response("hstcp", p, 300, 1e9);
    const Measured reno15 = response("reno", p, 300, 1e9, rwnd15);
    const Measured st15 = response("stcp", p, 300, 1e9, rwnd15);
    WARN("p=" << p << ": Reno " << reno.mean_window << ", HSTCP " << hs.mean_window << "; with rwnd 15: Reno "
              << reno15.mean_window << ", STCP " << st15.mean_window);
    CHECK(reno.loss_events > 1000);
    CHECK(hs.mean_window == Approx(reno.mean_window).epsilon(1e-3));
    CHECK(st15.mean_window == Approx(reno15.mean_window).epsilon(1e-12));
  }
}
