// Host models (docs/model.md): timing noise (sender jitter, ACK coalescing) desynchronises
// two identical Reno flows and stays deterministic per seed; local congestion turns a
// transmit-queue (txqueuelen) overflow into a window reduction without loss.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "../support/helpers.hpp"

using namespace fastsim;
using fastsim::testing::scenario_from;

namespace {

/// Two identical Reno flows (rtt 20 ms) on a 20 Mb/s drop-tail dumbbell with a 100-packet
/// buffer; `noise` is added to the explicit stack settings.
std::string two_renos(const std::string& noise, uint64_t seed = 1) {
  return R"({"name": "noise", "seed": )" + std::to_string(seed) + R"(, "duration": "120s",
      "topology": {"dumbbell": {"bottleneck": {"rate": "20Mbps", "delay": "10ms", "buffer": "100pkt"},
                                "access": {"rate": "1Gbps", "buffer": "10000pkt"}}},
      "defaults": {"delayed_ack": false, "sack": true, "initial_window": 10, "min_rto": "200ms",
                   "local_congestion": false)" +
         noise + R"(},
      "flows": [{"id": "a", "algorithm": "reno", "rtt": "20ms"}, {"id": "b", "algorithm": "reno", "rtt": "20ms"}]})";
}

struct LossPattern {
  double coincident = 0;  ///< fraction of loss events of either flow with one of the other within 50 ms
  size_t events = 0;
  std::vector<double> goodput_a, goodput_b;
  uint64_t retransmits_a = 0, retransmits_b = 0;
};

/// Runs in 10-ms steps and records when each flow enters a loss recovery (or times out).
LossPattern loss_pattern(const std::string& json) {
  const auto s = scenario_from(json);
  run::Experiment exp(s);
  std::vector<std::vector<int>> events(2);  // step indices
  uint64_t last[2] = {0, 0};
  int step = 0;
  for (double now = 0.01; now <= 120.0 + 1e-9; now += 0.01, ++step) {
    exp.run_until(Time::at(Duration::seconds(now)));
    for (size_t i = 0; i < 2; ++i) {
      const auto& c = exp.flow(i).sender->counters();
      const uint64_t n = c.fast_recoveries + c.timeouts;
      if (n != last[i])
        events[i].push_back(step);
      last[i] = n;
    }
  }
  fastsim::testing::check_conservation(exp);
  LossPattern p;
  size_t coincident = 0;
  for (size_t i = 0; i < 2; ++i) {
    for (int k : events[i]) {
      for (int j : events[1 - i]) {
        if (std::abs(j - k) <= 5) {
          ++coincident;
          break;
        }
      }
    }
  }
  p.events = events[0].size() + events[1].size();
  p.coincident = p.events > 0 ? static_cast<double>(coincident) / static_cast<double>(p.events) : 0;
  const auto& r = exp.run();
  p.goodput_a = r.flows[0].goodput_samples_bps;
  p.goodput_b = r.flows[1].goodput_samples_bps;
  p.retransmits_a = r.flows[0].retransmits;
  p.retransmits_b = r.flows[1].retransmits;
  return p;
}

/// Mean over the 1-s periods from 10 s on of the two flows' Jain index.
double short_jain(const LossPattern& p) {
  double sum = 0;
  size_t n = 0;
  for (size_t k = 10; k < p.goodput_a.size(); ++k) {
    const double a = p.goodput_a[k], b = p.goodput_b[k];
    sum += (a + b) * (a + b) / (2 * (a * a + b * b));
    ++n;
  }
  return sum / static_cast<double>(n);
}

}  // namespace

TEST_CASE("host timing noise desynchronises the losses of two identical Reno flows", "[scenario][host-noise]") {
  const LossPattern quiet = loss_pattern(two_renos(""));
  const LossPattern noisy = loss_pattern(two_renos(R"(, "send_jitter": "1ms", "ack_coalescing": "500us")"));
  WARN("loss events with one of the other flow within 50 ms: without noise "
       << quiet.coincident << " of " << quiet.events << ", with noise " << noisy.coincident << " of " << noisy.events);
  WARN("mean Jain index over 1-s periods: without noise " << short_jain(quiet) << ", with noise " << short_jain(noisy));
  REQUIRE(quiet.events >= 50);
  REQUIRE(noisy.events >= 50);
  CHECK(quiet.coincident >= 0.9);  // deterministic hosts: both flows lose in (nearly) every congestion event
  CHECK(noisy.coincident <= 0.7);  // jittery hosts: often only one of them
  CHECK(short_jain(quiet) >= 0.995);
  CHECK(short_jain(noisy) <= 0.99);
}

TEST_CASE("host timing noise is deterministic per seed and changes with it", "[scenario][host-noise]") {
  const std::string noise = R"(, "send_jitter": "1ms", "ack_coalescing": "500us")";
  const LossPattern a = loss_pattern(two_renos(noise, 7));
  const LossPattern b = loss_pattern(two_renos(noise, 7));
  const LossPattern c = loss_pattern(two_renos(noise, 8));
  CHECK(a.goodput_a == b.goodput_a);
  CHECK(a.goodput_b == b.goodput_b);
  CHECK(a.retransmits_a == b.retransmits_a);
  CHECK(a.goodput_a != c.goodput_a);
  // Through the CLI: every output file byte for byte (summary without the engine's timings).
  const auto dir = fastsim::testing::temp_dir("host-noise");
  std::ofstream(dir / "s.json") << two_renos(noise, 7);
  std::map<std::string, std::string> outputs[2];
  for (int i = 0; i < 2; ++i) {
    const auto out = dir / ("run" + std::to_string(i));
    const auto run = fastsim::testing::run_command(std::string(FASTSIM_BINARY) + " run " + (dir / "s.json").string() +
                                                   " --out " + out.string() + " --quiet");
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    outputs[i] = fastsim::testing::run_outputs(out, {"wall_time_s", "peak_rss_mb", "events", "events_per_data_packet"});
  }
  CHECK(outputs[0].size() >= 3);
  CHECK(outputs[0] == outputs[1]);
  std::filesystem::remove_all(dir);
}

