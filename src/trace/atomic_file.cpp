// Atomic output files (see atomic_file.hpp).
#include "fastsim/trace/atomic_file.hpp"

#include <cstdio>
#include <filesystem>
#include <system_error>

namespace fastsim::trace {

namespace {
// fmt's default is 32 KB per file: 32 MB for a run with 1000 traced flows. Trace rows
// are short, so 4 KB still means one write() per ~50 rows.
constexpr size_t kBufferBytes = 4096;
}  // namespace

AtomicFile::AtomicFile(std::string path)
    : path_(std::move(path)),
      tmp_(path_ + ".tmp"),
      out_(std::make_unique<fmt::ostream>(fmt::output_file(tmp_, fmt::buffer_size = kBufferBytes))) {}

AtomicFile::~AtomicFile() {
  if (!committed_) {
    out_.reset();
    std::error_code ec;
    std::filesystem::remove(tmp_, ec);
  }
}

void AtomicFile::commit() {
  out_->close();
  std::filesystem::rename(tmp_, path_);
  committed_ = true;
}

void write_file_atomically(const std::string& path, const std::string& text) {
  AtomicFile f(path);
  f.print("{}", text);
  f.commit();
}

}  // namespace fastsim::trace
