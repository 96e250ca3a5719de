// Poisson arrivals of finite TCP flows (the web-like cross traffic and the long/short
// flow mixes of the published evaluations): exponential inter-arrival times, a size from
// the process's distribution, a path drawn by weight, and the process's algorithm. Each
// flow starts at its arrival, is reported when its last segment is acknowledged (its
// completion time, and its completion time at the fair share), and is destroyed once
// none of its packets is left in the network, so memory follows the active flows, not
// the arrivals. Flows of one path share that path's hosts and links, so every route is
// known before the run (chained links, link.hpp).
// Fair-share completion time (choice, docs/outputs.md): the base RTT of the path plus
// the flow's wire bytes at C / n, where C is the bottleneck's rate and n the time-average
// number of flows crossing the bottleneck while the flow was active (itself included).
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <vector>

#include "fastsim/config/scenario.hpp"
#include "fastsim/core/rng.hpp"
#include "fastsim/core/simulator.hpp"
#include "fastsim/net/link.hpp"
#include "fastsim/traffic/active_flow_clock.hpp"
#include "fastsim/traffic/completed_flow.hpp"
#include "fastsim/traffic/tcp_connection.hpp"

namespace fastsim::traffic {

/// The state of one active flow at a sample instant (arrivals/<id>-flows.csv).
struct ActiveFlowSample {
  const std::string* id;
  double cwnd_pkts;
  double srtt_s;
  uint64_t segments_acked;
  uint64_t retransmits;
};

/// Counts since the previous take_period() (trace rows).
struct ArrivalPeriod {
  uint64_t started = 0;
  uint64_t completed = 0;
  double fct_sum_s = 0;
  double slowdown_sum = 0;
};

class FlowArrivals final : public Event {
 public:
  /// `paths[k]`: the data and ACK links of spec.paths[k]. `bottleneck`: the link whose
  /// rate and crossing flows define the fair share.
  FlowArrivals(Simulator& sim, net::PacketPool& pool, const config::ArrivalSpec& spec,
               std::vector<std::pair<std::vector<net::Link*>, std::vector<net::Link*>>> paths, double flows_per_s,
               Time stop, uint64_t seed, ActiveFlowClock& clock, const net::Link& bottleneck);
  ~FlowArrivals() override;
  /// Schedules the first arrival (an exponential gap after the process's start).
  void start();

  void fire() override;

  [[nodiscard]] const config::ArrivalSpec& spec() const { return spec_; }
  [[nodiscard]] double flows_per_s() const { return flows_per_s_; }
  [[nodiscard]] uint64_t started() const { return started_; }
  [[nodiscard]] uint64_t active() const { return started_ - completed_.size(); }
  /// Flow objects still allocated (active, or finished with packets in the network).
  [[nodiscard]] size_t live_objects() const { return flows_.size(); }
  [[nodiscard]] const std::vector<CompletedFlow>& completed() const { return completed_; }
  /// Data packets delivered to receivers by every flow so far.
  [[nodiscard]] uint64_t delivered_packets() const;
  /// Example routes of every path (wiring of single-fed links before the run).
  [[nodiscard]] std::vector<const net::Route*> path_routes() const;
  ArrivalPeriod take_period();
  /// Appends every flow still running (started, not complete) to `out`.
  void active_flows(std::vector<ActiveFlowSample>& out) const;

 private:
  struct Flow;
  void complete(Flow& f);
  /// Schedules the next arrival an exponential gap after `after`, if before the stop.
  void schedule_next(Time after);
  void reap();

  Simulator& sim_;
  net::PacketPool& pool_;
  const config::ArrivalSpec& spec_;
  std::vector<net::Route> data_routes_;  // per path: links only (for wiring)
  std::vector<net::Route> ack_routes_;
  std::vector<bool> crosses_bottleneck_;
  std::vector<Duration> base_rtt_;
  double flows_per_s_;
  Time stop_;
  RandomStream rng_;
  uint64_t seed_;  // the scenario's: the flows' own streams (host noise) derive from it
  ActiveFlowClock& clock_;
  double bottleneck_bps_;
  SharedTcpConfigs tcp_configs_;  // the arriving flows' settings: one copy per path
  std::list<std::unique_ptr<Flow>> flows_;
  std::vector<Flow*> finished_;  // done, maybe with packets still in the network
  uint64_t started_ = 0;
  uint64_t reaped_delivered_ = 0;  // packets delivered by flows already destroyed
  std::vector<CompletedFlow> completed_;
  ArrivalPeriod period_;
};

}  // namespace fastsim::traffic
