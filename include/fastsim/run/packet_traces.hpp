// Sets up a run's per-packet event traces ("/output/packet_trace", trace/packet_trace.hpp):
// the layout of the trace (the traced links and senders, every flow's name and MSS, the
// routes of each flow) and the observer hooks on the links and senders.
#pragma once

#include <memory>
#include <string>

#include "fastsim/config/scenario.hpp"
#include "fastsim/run/network.hpp"
#include "fastsim/trace/packet_trace.hpp"

namespace fastsim::run {

/// The file of the event records in a run folder.
inline constexpr const char* kPacketTraceFile = "packet_trace.bin";

/// Makes the writer of `scenario.packet_trace` for the run folder `dir` (the events in
/// DIR/packet_trace.bin, each captured link in DIR/links/<id>.pcap) and attaches it to
/// the network's links and senders; nullptr (nothing attached) if nothing is traced.
std::unique_ptr<trace::PacketTraceWriter> attach_packet_traces(const config::Scenario& scenario, Network& network,
                                                               const std::string& dir);

}  // namespace fastsim::run
