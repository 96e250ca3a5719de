// CUBIC against RFC 8312 on a network: one flow on 100 Mb/s x 100 ms with a 1 x BDP
// drop-tail buffer. Between losses the window follows W(t) = C (t - K)^3 + W_max from the
// epoch start, with K = cbrt((W_max - beta W_loss) / C) (Linux's bic_K and RFC 9438's form:
// the curve starts from the window after the cut; RFC 8312's cbrt(W_max (1 - beta) / C) is
// the same only when fast convergence left W_max = W_loss) and W_max set by fast convergence
// (RFC 8312 section 4.6: W_loss(1 + beta)/2 when W_loss is below the previous W_max); each
// loss comes when the window passes what the path holds (BDP + buffer), and the window is
// cut to beta W_loss, which stays above the BDP: the link is never idle.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "../support/helpers.hpp"

using namespace fastsim;
using fastsim::testing::check_conservation;
using fastsim::testing::dumbbell_json;
using fastsim::testing::scenario_from;

TEST_CASE("CUBIC's window follows the cubic function between losses, with fast convergence",
          "[scenario][cubic][slow]") {
  constexpr double kC = 0.4, kBeta = 0.7;
  const double bdp = 100e6 * 0.1 / (1500 * 8);  // 833.3 packets
  const double path = bdp + 833 + 1;             // in flight when the buffer overflows
  const auto s = scenario_from(dumbbell_json("100Mbps", "5ms", "833pkt", "130s",
                                             R"([{"id": "a", "algorithm": "cubic", "rtt": "100ms",
                                                  "params": {"hystart": "off"}}])",
                                             R"({"delayed_ack": false})"));
  run::Experiment exp(s);
  auto& f = exp.flow(0);
  const double full_rtt_s = 0.1 + 833 / (bdp / 0.1);  // the round trip with a full buffer: 0.2 s
  uint64_t losses = 0;
  double w_last_max = 0;  // RFC 8312's W_max before the current epoch
  double epoch_start_s = -1, w_max = 0, k_s = 0;  // epoch_start_s < 0: the epoch has not started
  double cwnd_before = 0, first_compared_s = 0, worst = 0;
  size_t compared = 0, epochs = 0;
  for (int64_t ms = 10; ms <= 130'000; ms += 10) {
    exp.run_until(Time::at(Duration::milliseconds(ms)));
    const double now = static_cast<double>(ms) / 1000;
    const auto& c = f.sender->counters();
    const auto& w = f.sender->window();
    if (c.fast_recoveries + c.timeouts != losses) {
      losses = c.fast_recoveries + c.timeouts;
      const double w_loss = w.ssthresh_pkts / kBeta;
      if (epoch_start_s >= 0 && losses > 3) {  // past slow start's overshoot and its recoveries
        ++epochs;
        INFO("loss " << losses << " at " << now << " s: window " << w_loss << ", 10 ms before " << cwnd_before);
        // The cut keeps beta of the window at the loss (10 ms of growth at most after the sample).
        CHECK(w_loss >= cwnd_before);
        CHECK(w_loss <= cwnd_before + 2);
        // The loss comes when the window passes what the path holds, and is seen a full-buffer
        // round trip later, in which the cubic grows 3 C (t - K)^2 per second.
        const double t = now - epoch_start_s;
        CHECK(w_loss >= path);
        CHECK(w_loss <= path + 3 * kC * (t - k_s) * (t - k_s) * full_rtt_s * 1.1 + 1);
      }
      w_max = w_loss < w_last_max ? w_loss * (1 + kBeta) / 2 : w_loss;  // fast convergence
      w_last_max = w_max;
      k_s = std::cbrt((w_max - w.ssthresh_pkts) / kC);
      epoch_start_s = -1;
      continue;
    }
    cwnd_before = w.cwnd_pkts;
    if (epoch_start_s < 0 && f.sender->state() == cc::CaState::kOpen && w_max > 0)
      epoch_start_s = now;  // the first ACK in congestion avoidance after the recovery
    if (epoch_start_s >= 0 && losses > 3 && now > epoch_start_s + 0.5) {
      const double t = now - epoch_start_s;
      const double expected = kC * std::pow(t - k_s, 3) + w_max;
      worst = std::max(worst, std::abs(w.cwnd_pkts - expected) / expected);
      if (compared++ == 0)
        first_compared_s = now;
    }
  }
  INFO("losses " << losses << ", epochs " << epochs << ", worst deviation from W(t) " << worst);
  CHECK(epochs >= 8);  // the 2-cycle of fast convergence: epochs of 17.6 and 7.8 s
  CHECK(compared > 8000);
  CHECK(worst < 0.005);
  // The trough (beta x 1667 = 1167 packets) is above the BDP: the link never idles.
  const auto& r = exp.run();
  const auto& util = r.links[0].utilization_samples;
  double sum = 0;
  const auto from = static_cast<size_t>(std::ceil(first_compared_s));
  REQUIRE(util.size() > from + 60);
  for (size_t k = from; k < util.size(); ++k)
    sum += util[k];
  const double utilization = sum / static_cast<double>(util.size() - from);
  WARN("cubic: " << epochs << " epochs, worst deviation from W(t) " << worst << ", utilization " << utilization);
  CHECK(utilization > 0.9999);
  check_conservation(exp);
}
