// The sampler: one event per sample interval that asks every probe to record the period
// that just ended (htsim's sampling loggers; one pending event whatever the number of
// monitored objects). It samples at interval, 2 x interval, ... up to the end of the run.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "fastsim/core/simulator.hpp"
#include "fastsim/trace/probe.hpp"

namespace fastsim::trace {

class Sampler final : public Event {
 public:
  Sampler(Simulator& sim, Duration interval, Time end) : sim_(sim), interval_(interval), end_(end) {}
  Sampler(const Sampler&) = delete;
  Sampler& operator=(const Sampler&) = delete;

  /// Adds a probe (before start()); probes are sampled in the order they were added.
  template <class P>
  P& add(std::unique_ptr<P> probe) {
    P& ref = *probe;
    probes_.push_back(std::move(probe));
    return ref;
  }
  /// Opens every probe's trace files under `out_dir`; they share one write-buffer budget.
  void open(const std::string& out_dir);
  /// Schedules the first sample (one interval from now) and tells every probe how many
  /// periods the run holds (the sample times now + k x interval <= end, k >= 1).
  void start();
  void fire() override;
  /// Finishes every trace file (flushed and closed; throws on a write error).
  void close();
  /// Renames every trace file into place; returns their paths.
  std::vector<std::string> commit();

  /// End of each sample period so far, in seconds.
  [[nodiscard]] const std::vector<double>& sample_times_s() const { return sample_times_s_; }

 private:
  Simulator& sim_;
  Duration interval_;
  Time end_;
  std::vector<std::unique_ptr<Probe>> probes_;
  std::vector<double> sample_times_s_;
};

}  // namespace fastsim::trace
