// A run's output folder (see run_folder.hpp).
#include "fastsim/trace/run_folder.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace fastsim::trace {

namespace fs = std::filesystem;

namespace {

constexpr const char* kTraceFolders[] = {"flows", "links", "udp", "arrivals"};

/// A temporary of a run's own: what a killed run leaves and the next one removes.
bool is_run_temporary(const fs::path& file, bool top) {
  const std::string name = file.filename().native();
  if (top)
    return name == "summary.json.tmp" || name == "packet_trace.bin.tmp";
  return name.ends_with(".csv.tmp") || name.ends_with(".pcap.tmp");
}

}  // namespace

RunFolder::~RunFolder() {
  if (lock_fd_ >= 0)
    ::close(lock_fd_);  // releases the lock
}

void RunFolder::prepare() {
  for (const char* sub : kTraceFolders) {
    std::error_code ec;
    fs::create_directories(fs::path(dir_) / sub, ec);
    if (ec)
      throw std::system_error(ec, "cannot create " + (fs::path(dir_) / sub).string());
  }
  lock_fd_ = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (lock_fd_ >= 0 && ::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    ::close(lock_fd_);
    lock_fd_ = -1;
    if (error == EWOULDBLOCK) {
      throw std::runtime_error(dir_ +
                               " is being written by another fastsim run: wait for it to end, or use another --out "
                               "(its temporaries would be removed and the two results mixed)");
    }
    // No lock on this file system (NFS refuses flock on a folder): the run goes on unguarded.
  }
  std::vector<fs::path> folders{dir_};
  for (const char* sub : kTraceFolders)
    folders.push_back(fs::path(dir_) / sub);
  for (const auto& folder : folders) {
    for (const auto& e : fs::directory_iterator(folder)) {
      if (e.is_regular_file() && is_run_temporary(e.path(), folder == folders.front()))
        fs::remove(e.path());
    }
  }
}

void RunFolder::remove_summary() const {
  fs::remove(summary_path());
}

void RunFolder::remove_traces_except(const std::vector<std::string>& keep) const {
  // The normal forms as strings (two normal paths are equal exactly when their strings
  // are): an fs::path also holds its components, 2.8 MB for 10 000 trace files.
  std::vector<std::string> kept;
  kept.reserve(keep.size());
  for (const auto& k : keep)
    kept.push_back(fs::path(k).lexically_normal().native());
  // Sorted for binary search: a run with 10 000 trace files compared every file with
  // every kept path (10^8 path comparisons, most of that run's wall time).
  std::sort(kept.begin(), kept.end());
  auto is_kept = [&kept](const fs::path& p) { return std::binary_search(kept.begin(), kept.end(), p.native()); };
  // A packet trace (packet_traces.hpp) the new run did not write.
  const fs::path packets = (fs::path(dir_) / "packet_trace.bin").lexically_normal();
  if (!is_kept(packets))
    fs::remove(packets);
  for (const char* sub : kTraceFolders) {
    for (const auto& e : fs::directory_iterator(fs::path(dir_) / sub)) {
      const auto ext = e.path().extension();
      if (e.is_regular_file() && (ext == ".csv" || ext == ".pcap") && !is_kept(e.path().lexically_normal()))
        fs::remove(e.path());
    }
  }
}

}  // namespace fastsim::trace
