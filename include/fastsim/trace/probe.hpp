// A probe watches one monitored object (a flow, a link, an arrival process) for the
// sampler (sampler.hpp): at every sample instant it records the object's figures for the
// period that just ended and, when the run writes outputs, appends a row to its own CSV.
// Probes read their object through its public read-only view (counters, window, RTT
// estimator); the object does not know it is watched.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "fastsim/core/time.hpp"
#include "fastsim/trace/atomic_file.hpp"

namespace fastsim::trace {

class Probe {
 public:
  virtual ~Probe() = default;
  /// Trace files this probe writes when outputs are on.
  [[nodiscard]] virtual size_t files() const = 0;
  /// Creates the trace files under `out_dir` (whose subfolders exist) with `options`
  /// (write buffer, transient), and writes their header rows. Not called when no outputs are written.
  virtual void open(const std::string& out_dir, const TraceFileOptions& options) = 0;
  /// Records the period (now - tau, now] that just ended.
  virtual void sample(Time now, Duration tau) = 0;
  /// The run will call sample() `periods` times (from the sampler's start): a probe that
  /// keeps a series may size it once instead of growing it by doubling.
  virtual void expect_samples(size_t periods) { (void)periods; }
  /// Finishes writing the trace files (flushed and closed, not yet in place). Throws
  /// std::system_error on a write error.
  void close() {
    for (auto& f : files_)
      f->close();
  }
  /// Appends the paths of this probe's trace files (where they go) to `out`.
  void file_paths(std::vector<std::string>& out) const {
    for (const auto& f : files_)
      out.push_back(f->path());
  }
  /// Renames the trace files into place (the run finished) and appends their paths to
  /// `written`. Throws std::system_error on a write or rename error.
  void commit(std::vector<std::string>& written) {
    for (auto& f : files_) {
      f->commit();
      written.push_back(f->path());
    }
  }

 protected:
  /// Creates a trace file of this probe (from open()); the probe owns it.
  AtomicFile& create_file(std::string path, const TraceFileOptions& options) {
    files_.push_back(std::make_unique<AtomicFile>(std::move(path), options.buffer, options.transient));
    return *files_.back();
  }

 private:
  std::vector<std::unique_ptr<AtomicFile>> files_;
};

}  // namespace fastsim::trace
