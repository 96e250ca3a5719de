// ns-3 counterpart of fastsim's benchmark B1 for `tools/bench --vs-ns3` (not part of the
// fastsim build: tools/bench compiles it against the PyPI `ns3` package's libraries).
// Same topology as fastsim's dumbbell: N senders -> r1 -> bottleneck -> r2 -> N receivers,
// each flow with its own access links; access delay (rtt/2 - bottleneck delay)/2 per side.
// Same transport as fastsim's B1: NewReno, SACK, delayed ACK (every 2nd segment), large
// socket buffers, IW10, minimum RTO 200 ms, classic (RFC 6582) recovery rather than
// ns-3's default PRR. 1448-byte segments with timestamps make 1500-byte IP packets.
// The bottleneck is a drop-tail device queue of `buffer` packets: devices are created
// with flow control disabled, so ns-3 installs no FqCoDel queue disc; main() checks that
// no queue disc exists on any device and fails otherwise.
// Prints one JSON object: simulated seconds, wall and CPU seconds of Simulator::Run(),
// events executed, and data segments delivered in order to the receivers (fastsim's
// data_packets_delivered).
#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

using namespace ns3;

namespace {

constexpr uint32_t kSegmentBytes = 1448;

NetDeviceContainer connect(Ptr<Node> a, Ptr<Node> b, const std::string& rate, double delay_ms,
                           uint32_t queue_packets) {
  PointToPointHelper link;
  link.SetDeviceAttribute("DataRate", StringValue(rate));
  link.SetChannelAttribute("Delay", TimeValue(MilliSeconds(delay_ms)));
  link.SetQueue("ns3::DropTailQueue", "MaxSize", QueueSizeValue(QueueSize(std::to_string(queue_packets) + "p")));
  link.DisableFlowControl();
  return link.Install(a, b);
}

bool any_queue_disc(const NodeContainer& nodes) {
  for (uint32_t n = 0; n < nodes.GetN(); ++n) {
    Ptr<Node> node = nodes.Get(n);
    Ptr<TrafficControlLayer> tc = node->GetObject<TrafficControlLayer>();
    for (uint32_t d = 0; tc && d < node->GetNDevices(); ++d) {
      if (tc->GetRootQueueDiscOnDevice(node->GetDevice(d)))
        return true;
    }
  }
  return false;
}

}  // namespace

int main(int argc, char* argv[]) {
  uint32_t flows = 10;
  double seconds = 10;
  std::string bottleneck_rate = "1Gbps";
  std::string access_rate = "10Gbps";
  double bottleneck_delay_ms = 2;
  double rtt_ms = 20;
  uint32_t buffer = 1667;
  uint32_t access_buffer = 10000;
  CommandLine cmd;
  cmd.AddValue("flows", "number of NewReno flows", flows);
  cmd.AddValue("seconds", "simulated duration", seconds);
  cmd.AddValue("bottleneckRate", "bottleneck rate", bottleneck_rate);
  cmd.AddValue("accessRate", "access link rate", access_rate);
  cmd.AddValue("bottleneckDelayMs", "bottleneck one-way delay (ms)", bottleneck_delay_ms);
  cmd.AddValue("rttMs", "base round-trip time (ms)", rtt_ms);
  cmd.AddValue("buffer", "bottleneck buffer (packets)", buffer);
  cmd.AddValue("accessBuffer", "access link buffers (packets)", access_buffer);
  cmd.Parse(argc, argv);

  Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TcpNewReno::GetTypeId()));
  Config::SetDefault("ns3::TcpL4Protocol::RecoveryType", TypeIdValue(TcpClassicRecovery::GetTypeId()));
  Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(kSegmentBytes));
  Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(2));
  Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(10));
  Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(1u << 30));
  Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(1u << 30));
  Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(true));
  Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(200)));

  NodeContainer routers(2), senders(flows), receivers(flows);
  InternetStackHelper stack;
  stack.Install(routers);
  stack.Install(senders);
  stack.Install(receivers);

  const double access_delay_ms = (rtt_ms / 2 - bottleneck_delay_ms) / 2;
  Ipv4AddressHelper addresses;
  addresses.SetBase("10.0.0.0", "255.255.255.252");
  addresses.Assign(connect(routers.Get(0), routers.Get(1), bottleneck_rate, bottleneck_delay_ms, buffer));
  std::vector<Ipv4Address> receiver_addresses;
  for (uint32_t i = 0; i < flows; ++i) {
    addresses.NewNetwork();
    addresses.Assign(connect(senders.Get(i), routers.Get(0), access_rate, access_delay_ms, access_buffer));
    addresses.NewNetwork();
    Ipv4InterfaceContainer rx =
        addresses.Assign(connect(routers.Get(1), receivers.Get(i), access_rate, access_delay_ms, access_buffer));
    receiver_addresses.push_back(rx.GetAddress(1));
  }
  Ipv4GlobalRoutingHelper::PopulateRoutingTables();
  NodeContainer all(routers, senders, receivers);
  if (any_queue_disc(all)) {
    std::fprintf(stderr, "ns3 dumbbell: a queue disc is installed; the bottleneck would not be drop-tail\n");
    return 1;
  }

  ApplicationContainer sinks;
  for (uint32_t i = 0; i < flows; ++i) {
    const uint16_t port = static_cast<uint16_t>(5000 + i);
    BulkSendHelper source("ns3::TcpSocketFactory", InetSocketAddress(receiver_addresses[i], port));
    source.SetAttribute("MaxBytes", UintegerValue(0));
    source.SetAttribute("SendSize", UintegerValue(kSegmentBytes * 64));
    source.Install(senders.Get(i)).Start(Seconds(0));
    PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
    sinks.Add(sink.Install(receivers.Get(i)));
  }
  sinks.Start(Seconds(0));

  Simulator::Stop(Seconds(seconds));
  const auto wall_start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();
  Simulator::Run();
  const double cpu_s = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();

  uint64_t bytes = 0;
  for (uint32_t i = 0; i < sinks.GetN(); ++i)
    bytes += DynamicCast<PacketSink>(sinks.Get(i))->GetTotalRx();
  std::printf("{\"sim_s\": %.3f, \"wall_s\": %.3f, \"cpu_s\": %.3f, \"events\": %llu, \"packets\": %llu}\n", seconds,
              wall_s, cpu_s, static_cast<unsigned long long>(Simulator::GetEventCount()),
              static_cast<unsigned long long>(bytes / kSegmentBytes));
  Simulator::Destroy();
  return 0;
}
