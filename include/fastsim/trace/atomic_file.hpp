// Atomic output files: written to "<path>.tmp" through a buffer, renamed to <path> by
// commit(). A file that was never committed is closed without flushing and its temporary
// removed, so a failed run leaves nothing that looks complete.
// - Every write, close or rename error (a full disk, an I/O error, a permission) throws
//   std::system_error whose message names the file and the OS error; the destructor
//   never throws (a failing flush in a destructor used to abort the process).
// - A file opened "transient" holds no file descriptor between writes: each flush of its
//   buffer opens the temporary for appending, writes and closes it. Runs that write
//   thousands of trace files so need a handful of descriptors, not one per file.
// - The buffer has no inline storage and a transient file frees it after each flush: at
//   10 000 traced flows a 500-byte inline buffer and its heap copy were 15 MB.
#pragma once

#include <cstddef>
#include <iterator>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace fastsim::trace {

/// How a run's trace files are written.
struct TraceFileOptions {
  size_t buffer = 0;       ///< write buffer per file, bytes
  bool transient = false;  ///< no descriptor held between flushes
};
/// Up to this many trace files keep their descriptor open for the whole run; more are
/// written transient (see above), so the descriptors a run needs do not grow with them.
inline constexpr size_t kMaxOpenTraceFiles = 64;
/// The trace files a run keeps open: kMaxOpenTraceFiles, fewer when the process may open
/// few files (half of `ulimit -n` beyond 16, so a small limit still leaves room).
size_t open_trace_files_allowed();
/// Options for `files` trace files written at once: they share a 1 MB buffer budget
/// (1000 traced flows get 1 KB each, a handful of files 32 KB), within [512 B, 32 KB],
/// and are transient beyond open_trace_files_allowed().
TraceFileOptions trace_file_options(size_t files);

class AtomicFile {
 public:
  static constexpr size_t kDefaultBuffer = 32 * 1024;
  /// Creates (or truncates) "<path>.tmp"; `transient`: closes it again until the next
  /// flush. Throws std::system_error naming it on failure.
  explicit AtomicFile(std::string path, size_t buffer_bytes = kDefaultBuffer, bool transient = false);
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
  /// Where the file goes (the temporary without its ".tmp").
  [[nodiscard]] std::string path() const { return tmp_.substr(0, tmp_.size() - kTmpSuffix.size()); }
  /// Bytes the write buffer holds allocated now (0 for a transient file between flushes).
  [[nodiscard]] size_t buffer_capacity() const { return buf_.capacity() > 1 ? buf_.capacity() : 0; }

 private:
  void flush();
  void write_buffer();
  void close_fd();
  [[noreturn]] void fail(const char* what, int error) const;

  static constexpr std::string_view kTmpSuffix = ".tmp";
  std::string tmp_;  // "<path>.tmp": the path is kept once (10 000 trace files: 0.5 MB)
  int fd_ = -1;
  size_t limit_;
  bool transient_ = false;
  bool closed_ = false;
  using Buffer = fmt::basic_memory_buffer<char, 1>;  // no inline storage (see above)
  Buffer buf_;
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
