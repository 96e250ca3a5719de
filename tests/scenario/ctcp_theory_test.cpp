// Compound TCP on a network (Tan et al., INFOCOM 2006; draft-sridharan-tcpm-ctcp-02): with a
// buffer smaller than the BDP, Reno's halved window leaves the link idle part of every
// cycle, while CTCP's delay window dwnd fills the pipe and then holds the total window at
// BDP + gamma, gamma packets queued, for as long as dwnd is positive.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "../support/helpers.hpp"

using namespace fastsim;
using fastsim::testing::check_conservation;
using fastsim::testing::dumbbell_json;
using fastsim::testing::scenario_from;

namespace {

/// Reno's sawtooth utilization with a buffer B below the BDP, in packets, one flow: the
/// window halves from W = BDP + B + 1 and grows a packet per round trip; below the BDP the
/// round trip is the base one and the link carries w/BDP of its rate, above it the round
/// trip is w/C and the link is full.
double reno_small_buffer_utilization(double bdp, double buffer, double base_rtt_s) {
  const double w = bdp + buffer + 1, c = bdp / base_rtt_s;
  const double below_s = (bdp - w / 2) * base_rtt_s;  // W/2 .. BDP, one packet per base RTT
  const double below_utilization = (w / 2 + bdp) / (2 * bdp);
  const double above_s = (w * w - bdp * bdp) / (2 * c);  // the integral of w/C dw
  return (below_s * below_utilization + above_s) / (below_s + above_s);
}

}  // namespace

TEST_CASE("CTCP fills a link that Reno leaves idle, holding BDP + gamma in flight while dwnd is positive",
          "[scenario][ctcp][slow]") {
  // 100 Mb/s, RTT 100 ms (BDP 833.3 packets), buffer 200 packets, one flow, 300 s. Reno:
  // theory 0.889 (its window halves to 517, below the BDP), measured 0.889. CTCP, measured:
  // utilization 0.992 from 20 s on (the dips right after each loss, while dwnd climbs), and
  // a mean window of 863.5 packets over the samples with dwnd > 0, BDP + gamma = 863.3.
  constexpr double kBdp = 100e6 * 0.1 / (1500 * 8), kBuffer = 200, kGamma = 30;
  auto run = [&](const char* algorithm, double& window_with_dwnd, size_t& dwnd_samples) {
    const auto s = scenario_from(dumbbell_json("100Mbps", "5ms", "200pkt", "300s",
                                               std::string(R"([{"id": "a", "algorithm": ")") + algorithm +
                                                   R"(", "rtt": "100ms"}])",
                                               R"({"sack": true, "delayed_ack": false})"));
    run::Experiment exp(s);
    auto& f = exp.flow(0);
    double window_sum = 0;
    dwnd_samples = 0;
    for (int64_t ms = 50; ms <= 300'000; ms += 50) {
      exp.run_until(Time::at(Duration::milliseconds(ms)));
      if (ms <= 20'000)
        continue;
      for (const auto& column : f.sender->algorithm().trace_columns()) {
        if (std::strcmp(column.name, "ct_dwnd") == 0 && column.value(f.sender->algorithm()) > 0) {
          window_sum += f.sender->window().cwnd_pkts;
          ++dwnd_samples;
        }
      }
    }
    window_with_dwnd = dwnd_samples > 0 ? window_sum / static_cast<double>(dwnd_samples) : 0;
    const auto& r = exp.run();
    double busy = 0;
    const auto& util = r.links[0].utilization_samples;
    REQUIRE(util.size() == 300);
    for (size_t k = 20; k < util.size(); ++k)
      busy += util[k];
    CHECK(r.links[0].drops > 0);  // loss-driven cycles on both
    check_conservation(exp);
    return busy / static_cast<double>(util.size() - 20);
  };
  double reno_window = 0, ctcp_window = 0;
  size_t reno_samples = 0, ctcp_samples = 0;
  const double reno = run("reno", reno_window, reno_samples);
  const double ctcp = run("ctcp", ctcp_window, ctcp_samples);
  const double theory = reno_small_buffer_utilization(kBdp, kBuffer, 0.1);
  WARN("utilization: Reno " << reno << " (theory " << theory << "), CTCP " << ctcp << "; CTCP's window with dwnd > 0 "
                            << ctcp_window << " over " << ctcp_samples << " samples (BDP + gamma "
                            << kBdp + kGamma << ")");
  CHECK(reno == Approx(theory).epsilon(0.01));
  CHECK(ctcp > 0.98);
  CHECK(ctcp_samples > 2000);  // dwnd is positive for a good part of every cycle
  CHECK(ctcp_window == Approx(kBdp + kGamma).epsilon(0.005));  // gamma 10 packets off: 1.2 %
}
