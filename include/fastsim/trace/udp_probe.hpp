// The probe of one UDP source: with outputs on, udp/<id>.csv — packets sent, delivered
// and dropped so far, and the period's delivered rate on the wire (docs/outputs.md), so
// the cross traffic a TCP flow competed with can be plotted next to it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "fastsim/net/route.hpp"
#include "fastsim/trace/atomic_file.hpp"
#include "fastsim/trace/probe.hpp"
#include "fastsim/traffic/udp_source.hpp"

namespace fastsim::trace {

class UdpProbe final : public Probe {
 public:
  /// The source, its sink and its route's loss counters must outlive the probe.
  UdpProbe(std::string id, const traffic::UdpSource& source, const traffic::CountingSink& sink,
           const net::RouteCounters& counters)
      : id_(std::move(id)), source_(source), sink_(sink), counters_(counters) {}

  [[nodiscard]] size_t files() const override { return 1; }
  void open(const std::string& out_dir, size_t buffer) override;
  void sample(Time now, Duration tau) override;
  void commit() override;

 private:
  std::string id_;
  const traffic::UdpSource& source_;
  const traffic::CountingSink& sink_;
  const net::RouteCounters& counters_;
  uint64_t bytes_at_last_sample_ = 0;
  std::unique_ptr<AtomicFile> file_;
};

}  // namespace fastsim::trace
