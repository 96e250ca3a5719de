// The link's lazily advanced view (which packets have arrived and started) on hops that
// are mostly idle between bursts: the queue count it reports must stay a count of
// waiting packets (regression: on the parking lot's lightly loaded hops it went below
// zero and the traces and summary showed 2^64 - k packets).
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>

#include "../support/helpers.hpp"
#include "fastsim/predict/predict.hpp"

using namespace fastsim;
using fastsim::testing::scenario_from;

TEST_CASE("parking lot: every hop's queue count stays within its buffer", "[scenario][parking-lot][link]") {
  // Five FAST flows, s_k crossing hops k..5 (configs/experiments/pc-parking-lot.json
  // without background). Hops 1-4 carry part of the load: a burst queues briefly, then
  // the hop is idle again while the packets that never waited leave. Before the fix the
  // view's start cursor stayed behind those packets after they had left, their ring
  // positions were reused, and a later packet was started twice (hop 4 at 30 ms).
  const auto s = scenario_from(R"({"name": "lot", "seed": 1, "duration": "10s", "sample_interval": "0.01s",
      "topology": {"parking_lot": {"hop": {"rate": "100Mbps", "delay": "5ms", "buffer": "10000pkt"}, "count": 5,
                                   "access": {"rate": "1Gbps", "delay": "1ms", "buffer": "10000pkt"}}},
      "defaults": {"mss": 1000, "packet_size": 1040, "ack_size": 40, "sack": true, "delayed_ack": true},
      "flows": [
      {"id": "s1", "algorithm": "fast", "params": {"alpha": 50}, "hops": [1, 5], "start": "2s"},
      {"id": "s2", "algorithm": "fast", "params": {"alpha": 50}, "hops": [2, 5]},
      {"id": "s3", "algorithm": "fast", "params": {"alpha": 50}, "hops": [3, 5]},
      {"id": "s4", "algorithm": "fast", "params": {"alpha": 50}, "hops": [4, 5]},
      {"id": "s5", "algorithm": "fast", "params": {"alpha": 50}, "hops": [5, 5]}]})");
  run::Experiment exp(s);
  const auto& r = exp.run();
  // The run's results hold the monitored hops (with their samples); the reverse hops'
  // totals come from the links themselves.
  std::map<std::string, const run::LinkResult*> monitored;
  for (const auto& l : r.links)
    monitored[l.id] = &l;
  int hops = 0, sampled_hops = 0;
  for (const auto& id : exp.link_ids()) {
    if (id.rfind("hop", 0) != 0)
      continue;
    ++hops;
    const run::LinkResult l = run::link_result(exp.link(id), nullptr, r.sim_time_s);
    INFO(l.id << ": max queue " << l.max_queue_pkts << ", mean " << l.mean_queue_pkts);
    CHECK(l.max_queue_pkts <= 10000);
    CHECK(l.mean_queue_pkts >= 0);
    CHECK(l.mean_queue_pkts <= 10000);
    if (!monitored.contains(id))
      continue;
    ++sampled_hops;
    CHECK(monitored[id]->max_queue_pkts == l.max_queue_pkts);
    double sampled = 0;
    for (double q : monitored[id]->max_queue_samples)
      sampled = std::max(sampled, q);
    CHECK(sampled <= 10000);
  }
  CHECK(hops == 10);         // hop1..hop5 and their reverse (ACK) directions
  CHECK(sampled_hops == 5);  // hop1..hop5 are monitored
  // The physics: every flow crosses hop 5, the only saturated hop, and hops 1-4 stay nearly
  // empty (last 2 s). In FAST's equilibrium hop 5 holds alpha packets per flow, 5 x 50,
  // plus what s1 keeps for the error of its baseRTT: it starts at 2 s into the others'
  // standing queue. With the whole standing queue of then (200 packets, 16.6 ms) as the
  // error, the persistent-congestion model (fastsim predict) gives 328 packets; s1 saw a
  // little less of it: measured 315.8, the same at 10, 20 and 30 s.
  const auto prediction = predict::predict(s);
  double predicted = 0;
  for (const auto& l : prediction.intervals.back().links) {
    if (l.id == "hop5")
      predicted = l.queue_pkts;
  }
  REQUIRE(predicted == Approx(328.08).epsilon(0.001));
  for (const auto& [id, link] : monitored) {
    const auto& q = link->queue_samples;
    REQUIRE(q.size() >= 1000);
    double sum = 0;
    for (size_t k = q.size() - 200; k < q.size(); ++k)
      sum += q[k];
    const double mean = sum / 200;
    INFO(id << ": mean queue over the last 2 s " << mean << " (predicted at hop5: " << predicted << ")");
    if (id == "hop5") {
      CHECK(mean >= 5 * 50);
      CHECK(mean <= predicted);
    } else {
      CHECK(mean < 5);
    }
  }
}
