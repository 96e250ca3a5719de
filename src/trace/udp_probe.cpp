// The per-UDP-source trace (see udp_probe.hpp).
#include "fastsim/trace/udp_probe.hpp"

#include <fmt/format.h>

namespace fastsim::trace {

void UdpProbe::open(const std::string& out_dir, size_t buffer) {
  file_ = std::make_unique<AtomicFile>(fmt::format("{}/udp/{}.csv", out_dir, id_), buffer);
  file_->print("time_s,packets_sent,packets_delivered,drops,delivered_bps\n");
}

void UdpProbe::sample(Time now, Duration tau) {
  if (!file_)
    return;
  const uint64_t bytes = sink_.bytes();
  const double rate = static_cast<double>(bytes - bytes_at_last_sample_) * 8.0 / tau.to_seconds();
  bytes_at_last_sample_ = bytes;
  file_->print("{:.6f},{},{},{},{:.6g}\n", now.to_seconds(), source_.sent(), sink_.packets(),
               counters_.queue_drops + counters_.random_losses, rate);
}

void UdpProbe::commit() {
  if (file_)
    file_->commit();
}

}  // namespace fastsim::trace
