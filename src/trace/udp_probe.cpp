// The per-UDP-source trace (see udp_probe.hpp).
#include "fastsim/trace/udp_probe.hpp"
#include "fastsim/trace/sample_time.hpp"

#include <fmt/format.h>

namespace fastsim::trace {

void UdpProbe::open(const std::string& out_dir, const TraceFileOptions& options) {
  file_ = &create_file(fmt::format("{}/udp/{}.csv", out_dir, id_), options);
  file_->print("time_s,packets_sent,packets_delivered,drops,delivered_bps\n");
}

void UdpProbe::sample(Time now, Duration tau) {
  if (!file_)
    return;
  uint64_t sent = 0, delivered = 0, drops = 0, bytes = 0;
  for (const Member& m : members_) {
    sent += m.source->sent();
    delivered += m.sink->packets();
    drops += m.counters->queue_drops + m.counters->random_losses;
    bytes += m.sink->bytes();
  }
  const double rate = static_cast<double>(bytes - bytes_at_last_sample_) * 8.0 / tau.to_seconds();
  bytes_at_last_sample_ = bytes;
  file_->print("{},{},{},{},{:.6g}\n", SampleTime{now, tau}, sent, delivered, drops, rate);
}

}  // namespace fastsim::trace
