// The assembly of summary.json's intervals[] (run/interval_results.cpp) recomputed by
// hand from the run's per-period samples, against docs/metrics.md: which periods enter
// (whole sample periods from ceil((start + warmup) / tau) to floor(end / tau)), the mean
// goodputs and their sum, Jain's index, the stability index over the flows with a
// non-zero mean (n'), the bottleneck's utilization, mean and maximum queue and losses;
// and the interval drops adding up to the link's total when no warm-up is cut.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "../support/helpers.hpp"

using namespace fastsim;
using fastsim::testing::mean_of;
using fastsim::testing::scenario_from;

namespace {

// Reno on 20 Mb/s x 40 ms with a 50-packet buffer (losses), flow b from 20.5 s to 40.3 s
// (neither on a period boundary), 1-s periods.
std::string scenario(const std::string& warmup) {
  return R"({"name": "assembly", "seed": 1, "duration": "60s", "sample_interval": "1s", "warmup": ")" + warmup +
         R"(", "topology": {"dumbbell": {"bottleneck": {"rate": "20Mbps", "delay": "5ms", "buffer": "50pkt"},
                                 "access": {"rate": "1Gbps", "buffer": "10000pkt"}}},
    "flows": [{"id": "a", "algorithm": "reno", "rtt": "40ms"},
              {"id": "b", "algorithm": "reno", "rtt": "40ms", "start": "20.5s", "stop": "40.3s"}]})";
}

}  // namespace

TEST_CASE("interval metrics equal their definitions computed from the per-period samples", "[scenario][metrics]") {
  const auto s = scenario_from(scenario("2s"));
  run::Experiment exp(s);
  const run::RunResult& r = exp.run();
  REQUIRE(r.intervals.size() == 3);  // a alone, a + b, a alone
  const run::LinkResult& link = r.links.at(0);
  REQUIRE(link.id == "bottleneck");
  const double starts[] = {0, 20.5, 40.3};
  const double ends[] = {20.5, 40.3, 60};
  for (size_t i = 0; i < 3; ++i) {
    const run::IntervalResult& iv = r.intervals[i];
    INFO("interval " << i);
    CHECK(iv.start_s == Approx(starts[i]).margin(1e-9));
    CHECK(iv.end_s == Approx(ends[i]).margin(1e-9));
    const auto first = static_cast<size_t>(std::ceil(iv.start_s + 2.0 - 1e-9));
    const auto end = static_cast<size_t>(std::floor(iv.end_s + 1e-9));
    REQUIRE(iv.periods == end - first);
    std::vector<double> x;
    double sum_sq = 0, cv_sum = 0;
    size_t cv_n = 0;
    for (const std::string& id : iv.flows) {
      const auto& f = *std::find_if(r.flows.begin(), r.flows.end(), [&](const auto& g) { return g.id == id; });
      const double m = mean_of(f.goodput_samples_bps, first, end);
      x.push_back(m);
      sum_sq += m * m;
      if (m > 0) {
        double ss = 0;
        for (size_t k = first; k < end; ++k)
          ss += (f.goodput_samples_bps[k] - m) * (f.goodput_samples_bps[k] - m);
        cv_sum += std::sqrt(ss / static_cast<double>(end - first - 1)) / m;
        ++cv_n;
      }
    }
    double total = 0;
    for (double v : x)
      total += v;
    REQUIRE(iv.flow_throughput_bps.size() == x.size());
    for (size_t k = 0; k < x.size(); ++k)
      CHECK(iv.flow_throughput_bps[k] == Approx(x[k]).epsilon(1e-12));
    CHECK(*iv.throughput_bps == Approx(total).epsilon(1e-12));
    CHECK(*iv.jain == Approx(total * total / (static_cast<double>(x.size()) * sum_sq)).epsilon(1e-12));
    CHECK(*iv.stability == Approx(cv_sum / static_cast<double>(cv_n)).epsilon(1e-12));
    CHECK(*iv.utilization == Approx(mean_of(link.utilization_samples, first, end)).epsilon(1e-12));
    CHECK(*iv.mean_queue_pkts == Approx(mean_of(link.queue_samples, first, end)).epsilon(1e-12));
    CHECK(*iv.max_queue_pkts ==
          *std::max_element(link.max_queue_samples.begin() + static_cast<long>(first),
                            link.max_queue_samples.begin() + static_cast<long>(end)));
    double lost = 0;
    for (size_t k = first; k < end; ++k)
      lost += link.drop_samples[k];
    CHECK(*iv.drops == static_cast<uint64_t>(lost));
  }
  CHECK(*r.intervals[1].drops > 0);  // two Reno flows overflow 50 packets
  CHECK(*r.intervals[1].jain > 0.9);
}

TEST_CASE("without a warm-up, interval drops add up to the bottleneck's, periods cut at flow changes aside",
          "[scenario][metrics]") {
  const auto s = scenario_from(scenario("0s"));
  run::Experiment exp(s);
  const run::RunResult& r = exp.run();
  REQUIRE(r.intervals.size() == 3);
  const run::LinkResult& link = r.links.at(0);
  // The intervals hold the whole periods [0, 20), [21, 40), [41, 60): the periods 20 and 40
  // straddle a flow change and belong to none.
  uint64_t in_intervals = 0;
  for (const auto& iv : r.intervals)
    in_intervals += *iv.drops;
  const auto straddling = static_cast<uint64_t>(link.drop_samples[20] + link.drop_samples[40]);
  CHECK(in_intervals + straddling == link.drops + link.random_losses);
  double all = 0;
  for (double d : link.drop_samples)
    all += d;
  CHECK(static_cast<uint64_t>(all) == link.drops + link.random_losses);
}
