// TCP Illinois on a network (Liu, Basar and Srikant 2006; Linux tcp_illinois): the sender
// learns the path's largest queueing delay dm (the buffer's), and its increase alpha and
// decrease beta follow their curves of the queueing delay the link really holds:
// alpha = kappa1 / (kappa2 + d) between alpha_max at d1 = dm/100 and alpha_min at dm,
// beta linear from beta_min at dm/10 to beta_max at 8 dm/10; the window grows alpha per
// round trip. One flow, 100 Mb/s, RTT 100 ms, a 1 x BDP buffer, 200 s: after slow start the
// queue never empties (the delay stays high, alpha near alpha_min), so the link is full.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <map>
#include <string>

#include "../support/helpers.hpp"

using namespace fastsim;
using fastsim::testing::check_conservation;
using fastsim::testing::dumbbell_json;
using fastsim::testing::scenario_from;

TEST_CASE("Illinois' alpha and beta follow their curves of the link's queueing delay", "[scenario][illinois][slow]") {
  // Measured: dm 99.91 ms against the buffer's 99.96 ms; alpha within 0.6 % of its curve of
  // the link's delay at every 10-ms sample, beta within 0.0015; the window's growth over
  // each 10 s within 0.3 % of the sum of alpha per round trip.
  constexpr double kAlphaMax = 10, kAlphaMin = 0.3, kBetaMin = 0.125, kBetaMax = 0.5;
  const double packet_s = 1500 * 8 / 100e6, base_rtt_s = 0.1;
  const auto s = scenario_from(dumbbell_json("100Mbps", "5ms", "833pkt", "200s",
                                             R"([{"id": "a", "algorithm": "illinois", "rtt": "100ms"}])",
                                             R"({"sack": true, "delayed_ack": false})"));
  run::Experiment exp(s);
  auto& f = exp.flow(0);
  auto& bottleneck = exp.link("bottleneck");
  auto column = [&](const char* name) {
    for (const auto& c : f.sender->algorithm().trace_columns()) {
      if (std::strcmp(c.name, name) == 0)
        return c.value(f.sender->algorithm());
    }
    FAIL("no trace column " << name);
    return 0.0;
  };
  double worst_alpha = 0, worst_beta = 0, worst_growth = 0, dm = 0;
  double predicted_growth = 0, window_at_mark = 0;
  size_t samples = 0;
  for (int64_t ms = 20'000; ms <= 200'000; ms += 10) {
    exp.run_until(Time::at(Duration::milliseconds(ms)));
    dm = column("il_dm_s");
    const double d1 = 0.01 * dm, d2 = 0.1 * dm, d3 = 0.8 * dm;
    const double kappa1 = (dm - d1) * kAlphaMin * kAlphaMax / (kAlphaMax - kAlphaMin), kappa2 = kappa1 / kAlphaMax - d1;
    const double q = static_cast<double>(bottleneck.queue_packets()) * packet_s;  // the link's queueing delay
    const double alpha = q <= d1 ? kAlphaMax : kappa1 / (kappa2 + q);
    const double beta =
        q <= d2 ? kBetaMin : q >= d3 ? kBetaMax : kBetaMin + (kBetaMax - kBetaMin) * (q - d2) / (d3 - d2);
    worst_alpha = std::max(worst_alpha, std::abs(column("il_alpha") - alpha) / alpha);
    worst_beta = std::max(worst_beta, std::abs(column("il_beta") - beta));
    const double w = f.sender->window().cwnd_pkts;
    if (ms % 10'000 == 0) {  // every 10 s: the growth against alpha per round trip summed
      if (window_at_mark > 0)
        worst_growth = std::max(worst_growth, std::abs((w - window_at_mark) - predicted_growth) / predicted_growth);
      window_at_mark = w;
      predicted_growth = 0;
    }
    predicted_growth += column("il_alpha") / (base_rtt_s + q) * 0.01;
    ++samples;
  }
  const auto& r = exp.run();
  WARN("illinois: dm " << dm << " s (buffer " << 833 * packet_s << " s), worst alpha " << worst_alpha
                       << ", worst beta " << worst_beta << ", worst 10-s growth " << worst_growth);
  CHECK(samples == 18001);
  CHECK(dm == Approx(833 * packet_s).epsilon(0.01));
  CHECK(worst_alpha < 0.02);
  CHECK(worst_beta < 0.01);
  CHECK(worst_growth < 0.01);
  CHECK(r.links[0].utilization > 0.99);
  check_conservation(exp);
}