TEST_CASE("host timing noise settings: zero is off, negative is refused", "[scenario][host-noise]") {
  const auto off = scenario_from(two_renos(R"(, "send_jitter": "0s", "ack_coalescing": 0)"));
  CHECK(off.flows[0].tcp.send_jitter == Duration::zero());
  CHECK(off.flows[0].tcp.ack_coalescing == Duration::zero());
  CHECK_THROWS_WITH(scenario_from(two_renos(R"(, "send_jitter": "-1ms")")),
                    Catch::Contains("send_jitter") && Catch::Contains("negative"));
  CHECK_THROWS_WITH(scenario_from(two_renos(R"(, "ack_coalescing": "fast")")), Catch::Contains("ack_coalescing"));
}

namespace {

/// One Reno flow whose host transmit queue (10 Mb/s access, txqueuelen 20) is the bottleneck.
std::string nic_limited(bool local_congestion) {
  return R"({"name": "txq", "seed": 1, "duration": "30s",
      "topology": {"dumbbell": {"bottleneck": {"rate": "100Mbps", "delay": "10ms", "buffer": "1000pkt"},
                                "access": {"rate": "10Mbps", "buffer": "1000pkt"}}},
      "defaults": {"delayed_ack": false, "sack": true, "initial_window": 10, "min_rto": "200ms",
                   "send_jitter": "0s", "ack_coalescing": "0s", "local_congestion": )" +
         std::string(local_congestion ? "true" : "false") + R"(},
      "flows": [{"id": "f", "algorithm": "reno", "rtt": "50ms", "txqueuelen": 20}]})";
}

}  // namespace

TEST_CASE("local congestion: a full txqueuelen reduces the window and loses nothing", "[scenario][local-congestion]") {
  const auto s = scenario_from(nic_limited(true));
  run::Experiment exp(s);
  const auto& r = exp.run();
  fastsim::testing::check_conservation(exp);
  const auto& sender = *exp.flow(0).sender;
  // The host's transmit queue: not monitored, so not among the run's link results.
  const run::LinkResult access = run::link_result(exp.link("f.access_src"), nullptr, r.sim_time_s);
  const run::LinkResult* access_src = &access;
  WARN("local congestion: " << sender.counters().local_congestion << " CWR entries, mean cwnd "
                            << r.flows[0].mean_cwnd_pkts << ", goodput " << r.flows[0].goodput_bps);
  CHECK(access_src->drops == 0);
  CHECK(r.flows[0].drops == 0);
  CHECK(r.flows[0].retransmits == 0);
  CHECK(r.flows[0].timeouts == 0);
  CHECK(sender.counters().local_congestion >= 5);  // a sawtooth of CWR entries, one per cycle
  // BDP 10 Mb/s x 50 ms = 41.7 packets of 1500 bytes, plus 20 in the transmit queue: the
  // window is cut whenever it outgrows them, so it stays below ~63 (+ the growth of one RTT).
  CHECK(sender.window().ssthresh_pkts < 64);
  CHECK(r.flows[0].mean_cwnd_pkts < 64);
  CHECK(r.flows[0].goodput_bps > 0.9 * 10e6 * 1460 / 1500);

  // Off: today's behaviour, the queue overflow is a drop and costs retransmissions.
  const auto s_off = scenario_from(nic_limited(false));
  run::Experiment off(s_off);
  const auto& r_off = off.run();
  CHECK(off.flow(0).sender->counters().local_congestion == 0);
  CHECK(r_off.flows[0].drops > 0);
  CHECK(r_off.flows[0].retransmits > 0);
}

TEST_CASE("local congestion needs a drop-tail transmit queue at the first hop", "[scenario][local-congestion]") {
  std::string json = nic_limited(true);
  const std::string access = R"("access": {"rate": "10Mbps", "buffer": "1000pkt"})";
  REQUIRE(json.find(access) != std::string::npos);
  json.replace(json.find(access), access.size(),
               R"("access": {"rate": "10Mbps", "buffer": "1000pkt", "dummynet": {"tick": "1ms"}})");
  CHECK_THROWS_WITH(scenario_from(json), Catch::Contains("/flows/0") && Catch::Contains("local_congestion") &&
                                             Catch::Contains("dummynet pipe"));
  std::string off = nic_limited(false);
  off.replace(off.find(access), access.size(),
              R"("access": {"rate": "10Mbps", "buffer": "1000pkt", "dummynet": {"tick": "1ms"}})");
  CHECK_NOTHROW(scenario_from(off));
  // An AQM discipline drops at dequeue: its admission cannot tell the sender what it will lose.
  for (const auto& [discipline, name] : {std::pair{"codel", "a CoDel queue"}, std::pair{"fq_codel", "an FQ-CoDel queue"},
                                         std::pair{"pie", "a PIE queue"}}) {
    std::string aqm = nic_limited(true);
    aqm.replace(aqm.find(access), access.size(),
                std::string(R"("access": {"rate": "10Mbps", "buffer": "1000pkt", "queue": {"discipline": ")") +
                    discipline + R"("}})");
    CHECK_THROWS_WITH(scenario_from(aqm), Catch::Contains("/flows/0") && Catch::Contains("local_congestion") &&
                                              Catch::Contains(name));
  }
}
