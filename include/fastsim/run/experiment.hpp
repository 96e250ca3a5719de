// One simulation run, as a short coordinator of the stages (docs/architecture.md):
//   builder (network.hpp) -> flow lifecycle (flow_lifecycle.hpp) -> simulator run ->
//   probes sampled by the sampler (trace/sampler.hpp) -> results (collect_results.hpp)
//   -> outputs (trace CSVs, summary.json).
// Components are wired as: sender -> access link -> router ... -> receiver, with ACKs
// on the reverse route.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fastsim/config/scenario.hpp"
#include "fastsim/core/simulator.hpp"
#include "fastsim/net/packet_pool.hpp"
#include "fastsim/run/collect_results.hpp"
#include "fastsim/run/flow_lifecycle.hpp"
#include "fastsim/run/network.hpp"
#include "fastsim/run/results.hpp"
#include "fastsim/trace/packet_trace.hpp"
#include "fastsim/trace/sampler.hpp"
#include "fastsim/traffic/active_flow_clock.hpp"

namespace fastsim::run {

struct RunOptions {
  std::string out_dir;  ///< empty: no files written (tests)
  /// Called every few million events with (simulated seconds, events so far).
  std::function<void(double, uint64_t)> on_progress;
  /// Also predict the equilibria (predict/) and put them next to the measured ones in
  /// summary.json's `prediction` (run --predict).
  bool predict = false;
};

class Experiment {
 public:
  /// Builds the network, schedules the flows and the sampler (so an event a test adds
  /// through sim() at a sample instant fires after that sample). `scenario` must outlive
  /// the Experiment (it is referenced, not copied).
  explicit Experiment(const config::Scenario& scenario, std::string version = FASTSIM_VERSION);
  /// Takes the scenario (`fastsim run`, a sweep's run): when run() starts, after the
  /// prediction and the packet traces are set up, what only the build reads is released
  /// (the link specs, the node list, the flows' routes; 12 MB at 10 000 flows).
  /// scenario() then has no links or nodes.
  explicit Experiment(config::Scenario&& scenario, std::string version = FASTSIM_VERSION);
  ~Experiment();
  Experiment(const Experiment&) = delete;
  Experiment& operator=(const Experiment&) = delete;

  /// Runs to the scenario's duration, computes results, writes outputs if asked (trace
  /// files only if nothing was sampled before, i.e. run_until was not called first).
  const RunResult& run(const RunOptions& options = {});
  /// Runs only up to `t` (tests); call run() afterwards to finish, or inspect.
  void run_until(Time t);

  [[nodiscard]] const RunResult& result() const { return result_; }
  [[nodiscard]] const config::Scenario& scenario() const { return scenario_; }
  [[nodiscard]] Simulator& sim() { return sim_; }
  [[nodiscard]] net::PacketPool& pool() { return pool_; }
  [[nodiscard]] Network& network() { return *network_; }
  [[nodiscard]] net::Link& link(std::string_view id) { return network_->link(id); }
  [[nodiscard]] std::vector<std::string> link_ids() const { return network_->link_ids(); }
  [[nodiscard]] size_t flow_count() const { return network_->flows().size(); }
  [[nodiscard]] FlowRuntime& flow(size_t i) { return *network_->flows()[i]; }
  [[nodiscard]] UdpRuntime& udp(size_t i) { return *network_->udp()[i]; }
  [[nodiscard]] traffic::FlowArrivals& arrivals(size_t i) { return *network_->arrivals()[i]; }
  /// Flows crossing the bottleneck now (scenario flows and arriving flows).
  [[nodiscard]] int64_t active_flows() const { return clock_.active(); }
  /// Packets of a route currently on any link (waiting, serializing or propagating).
  [[nodiscard]] uint64_t packets_on_links(const net::Route& r) const { return network_->packets_on_links(r); }
  /// The summary.json document for the current result.
  [[nodiscard]] nlohmann::json summary_json() const { return run::summary_json(scenario_, result_, version_); }

 private:
  Experiment(std::unique_ptr<config::Scenario> owned, const config::Scenario* borrowed, std::string version);
  void add_probes();
  /// Frees the parts of an owned scenario that only the build reads (see the constructor).
  void release_build_specs();

  std::unique_ptr<config::Scenario> owned_;  // null when the scenario is borrowed
  const config::Scenario& scenario_;
  std::string version_;
  Simulator sim_;
  net::PacketPool pool_;
  traffic::ActiveFlowClock clock_{sim_};  // flows crossing the bottleneck (fair-share completion times)
  std::unique_ptr<trace::PacketTraceWriter> packet_trace_;  // "/output/packet_trace", outlives the network
  std::unique_ptr<Network> network_;
  FlowLifecycle lifecycle_;
  trace::Sampler sampler_;
  RunProbes probes_;
  RunResult result_;
};

}  // namespace fastsim::run
