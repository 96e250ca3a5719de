// Atomic output files (see atomic_file.hpp).
#include "fastsim/trace/atomic_file.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <system_error>

namespace fastsim::trace {

size_t shared_buffer_size(size_t files) {
  // Trace rows are about 100 bytes: even 512 B means one write() per ~5 rows, and only
  // runs with over 2000 trace files get that little.
  constexpr size_t kBudget = size_t{1} << 20;
  constexpr size_t kMin = 512;
  return std::clamp(kBudget / std::max<size_t>(files, 1), kMin, AtomicFile::kDefaultBuffer);
}

AtomicFile::AtomicFile(std::string path, size_t buffer_bytes)
    : path_(std::move(path)),
      tmp_(path_ + ".tmp"),
      out_(std::make_unique<fmt::ostream>(fmt::output_file(tmp_, fmt::buffer_size = buffer_bytes))) {}

AtomicFile::~AtomicFile() {
  if (!committed_) {
    out_.reset();
    std::error_code ec;
    std::filesystem::remove(tmp_, ec);
  }
}

void AtomicFile::commit() {
  out_->close();
  out_.reset();  // frees the write buffer before the summary is built
  std::filesystem::rename(tmp_, path_);
  committed_ = true;
}

void write_json_atomically(const std::string& path, const nlohmann::json& doc) {
  const std::string tmp = path + ".tmp";
  try {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.exceptions(std::ios::failbit | std::ios::badbit);
    out << std::setw(2) << doc << '\n';
    out.close();
    std::filesystem::rename(tmp, path);
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    throw;
  }
}

void write_file_atomically(const std::string& path, const std::string& text) {
  AtomicFile f(path);
  f.print("{}", text);
  f.commit();
}

}  // namespace fastsim::trace
