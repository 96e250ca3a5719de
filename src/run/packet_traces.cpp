// A run's packet traces (see packet_traces.hpp).
#include "fastsim/run/packet_traces.hpp"

#include <map>

namespace fastsim::run {

std::unique_ptr<trace::PacketTraceWriter> attach_packet_traces(const config::Scenario& scenario, Network& network,
                                                               const std::string& dir) {
  const config::PacketTraceSpec& spec = scenario.packet_trace;
  if (!spec.any())
    return nullptr;
  trace::PacketTraceLayout layout;
  // Flows: the scenario's TCP flows, then its UDP sources (their records' `flow`).
  for (const auto& f : network.flows()) {
    const auto index = static_cast<uint32_t>(layout.flows.size());
    layout.flows.push_back({f->spec->id, f->spec->tcp.mss, false});
    layout.flow_of_route[&f->data_route] = index;
    layout.flow_of_route[&f->ack_route] = index;
  }
  for (const auto& u : network.udp()) {
    layout.flow_of_route[&u->route] = static_cast<uint32_t>(layout.flows.size());
    layout.flows.push_back({u->spec->path.id, u->spec->packet_size, true});
  }
  // Objects: the traced links, then the traced senders; captured links not traced for
  // events get ids past the table.
  std::map<size_t, uint32_t> link_object;
  for (size_t l : spec.links) {
    link_object[l] = static_cast<uint32_t>(layout.objects.size());
    layout.objects.push_back({scenario.links[l].link.id, true, trace::kNoFlow});
  }
  std::vector<std::pair<size_t, uint32_t>> senders;
  for (size_t f : spec.flows) {
    senders.emplace_back(f, static_cast<uint32_t>(layout.objects.size()));
    layout.objects.push_back({scenario.flows[f].id, false, static_cast<uint32_t>(f)});
  }
  auto next = static_cast<uint32_t>(layout.objects.size());
  for (size_t l : spec.pcap) {
    if (!link_object.contains(l))
      link_object[l] = next++;
    layout.pcap.emplace_back(link_object[l], dir + "/links/" + scenario.links[l].link.id + ".pcap");
  }
  auto writer =
      std::make_unique<trace::PacketTraceWriter>(spec.events() ? dir + "/" + kPacketTraceFile : "", std::move(layout));
  for (const auto& [l, object] : link_object)
    network.link(scenario.links[l].link.id).set_observer(writer.get(), object);
  for (const auto& [f, object] : senders)
    network.flows().at(f)->sender->set_observer(writer.get(), object);
  return writer;
}

}  // namespace fastsim::run
