// The builder: turns a typed Scenario into its components — links (net/), TCP flows
// (traffic/tcp_connection.hpp: sender + receiver + routes), UDP sources and arrival
// processes (traffic/) — and owns them for the run. Every route is known once it is built,
// so single-fed links are chained here (net/link.hpp). Starting, stopping and completing
// flows is the flow lifecycle's job (flow_lifecycle.hpp), watching them the sampler's.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fastsim/config/scenario.hpp"
#include "fastsim/core/simulator.hpp"
#include "fastsim/net/link.hpp"
#include "fastsim/net/packet_pool.hpp"
#include "fastsim/trace/flow_probe.hpp"
#include "fastsim/traffic/active_flow_clock.hpp"
#include "fastsim/traffic/cbr_source.hpp"
#include "fastsim/traffic/flow_arrivals.hpp"
#include "fastsim/traffic/pareto_on_off_source.hpp"
#include "fastsim/traffic/tcp_connection.hpp"

namespace fastsim::run {

/// A scenario flow's runtime pieces.
struct FlowRuntime : traffic::TcpConnection {
  const config::FlowSpec* spec = nullptr;
  bool crosses_bottleneck = false;
  trace::FlowActivity activity;  ///< kept by the flow lifecycle
};

/// A UDP source's runtime pieces.
struct UdpRuntime {
  const config::UdpSpec* spec = nullptr;
  net::RouteCounters counters;
  net::Route route;
  std::unique_ptr<traffic::CountingSink> sink;
  std::unique_ptr<traffic::UdpSource> source;  ///< CBR (also bursts) or Pareto on/off
};

class Network {
 public:
  /// Builds every component of `scenario` (which must outlive the network); nothing is
  /// scheduled yet. Arrival processes report their flows to `clock`.
  Network(const config::Scenario& scenario, Simulator& sim, net::PacketPool& pool, traffic::ActiveFlowClock& clock);
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;
  /// Schedules the first events of the UDP sources and arrival processes (scenario flows
  /// are started by the flow lifecycle).
  void start_sources();

  /// The link of id `id`; throws std::out_of_range naming the id if there is none.
  [[nodiscard]] net::Link& link(std::string_view id) { return *links_[index_of(id)]; }
  [[nodiscard]] const net::Link& link(std::string_view id) const { return *links_[index_of(id)]; }
  /// The links in scenario order.
  [[nodiscard]] const std::vector<std::unique_ptr<net::Link>>& links() const { return links_; }
  /// Link ids in scenario order (a copy: for tests and tools).
  [[nodiscard]] std::vector<std::string> link_ids() const;
  [[nodiscard]] const net::Link& bottleneck() const { return link(scenario_.bottleneck); }
  [[nodiscard]] std::vector<std::unique_ptr<FlowRuntime>>& flows() { return flows_; }
  [[nodiscard]] const std::vector<std::unique_ptr<FlowRuntime>>& flows() const { return flows_; }
  [[nodiscard]] std::vector<std::unique_ptr<UdpRuntime>>& udp() { return udp_; }
  [[nodiscard]] const std::vector<std::unique_ptr<UdpRuntime>>& udp() const { return udp_; }
  [[nodiscard]] std::vector<std::unique_ptr<traffic::FlowArrivals>>& arrivals() { return arrivals_; }
  [[nodiscard]] const std::vector<std::unique_ptr<traffic::FlowArrivals>>& arrivals() const { return arrivals_; }
  /// Packets of a route currently on any link (waiting, serializing or propagating).
  [[nodiscard]] uint64_t packets_on_links(const net::Route& r) const;

 private:
  [[nodiscard]] std::vector<net::Link*> links_at(const std::vector<size_t>& indices) const;
  [[nodiscard]] size_t index_of(std::string_view id) const;
  void build_links(Simulator& sim, net::PacketPool& pool);
  void build_flows(Simulator& sim, net::PacketPool& pool);
  void build_udp_sources(Simulator& sim, net::PacketPool& pool);
  void build_arrivals(Simulator& sim, net::PacketPool& pool, traffic::ActiveFlowClock& clock);
  void chain_single_fed_links();

  const config::Scenario& scenario_;
  // The links in scenario order, and their indices sorted by id for lookup: the ids
  // themselves are stored once, in the links (at 10 000 flows, 40 002 of them).
  std::vector<std::unique_ptr<net::Link>> links_;
  std::vector<uint32_t> by_id_;
  traffic::SharedTcpConfigs tcp_configs_;  // the flows' settings, one copy per distinct value
  std::vector<std::unique_ptr<FlowRuntime>> flows_;
  std::vector<std::unique_ptr<UdpRuntime>> udp_;
  std::vector<std::unique_ptr<traffic::FlowArrivals>> arrivals_;
};

}  // namespace fastsim::run
