// One TCP connection's runtime pieces: its sender and receiver, the two source routes
// between them (data, ACKs) with their loss counters, and the optional host models
// (net/host_noise.hpp: sender jitter, ACK coalescing; the local-congestion hook between
// the sender and its first hop). Shared by the scenario's
// flows (run/network.hpp) and the flows of arrival processes (flow_arrivals.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fastsim/cc/registry.hpp"
#include "fastsim/config/scenario.hpp"
#include "fastsim/net/host_noise.hpp"
#include "fastsim/net/link.hpp"
#include "fastsim/net/route.hpp"
#include "fastsim/tcp/tcp_receiver.hpp"
#include "fastsim/tcp/tcp_sender.hpp"

namespace fastsim::traffic {

/// The TCP settings of a run's connections, one shared copy per distinct value: the
/// senders and receivers of the 10 000 replicas of a scenario flow hold one (they held
/// a 120-byte copy each, 2.4 MB). A value is looked for among the most recent few only,
/// so a run whose every flow has settings of its own costs a bounded search per flow.
class SharedTcpConfigs {
 public:
  std::shared_ptr<const tcp::TcpConfig> get(const tcp::TcpConfig& cfg) {
    for (size_t i = kept_.size(); i-- > 0 && i + kSearched >= kept_.size();) {
      if (*kept_[i] == cfg)
        return kept_[i];
    }
    kept_.push_back(std::make_shared<const tcp::TcpConfig>(cfg));
    return kept_.back();
  }
  /// Distinct copies made so far.
  [[nodiscard]] size_t size() const { return kept_.size(); }

 private:
  static constexpr size_t kSearched = 8;
  std::vector<std::shared_ptr<const tcp::TcpConfig>> kept_;
};

struct TcpConnection {
  net::RouteCounters data_counters;
  net::RouteCounters ack_counters;
  net::Route data_route;
  net::Route ack_route;
  std::unique_ptr<net::SendJitter> send_jitter;      ///< when spec.tcp.send_jitter > 0
  std::unique_ptr<net::AckCoalescer> ack_coalescer;  ///< when spec.tcp.ack_coalescing > 0
  std::unique_ptr<tcp::TcpSender> sender;
  std::unique_ptr<tcp::TcpReceiver> receiver;

  /// Makes the sender (with `spec`'s algorithm, parameters and TCP settings) and the
  /// receiver over `data` and `ack` links (each endpoint sends into the first link of its
  /// route, through the host noise elements the settings ask for, whose random streams
  /// are named after `name` under the scenario `seed`); `segments` = 0 for a bulk flow.
  /// The sender and receiver share their settings through `configs`.
  void connect(Simulator& sim, net::PacketPool& pool, const config::FlowSpec& spec, std::vector<net::Link*> data,
               std::vector<net::Link*> ack, uint64_t segments, uint64_t seed, std::string_view name,
               SharedTcpConfigs& configs) {
    data_route = {std::move(data), nullptr, &data_counters};
    ack_route = {std::move(ack), nullptr, &ack_counters};
    net::Link& nic = *data_route.links.front();
    net::PacketSink* data_out = &nic;
    net::PacketSink* ack_out = ack_route.links.front();
    const std::string stream(name);
    if (spec.tcp.send_jitter > Duration::zero()) {
      send_jitter =
          std::make_unique<net::SendJitter>(sim, pool, nic, spec.tcp.send_jitter, seed, "send-jitter/" + stream);
      data_out = send_jitter.get();
    }
    if (spec.tcp.ack_coalescing > Duration::zero()) {
      ack_coalescer = std::make_unique<net::AckCoalescer>(sim, pool, *ack_out, spec.tcp.ack_coalescing, seed,
                                                          "ack-coalescing/" + stream);
      ack_out = ack_coalescer.get();
    }
    auto algorithm = cc::find_algorithm(spec.algorithm)->make(spec.params);
    tcp::TcpConfig tcp = spec.tcp;
    if (algorithm->needs_ecn())  // DCTCP: ECN on, CE echoed exactly (Linux TCP_CONG_NEEDS_ECN)
      tcp.ecn = tcp.ecn_exact_echo = true;
    const std::shared_ptr<const tcp::TcpConfig> shared = configs.get(tcp);
    sender =
        std::make_unique<tcp::TcpSender>(sim, pool, shared, std::move(algorithm), &data_route, *data_out, segments);
    if (spec.tcp.local_congestion)
      sender->set_local_congestion_queue(&nic);
    receiver = std::make_unique<tcp::TcpReceiver>(sim, pool, shared, &ack_route, *ack_out);
    data_route.sink = receiver.get();
    ack_route.sink = sender.get();
    net::check_route_against_wiring(data_route);  // a connection made during the run (flow arrivals)
    net::check_route_against_wiring(ack_route);
  }
};

}  // namespace fastsim::traffic
