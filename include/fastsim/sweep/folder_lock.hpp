// The lock of a sweep folder: DIR/sweep.lock, held with flock(2) by the process that
// writes into the folder (sweep, sweep --resume, collect, check --results) and by its
// forked workers, which inherit it. The file names the holder ("pid P host H"); the
// kernel releases the lock when the last process holding it ends (even by SIGKILL), so
// a lock left by a dead driver is taken over, with a warning naming its PID. While a
// driver of this host has ended but its workers (killed with it) still hold the lock, the
// next one waits for them, up to 5 s. The file stays in the folder, emptied when its
// holder releases it.
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

namespace fastsim::sweep {

/// Another live process holds the folder's lock.
class FolderBusy : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class FolderLock {
 public:
  /// Creates `dir` if needed and takes its lock (waiting only for the workers of an
  /// ended driver, see above). Throws FolderBusy
  /// (naming the holder) if another process holds it, std::system_error (naming the
  /// file and the OS error) if the lock file cannot be created, locked or written.
  explicit FolderLock(const std::filesystem::path& dir);
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;
  /// Empties the file and releases the lock (forked workers still holding it keep it).
  ~FolderLock();

  /// "pid P host H" of the previous holder if it ended without releasing the lock.
  [[nodiscard]] const std::optional<std::string>& stale_owner() const { return stale_owner_; }
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  std::optional<std::string> stale_owner_;
};

}  // namespace fastsim::sweep
