// One simulation run: builds the network and flows from a Scenario, runs it, samples
// traces, computes the metrics and writes the outputs (traces, summary.json).
// Components are wired as: sender -> access link -> router ... -> receiver, with ACKs
// on the reverse route (see docs/architecture.md).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fastsim/config/scenario.hpp"
#include "fastsim/core/simulator.hpp"
#include "fastsim/net/cbr_source.hpp"
#include "fastsim/net/link.hpp"
#include "fastsim/net/packet_pool.hpp"
#include "fastsim/net/pareto_on_off_source.hpp"
#include "fastsim/run/flow_arrivals.hpp"
#include "fastsim/run/results.hpp"
#include "fastsim/run/tcp_connection.hpp"
#include "fastsim/tcp/tcp_receiver.hpp"
#include "fastsim/tcp/tcp_sender.hpp"
#include "fastsim/trace/metrics.hpp"

namespace fastsim::run {

/// A flow's runtime pieces.
struct FlowRuntime : TcpConnection {
  const config::FlowSpec* spec = nullptr;
  bool started = false;
  bool crosses_bottleneck = false;
  std::optional<Time> ended;  ///< stop or completion time
  uint64_t delivered_at_last_sample = 0;
  std::vector<double> goodput_samples_bps;
};

/// A UDP source's runtime pieces.
struct UdpRuntime {
  const config::UdpSpec* spec = nullptr;
  net::RouteCounters counters;
  net::Route route;
  std::unique_ptr<net::CountingSink> sink;
  std::unique_ptr<net::CbrSource> cbr;  ///< constant bit rate and bursts
  std::unique_ptr<net::ParetoOnOffSource> pareto;
  [[nodiscard]] uint64_t sent() const { return cbr ? cbr->sent() : pareto->sent(); }
};

struct RunOptions {
  std::string out_dir;  ///< empty: no files written (tests)
  /// Called every few million events with (simulated seconds, events so far).
  std::function<void(double, uint64_t)> on_progress;
};

class Experiment {
 public:
  /// `scenario` must outlive the Experiment (it is referenced, not copied).
  explicit Experiment(const config::Scenario& scenario, std::string version = FASTSIM_VERSION);
  /// The experiment keeps a reference to its scenario: a temporary would dangle.
  explicit Experiment(config::Scenario&& scenario, std::string version = FASTSIM_VERSION) = delete;
  ~Experiment();
  Experiment(const Experiment&) = delete;
  Experiment& operator=(const Experiment&) = delete;

  /// Runs to the scenario's duration, computes results, writes outputs if asked.
  const RunResult& run(const RunOptions& options = {});
  /// Runs only up to `t` (tests); call run() afterwards to finish, or inspect.
  void run_until(Time t);

  [[nodiscard]] const RunResult& result() const { return result_; }
  [[nodiscard]] Simulator& sim() { return sim_; }
  [[nodiscard]] net::PacketPool& pool() { return pool_; }
  [[nodiscard]] net::Link& link(const std::string& id) { return *links_.at(id); }
  [[nodiscard]] std::vector<std::string> link_ids() const { return link_order_; }
  [[nodiscard]] size_t flow_count() const { return flows_.size(); }
  [[nodiscard]] FlowRuntime& flow(size_t i) { return *flows_[i]; }
  [[nodiscard]] UdpRuntime& udp(size_t i) { return *udp_[i]; }
  [[nodiscard]] FlowArrivals& arrivals(size_t i) { return *arrivals_[i]; }
  /// Packets of a route currently on any link (waiting, serializing or propagating).
  [[nodiscard]] uint64_t packets_on_links(const net::Route& r) const;
  /// The summary.json document for the current result.
  [[nodiscard]] nlohmann::json summary_json() const;

 private:
  class Sampler;
  void build_network();
  void build_flows();
  void build_udp_sources();
  void build_arrivals();
  void finish_flow(FlowRuntime& f, Time t);
  void compute_results(double wall_s);
  /// Fairness ratio of a joining flow and convergence times of one interval.
  void interval_dynamics(const trace::IntervalPlan& plan, const std::vector<double>& means, IntervalResult& ir) const;
  void write_outputs(const std::string& dir) const;

  const config::Scenario& scenario_;
  std::string version_;
  Simulator sim_;
  net::PacketPool pool_;
  std::map<std::string, std::unique_ptr<net::Link>> links_;
  std::vector<std::string> link_order_;
  std::vector<std::unique_ptr<FlowRuntime>> flows_;
  std::vector<std::unique_ptr<UdpRuntime>> udp_;
  ActiveFlowClock clock_{sim_};  // flows crossing the bottleneck (fair-share completion times)
  std::vector<std::unique_ptr<FlowArrivals>> arrivals_;
  std::unique_ptr<Sampler> sampler_;
  RunResult result_;
};

}  // namespace fastsim::run
