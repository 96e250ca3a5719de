// Atomic output files: written to "<path>.tmp" through a buffered fmt file, renamed to
// <path> by commit(); a file that was never committed is removed, so a failed run
// leaves nothing that looks complete.
#pragma once

#include <memory>
#include <string>

#include <fmt/os.h>

namespace fastsim::trace {

class AtomicFile {
 public:
  explicit AtomicFile(std::string path);
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

}  // namespace fastsim::trace
