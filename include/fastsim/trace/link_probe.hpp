// The probe of one monitored link: its utilization, mean queue and largest queue per
// sample period (for the interval metrics) and, with outputs on, links/<id>.csv — the
// queue at the sample instant in packets and bytes, drops so far and the period's
// utilization, and CE marks so far on links that mark (docs/outputs.md).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "fastsim/net/link.hpp"
#include "fastsim/trace/atomic_file.hpp"
#include "fastsim/trace/probe.hpp"

namespace fastsim::trace {

/// Per-period figures of a link, one entry per sample period.
struct LinkSamples {
  std::vector<double> utilization;
  std::vector<double> mean_queue_pkts;
  std::vector<double> max_queue_pkts;
  std::vector<double> drops;  ///< packets lost at the link in the period (queue drops and random losses)
};

class LinkProbe final : public Probe {
 public:
  /// The link must outlive the probe. The probe takes the link's per-period maximum queue.
  explicit LinkProbe(net::Link& link);

  [[nodiscard]] size_t files() const override { return 1; }
  void open(const std::string& out_dir, const TraceFileOptions& options) override;
  void sample(Time now, Duration tau) override;

  [[nodiscard]] const net::Link& link() const { return link_; }
  [[nodiscard]] const LinkSamples& samples() const { return samples_; }

 private:
  net::Link& link_;
  Duration last_busy_;
  double last_area_ = 0;
  uint64_t last_drops_ = 0;
  uint64_t last_dequeued_ = 0;  // an AQM link: the discipline's counters at the last sample
  double last_sojourn_s_ = 0;
  LinkSamples samples_;
  AtomicFile* file_ = nullptr;  // null unless outputs are written
  bool marks_ = false;          // the link can mark CE: the trace has a ce_marks column
};

}  // namespace fastsim::trace
