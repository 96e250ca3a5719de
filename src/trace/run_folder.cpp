// A run's output folder (see run_folder.hpp).
#include "fastsim/trace/run_folder.hpp"

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace fastsim::trace {

namespace fs = std::filesystem;

namespace {
constexpr const char* kTraceFolders[] = {"flows", "links", "udp", "arrivals"};
}

void RunFolder::prepare() const {
  for (const char* sub : kTraceFolders)
    fs::create_directories(fs::path(dir_) / sub);
  std::vector<fs::path> folders{dir_};
  for (const char* sub : kTraceFolders)
    folders.push_back(fs::path(dir_) / sub);
  for (const auto& folder : folders) {
    for (const auto& e : fs::directory_iterator(folder)) {
      if (e.is_regular_file() && e.path().extension() == ".tmp")
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
