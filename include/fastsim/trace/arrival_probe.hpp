// The probe of one arrival process of finite flows: with outputs on, arrivals/<id>.csv
// (running, started and completed flows per period, their mean completion time and
// slowdown) and, with the process's "traces": true, arrivals/<id>-flows.csv (a row per
// running flow per period) (docs/outputs.md).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "fastsim/trace/atomic_file.hpp"
#include "fastsim/trace/probe.hpp"
#include "fastsim/traffic/flow_arrivals.hpp"

namespace fastsim::trace {

class ArrivalProbe final : public Probe {
 public:
  /// The process must outlive the probe. The probe takes the process's per-period counts.
  explicit ArrivalProbe(traffic::FlowArrivals& arrivals);

  [[nodiscard]] size_t files() const override { return arrivals_.spec().traces ? 2 : 1; }
  void open(const std::string& out_dir, const TraceFileOptions& options) override;
  void sample(Time now, Duration tau) override;

 private:
  traffic::FlowArrivals& arrivals_;
  AtomicFile* file_ = nullptr;        // null unless outputs are written
  AtomicFile* flows_file_ = nullptr;  // null unless "traces": true
  std::vector<traffic::ActiveFlowSample> active_;
};

}  // namespace fastsim::trace
