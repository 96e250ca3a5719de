// Atomic output files: written to "<path>.tmp" through a buffer, renamed to <path> by
// commit(). A file that was never committed is closed without flushing and its temporary
// removed, so a failed run leaves nothing that looks complete.
// - Every write, close or rename error (a full disk, an I/O error, a permission) throws
//   std::system_error whose message names the file and the OS error; the destructor
//   never throws (a failing flush in a destructor used to abort the process).
#pragma once

#include <cstddef>
#include <iterator>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace fastsim::trace {

/// Write buffer per file when `files` trace files are open at once: they share a 1 MB
/// budget (1000 traced flows get 1 KB each, a handful of files 32 KB), within [512 B, 32 KB].
size_t shared_buffer_size(size_t files);

class AtomicFile {
 public:
  static constexpr size_t kDefaultBuffer = 32 * 1024;
  /// Creates (or truncates) "<path>.tmp". Throws std::system_error naming it on failure.
  explicit AtomicFile(std::string path, size_t buffer_bytes = kDefaultBuffer);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  /// Uncommitted: closes without flushing and removes the temporary. Never throws.
  ~AtomicFile();

  template <class... Args>
  void print(fmt::format_string<Args...> f, Args&&... args) {
    fmt::format_to(fmt::appender(buf_), f, std::forward<Args>(args)...);
    if (buf_.size() >= limit_)
      flush();
  }
  void write(const char* data, size_t n) {
    buf_.append(data, data + n);
    if (buf_.size() >= limit_)
      flush();
  }
  /// Flushes and closes the temporary (every write is done: only the rename is left).
  /// Throws std::system_error on failure. Idempotent.
  void close();
  /// close() if needed, renames into place and frees the buffer. Throws
  /// std::system_error on failure (the temporary is then removed by the destructor).
  void commit();
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  void flush();
  [[noreturn]] void fail(const char* what, int error) const;

  std::string path_;
  std::string tmp_;
  int fd_ = -1;
  size_t limit_;
  fmt::memory_buffer buf_;
  bool committed_ = false;
};

/// Streams `doc` as JSON indented by 2 and a final newline (the bytes of dump(2) + "\n")
/// into `file`: no copy of the whole text is held in memory.
void write_json(AtomicFile& file, const nlohmann::json& doc);
/// Writes `text` to `path` atomically.
void write_file_atomically(const std::string& path, const std::string& text);
/// Writes `doc` (as write_json) to `path` atomically.
void write_json_atomically(const std::string& path, const nlohmann::json& doc);

}  // namespace fastsim::trace
