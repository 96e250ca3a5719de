// The sweep folder lock (see folder_lock.hpp).
#include "fastsim/sweep/folder_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <system_error>

#include <fmt/format.h>

namespace fastsim::sweep {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const fs::path& path, const char* what, int error) {
  throw std::system_error(error, std::generic_category(), fmt::format("{}: cannot {}", path.string(), what));
}

/// The holder named in the file ("" if empty or unreadable).
std::string read_owner(int fd) {
  std::string text;
  std::array<char, 256> buf{};
  ssize_t n = 0;
  off_t at = 0;
  while ((n = pread(fd, buf.data(), buf.size(), at)) > 0) {
    text.append(buf.data(), static_cast<size_t>(n));
    at += n;
  }
  while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
    text.pop_back();
  return text;
}

}  // namespace

FolderLock::FolderLock(const fs::path& dir) : path_(dir / "sweep.lock") {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    throw std::system_error(ec, fmt::format("{}: cannot create the folder", dir.string()));
  fd_ = open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0)
    fail(path_, "open the lock file", errno);
  if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    const std::string owner = read_owner(fd_);
    close(fd_);
    fd_ = -1;
    if (error != EWOULDBLOCK)
      fail(path_, "lock", error);
    throw FolderBusy(
        fmt::format("{} is in use by another fastsim process ({}): wait for it to end, or use another --out",
                    dir.string(), owner.empty() ? std::string("that has not written its PID yet") : owner));
  }
  if (const std::string owner = read_owner(fd_); !owner.empty())
    stale_owner_ = owner;  // its holder ended without releasing it (killed)
  std::array<char, 256> host{};
  if (gethostname(host.data(), host.size() - 1) != 0)
    host[0] = '\0';
  const std::string me = fmt::format("pid {} host {}\n", getpid(), host.data());
  errno = 0;
  if (ftruncate(fd_, 0) != 0 || pwrite(fd_, me.data(), me.size(), 0) != static_cast<ssize_t>(me.size())) {
    const int error = errno != 0 ? errno : EIO;
    close(fd_);
    fd_ = -1;
    fail(path_, "write the lock file", error);
  }
}

FolderLock::~FolderLock() {
  if (fd_ < 0)
    return;
  if (ftruncate(fd_, 0) != 0) {
    // Nothing to do: the next holder then warns about a stale lock.
  }
  close(fd_);  // releases the lock unless a forked worker still holds it
}

}  // namespace fastsim::sweep
