// The builder (see network.hpp): links, flows, UDP sources and arrival processes of a
// scenario, then the chaining of single-fed links over every route.
#include "fastsim/run/network.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace fastsim::run {

Network::Network(const config::Scenario& scenario, Simulator& sim, net::PacketPool& pool,
                 traffic::ActiveFlowClock& clock)
    : scenario_(scenario) {
  build_links(sim, pool);
  build_flows(sim, pool);
  build_udp_sources(sim, pool);
  build_arrivals(sim, pool, clock);
  chain_single_fed_links();
}

std::vector<net::Link*> Network::links_at(const std::vector<size_t>& indices) const {
  std::vector<net::Link*> out;
  for (size_t i : indices)
    out.push_back(links_.at(i).get());
  return out;
}

size_t Network::index_of(std::string_view id) const {
  const auto it = std::lower_bound(by_id_.begin(), by_id_.end(), id,
                                   [&](uint32_t i, std::string_view key) { return links_[i]->id() < key; });
  if (it == by_id_.end() || links_[*it]->id() != id)
    throw std::out_of_range(fmt::format("no link with id \"{}\"", id));
  return *it;
}

std::vector<std::string> Network::link_ids() const {
  std::vector<std::string> ids;
  ids.reserve(links_.size());
  for (const auto& l : links_)
    ids.push_back(l->id());
  return ids;
}

void Network::build_links(Simulator& sim, net::PacketPool& pool) {
  // The parser rejects duplicate ids: the scenario's index of a link is its index here.
  links_.reserve(scenario_.links.size());
  for (const auto& l : scenario_.links)
    links_.push_back(std::make_unique<net::Link>(sim, pool, l.link, scenario_.seed));
  by_id_.resize(links_.size());
  for (uint32_t i = 0; i < by_id_.size(); ++i)
    by_id_[i] = i;
  std::sort(by_id_.begin(), by_id_.end(), [&](uint32_t a, uint32_t b) { return links_[a]->id() < links_[b]->id(); });
}

void Network::build_flows(Simulator& sim, net::PacketPool& pool) {
  const net::Link* bottleneck = &link(scenario_.bottleneck);
  for (const auto& spec : scenario_.flows) {
    auto f = std::make_unique<FlowRuntime>();
    f->spec = &spec;
    f->activity.start = Time::at(spec.start);
    const uint64_t segments = spec.size_bytes ? (*spec.size_bytes + spec.tcp.mss - 1) / spec.tcp.mss : 0;
    f->connect(sim, pool, spec, links_at(spec.data_links), links_at(spec.ack_links), segments, scenario_.seed, spec.id,
               tcp_configs_);
    const auto& route = f->data_route.links;
    f->crosses_bottleneck = std::find(route.begin(), route.end(), bottleneck) != route.end();
    flows_.push_back(std::move(f));
  }
}

void Network::build_udp_sources(Simulator& sim, net::PacketPool& pool) {
  for (const auto& spec : scenario_.udp) {
    auto u = std::make_unique<UdpRuntime>();
    u->spec = &spec;
    u->route.links = links_at(spec.path.data_links);
    u->route.counters = &u->counters;
    u->sink = std::make_unique<traffic::CountingSink>(pool);
    u->route.sink = u->sink.get();
    const Time start = Time::at(spec.start);
    const Time stop = spec.stop ? Time::at(*spec.stop) : Time::at(scenario_.duration);
    if (spec.type == config::UdpSpec::Type::kParetoOnOff) {
      const traffic::ParetoOnOffSource::Params p{spec.rate, spec.packet_size, spec.shape, spec.mean_on, spec.mean_off};
      u->source = std::make_unique<traffic::ParetoOnOffSource>(sim, pool, &u->route, *u->route.links.front(), p, start,
                                                               stop, scenario_.seed, spec.path.id);
    } else {
      // A burst without a rate goes at the line rate of its first link.
      const Rate rate = spec.rate.bps > 0 ? spec.rate : u->route.links.front()->config().rate;
      u->source = std::make_unique<traffic::CbrSource>(sim, pool, &u->route, *u->route.links.front(), rate,
                                                       spec.packet_size, start, stop);
    }
    udp_.push_back(std::move(u));
  }
}

void Network::build_arrivals(Simulator& sim, net::PacketPool& pool, traffic::ActiveFlowClock& clock) {
  const net::Link& bottleneck = link(scenario_.bottleneck);
  for (const auto& spec : scenario_.arrivals) {
    std::vector<std::pair<std::vector<net::Link*>, std::vector<net::Link*>>> paths;
    for (const auto& p : spec.paths)
      paths.emplace_back(links_at(p.data_links), links_at(p.ack_links));
    // "load": the fraction of the bottleneck's rate the arriving bytes offer.
    const double rate = spec.flows_per_s
                            ? *spec.flows_per_s
                            : *spec.load * bottleneck.config().rate.to_double() / (8.0 * spec.size.mean_bytes());
    const Time stop = spec.stop ? Time::at(*spec.stop) : Time::at(scenario_.duration);
    arrivals_.push_back(std::make_unique<traffic::FlowArrivals>(sim, pool, spec, std::move(paths), rate, stop,
                                                                scenario_.seed, clock, bottleneck));
  }
}

void Network::chain_single_fed_links() {
  std::vector<const net::Route*> routes;
  for (const auto& f : flows_) {
    routes.push_back(&f->data_route);
    routes.push_back(&f->ack_route);
  }
  for (const auto& u : udp_)
    routes.push_back(&u->route);
  for (const auto& a : arrivals_) {
    for (const net::Route* r : a->path_routes())
      routes.push_back(r);
  }
  net::wire_single_fed_links(routes);
}

void Network::start_sources() {
  for (auto& u : udp_)
    u->source->start();
  for (auto& a : arrivals_)
    a->start();
}

uint64_t Network::packets_on_links(const net::Route& r) const {
  uint64_t n = 0;
  for (const auto& link : links_)
    link->for_each_packet([&](const net::Packet& p) { n += p.route == &r ? 1 : 0; });
  return n;
}

}  // namespace fastsim::run
