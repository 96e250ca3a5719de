// The output folder of one run, replaced only by a complete new result:
// - prepare(): creates the folder and its trace subfolders, takes the folder's lock
//   (flock(2) on the folder itself, held until the RunFolder ends: a second run into the
//   same folder is refused instead of deleting the first one's temporaries; where the file
//   system has no such lock, NFS, the run goes on unguarded), and removes the temporaries a
//   killed run left behind (only names a run writes: summary.json.tmp,
//   packet_trace.bin.tmp, and *.csv.tmp / *.pcap.tmp in the trace subfolders); a previous
//   result is not touched.
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
  RunFolder(const RunFolder&) = delete;
  RunFolder& operator=(const RunFolder&) = delete;
  ~RunFolder();
  /// Creates DIR/{flows,links,udp,arrivals}, locks DIR and removes the stale temporaries.
  /// Throws std::runtime_error naming DIR if another process holds its lock.
  void prepare();
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
  int lock_fd_ = -1;  ///< DIR opened for its lock, or -1
};

}  // namespace fastsim::trace
