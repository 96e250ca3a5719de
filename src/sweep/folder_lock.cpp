// The sweep folder lock (see folder_lock.hpp).
#include "fastsim/sweep/folder_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstdio>
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

std::string host_name() {
  std::array<char, 256> host{};
  if (gethostname(host.data(), host.size() - 1) != 0)
    return "";
  return host.data();
}

/// True if `owner` ("pid P host H") ran on this host and has ended: the lock is then
/// held by its forked workers, which the kernel is killing (PR_SET_PDEATHSIG).
bool holder_ended(const std::string& owner) {
  long pid = 0;
  std::array<char, 256> host{};
  return std::sscanf(owner.c_str(), "pid %ld host %255s", &pid, host.data()) == 2 && pid > 0 &&
         host.data() == host_name() && kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

/// Takes the lock without waiting, except for up to 5 s while its holder has ended and
/// only its dying workers hold it; returns 0 or the error of the last attempt.
int take(int fd) {
  for (int attempt = 0;; ++attempt) {
    if (flock(fd, LOCK_EX | LOCK_NB) == 0)
      return 0;
    const int error = errno;
    if (error != EWOULDBLOCK || attempt == 500 || !holder_ended(read_owner(fd)))
      return error;
    usleep(10000);
  }
}

std::string describe(const std::string& owner) {
  if (owner.empty())
    return "that has not written its PID yet";
  if (holder_ended(owner))
    return owner + ", which has ended, but its workers still hold the lock";
  return owner;
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
  if (const int error = take(fd_); error != 0) {
    const std::string owner = read_owner(fd_);
    close(fd_);
    fd_ = -1;
    if (error != EWOULDBLOCK)
      fail(path_, "lock", error);
    throw FolderBusy(
        fmt::format("{} is in use by another fastsim process ({}): wait for it to end, or use another --out",
                    dir.string(), describe(owner)));
  }
  if (const std::string owner = read_owner(fd_); !owner.empty())
    stale_owner_ = owner;  // its holder ended without releasing it (killed)
  const std::string me = fmt::format("pid {} host {}\n", getpid(), host_name());
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
