// One TCP connection's runtime pieces: its sender and receiver and the two source
// routes between them (data, ACKs) with their loss counters. Shared by the scenario's
// flows (run/network.hpp) and the flows of arrival processes (flow_arrivals.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "fastsim/cc/registry.hpp"
#include "fastsim/config/scenario.hpp"
#include "fastsim/net/link.hpp"
#include "fastsim/net/route.hpp"
#include "fastsim/tcp/tcp_receiver.hpp"
#include "fastsim/tcp/tcp_sender.hpp"

namespace fastsim::traffic {

struct TcpConnection {
  net::RouteCounters data_counters;
  net::RouteCounters ack_counters;
  net::Route data_route;
  net::Route ack_route;
  std::unique_ptr<tcp::TcpSender> sender;
  std::unique_ptr<tcp::TcpReceiver> receiver;

  /// Makes the sender (with `spec`'s algorithm, parameters and TCP settings) and the
  /// receiver over `data` and `ack` links (each endpoint sends into the first link of its
  /// route); `segments` = 0 for a bulk flow.
  void connect(Simulator& sim, net::PacketPool& pool, const config::FlowSpec& spec, std::vector<net::Link*> data,
               std::vector<net::Link*> ack, uint64_t segments) {
    data_route = {std::move(data), nullptr, &data_counters};
    ack_route = {std::move(ack), nullptr, &ack_counters};
    sender =
        std::make_unique<tcp::TcpSender>(sim, pool, spec.tcp, cc::find_algorithm(spec.algorithm)->make(spec.params),
                                         &data_route, *data_route.links.front(), segments);
    receiver = std::make_unique<tcp::TcpReceiver>(sim, pool, spec.tcp, &ack_route, *ack_route.links.front());
    data_route.sink = receiver.get();
    ack_route.sink = sender.get();
  }
};

}  // namespace fastsim::traffic
