// The probe of one UDP source entry of the scenario: with outputs on, udp/<id>.csv —
// packets sent, delivered and dropped so far, and the period's delivered rate on the wire
// (docs/outputs.md), so the cross traffic a TCP flow competed with can be plotted next to
// it. The replicas of an entry with `count` are summed into the entry's one file (a
// hundred background sources are one aggregate, and one open file).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fastsim/net/route.hpp"
#include "fastsim/trace/atomic_file.hpp"
#include "fastsim/trace/probe.hpp"
#include "fastsim/traffic/udp_source.hpp"

namespace fastsim::trace {

class UdpProbe final : public Probe {
 public:
  /// One source of the entry: all three must outlive the probe.
  struct Member {
    const traffic::UdpSource* source;
    const traffic::CountingSink* sink;
    const net::RouteCounters* counters;
  };
  UdpProbe(std::string id, std::vector<Member> members) : id_(std::move(id)), members_(std::move(members)) {}

  [[nodiscard]] size_t files() const override { return 1; }
  void open(const std::string& out_dir, const TraceFileOptions& options) override;
  void sample(Time now, Duration tau) override;

 private:
  std::string id_;
  std::vector<Member> members_;
  uint64_t bytes_at_last_sample_ = 0;
  AtomicFile* file_ = nullptr;  // null unless outputs are written
};

}  // namespace fastsim::trace
