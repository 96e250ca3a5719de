// Atomic output files: written to "<path>.tmp" through a buffered fmt file, renamed to
// <path> by commit(); a file that was never committed is removed, so a failed run
// leaves nothing that looks complete.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include <fmt/os.h>
#include <nlohmann/json.hpp>

namespace fastsim::trace {

/// Write buffer per file when `files` trace files are open at once: they share a 1 MB
/// budget (1000 traced flows get 1 KB each, a handful of files 32 KB), within [512 B, 32 KB].
size_t shared_buffer_size(size_t files);

class AtomicFile {
 public:
  static constexpr size_t kDefaultBuffer = 32 * 1024;
  explicit AtomicFile(std::string path, size_t buffer_bytes = kDefaultBuffer);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();

  template <class... Args>
  void print(fmt::format_string<Args...> f, Args&&... args) {
    out_->print(f, std::forward<Args>(args)...);
  }
  /// Flushes, closes and renames into place.
  void commit();

 private:
  std::string path_;
  std::string tmp_;
  std::unique_ptr<fmt::ostream> out_;
  bool committed_ = false;
};

/// Writes `text` to `path` atomically.
void write_file_atomically(const std::string& path, const std::string& text);
/// Writes `doc` as JSON indented by 2 and a final newline (the bytes of dump(2) + "\n")
/// to `path` atomically, streamed: no copy of the whole text is held in memory.
void write_json_atomically(const std::string& path, const nlohmann::json& doc);

}  // namespace fastsim::trace
