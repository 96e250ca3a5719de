// Atomic output files (see atomic_file.hpp): POSIX open/write/close on the temporary,
// std::filesystem::rename into place.
#include "fastsim/trace/atomic_file.hpp"
#include "fastsim/trace/atomic_file_stream.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <functional>
#include <iomanip>
#include <ostream>
#include <streambuf>
#include <system_error>

namespace fastsim::trace {

size_t open_trace_files_allowed() {
  rlimit rl{};
  if (::getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
    return kMaxOpenTraceFiles;
  return std::min<size_t>(kMaxOpenTraceFiles, rl.rlim_cur > 16 ? (rl.rlim_cur - 16) / 2 : 0);
}

TraceFileOptions trace_file_options(size_t files) {
  // Trace rows are about 100 bytes: even 512 B means one write() per ~5 rows, and only
  // runs with over 2000 trace files get that little.
  constexpr size_t kBudget = size_t{1} << 20;
  constexpr size_t kMin = 512;
  return {std::clamp(kBudget / std::max<size_t>(files, 1), kMin, AtomicFile::kDefaultBuffer),
          files > open_trace_files_allowed()};
}

AtomicFile::AtomicFile(std::string path, size_t buffer_bytes, bool transient)
    : tmp_(std::move(path) + std::string(kTmpSuffix)),
      limit_(std::max<size_t>(buffer_bytes, 1)),
      transient_(transient) {
  fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0)
    fail("cannot create", errno);
  if (transient_)
    close_fd();
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0)
    ::close(fd_);
  if (!committed_) {
    std::error_code ec;
    std::filesystem::remove(tmp_, ec);
  }
}

void AtomicFile::fail(const char* what, int error) const {
  throw std::system_error(error, std::generic_category(), std::string(what) + " " + tmp_);
}

void AtomicFile::close_fd() {
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0)  // delayed write errors (NFS, some file systems) show up here
    fail("cannot write", errno);
}

void AtomicFile::flush() {
  if (buf_.size() == 0)
    return;
  if (transient_) {
    fd_ = ::open(tmp_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd_ < 0)
      fail("cannot write", errno);
  }
  write_buffer();
  if (transient_) {
    close_fd();
    buf_ = Buffer();  // nothing held between flushes
  }
}

void AtomicFile::write_buffer() {
  const char* p = buf_.data();
  size_t left = buf_.size();
  while (left > 0) {
    const ssize_t n = ::write(fd_, p, left);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      fail("cannot write", errno);
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  buf_.clear();
}

void AtomicFile::close() {
  if (closed_)
    return;
  flush();
  if (fd_ >= 0)
    close_fd();
  closed_ = true;
  buf_ = Buffer();  // written out: the buffer is not needed again
}

void AtomicFile::commit() {
  close();
  std::error_code ec;
  const std::string target = path();
  std::filesystem::rename(tmp_, target, ec);
  if (ec)
    throw std::system_error(ec, "cannot rename " + tmp_ + " to " + target);
  committed_ = true;
}

namespace {
/// A std::streambuf over an AtomicFile, so a JSON document streams into it.
class AtomicFileBuf final : public std::streambuf {
 public:
  explicit AtomicFileBuf(AtomicFile& file) : file_(file) {}

 protected:
  int_type overflow(int_type c) override {
    if (c != traits_type::eof()) {
      const char ch = traits_type::to_char_type(c);
      file_.write(&ch, 1);
    }
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    file_.write(s, static_cast<size_t>(n));
    return n;
  }

 private:
  AtomicFile& file_;
};
}  // namespace

void write_stream(AtomicFile& file, const std::function<void(std::ostream&)>& write) {
  AtomicFileBuf buf(file);
  std::ostream out(&buf);
  out.exceptions(std::ios::badbit);  // rethrows what the file threw (the path and the OS error)
  write(out);
}

void write_json(AtomicFile& file, const nlohmann::json& doc) {
  write_stream(file, [&](std::ostream& out) { out << std::setw(2) << doc << '\n'; });
}

void write_json_atomically(const std::string& path, const nlohmann::json& doc) {
  AtomicFile file(path);
  write_json(file, doc);
  file.commit();
}

void write_file_atomically(const std::string& path, const std::string& text) {
  AtomicFile f(path);
  f.write(text.data(), text.size());
  f.commit();
}

}  // namespace fastsim::trace
