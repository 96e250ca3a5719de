// The output folder of one run, replaced only by a complete new result:
// - prepare(): creates the trace subfolders and removes temporaries a killed run left
//   behind; a previous result is not touched.
// - the run writes every file to "<name>.tmp" and finishes them all (every write done,
//   so a full disk or an I/O error fails the run here, leaving the previous result whole);
// - replace(): removes the previous summary.json (from here on the folder holds no
//   complete result), renames the new traces into place, removes the previous run's
//   traces that the new one did not write (CSVs, pcap files, packet_trace.bin), and
//   renames the new summary.json last.
//   Only renames and removals remain at that point: no write can fail half-way.
#pragma once

#include <string>
#include <vector>

#include "fastsim/trace/atomic_file.hpp"

namespace fastsim::trace {

class RunFolder {
 public:
  explicit RunFolder(std::string dir) : dir_(std::move(dir)) {}
  /// Creates DIR/{flows,links,udp,arrivals} and removes stale "*.tmp" files there and in DIR.
  void prepare() const;
  /// Removes the previous summary.json, calls `commit_traces` (which renames the new
  /// traces into place and returns their paths), removes every other CSV (and pcap) of
  /// the trace subfolders and a packet_trace.bin it did not write, and commits `summary`
  /// (closed already).
  template <class CommitTraces>
  void replace(AtomicFile& summary, CommitTraces&& commit_traces) const {
    remove_summary();
    const std::vector<std::string> written = commit_traces();
    remove_traces_except(written);
    summary.commit();
  }
  [[nodiscard]] std::string summary_path() const { return dir_ + "/summary.json"; }

 private:
  void remove_summary() const;
  void remove_traces_except(const std::vector<std::string>& keep) const;
  std::string dir_;
};

}  // namespace fastsim::trace
