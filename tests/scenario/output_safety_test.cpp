// Output files against the contract of docs/outputs.md: a write error (a full disk, an
// I/O error) is reported with the file and the OS error, never aborts, leaves no
// temporary behind and never destroys the previous good result; a killed run's stale
// temporaries are cleaned by the next run. The full disk is /dev/full behind the
// temporary's name for one file, and a small tmpfs for a whole run, and a tmpfs
// remounted read-only for a folder that can no longer be written (skipped, with a
// warning, where the machine does not allow mounting).
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "../support/helpers.hpp"
#include "fastsim/trace/atomic_file.hpp"

namespace fs = std::filesystem;
using fastsim::testing::read_file;
using fastsim::testing::run_command;

TEST_CASE("a write error throws with the path and the OS error; the previous file stays", "[outputs][reliability]") {
  const fs::path dir = fastsim::testing::temp_dir("atomic-full");
  const fs::path path = dir / "a.csv";
  std::ofstream(path) << "previous good result\n";
  fs::create_symlink("/dev/full", dir / "a.csv.tmp");  // every write to the temporary fails: ENOSPC
  {
    fastsim::trace::AtomicFile file(path.string(), 512);
    std::string what;
    try {
      for (int i = 0; i < 100; ++i)
        file.print("{},{}\n", i, "row of a trace");
      file.commit();
    } catch (const std::system_error& e) {
      what = e.what();
      CHECK(e.code() == std::errc::no_space_on_device);
    }
    CHECK_THAT(what, Catch::Contains((dir / "a.csv.tmp").string()));
    CHECK_THAT(what, Catch::Contains("No space left on device"));
  }  // the destructor neither throws nor aborts, and removes the temporary
  CHECK_FALSE(fs::exists(fs::symlink_status(dir / "a.csv.tmp")));
  CHECK(read_file(path) == "previous good result\n");

  // A file destroyed without commit leaves nothing, even with unflushed data.
  {
    fastsim::trace::AtomicFile file((dir / "b.csv").string());
    file.print("unflushed\n");
  }
  CHECK_FALSE(fs::exists(dir / "b.csv"));
  CHECK_FALSE(fs::exists(dir / "b.csv.tmp"));
  fs::remove_all(dir);
}

namespace {
std::string scenario_file(const fs::path& dir, const std::string& name, const std::string& sample_interval) {
  const fs::path p = dir / (name + ".json");
  std::ofstream(p)
      << R"({"name": ")" << name << R"(", "duration": "5s", "sample_interval": ")" << sample_interval
      << R"(", "topology": {"dumbbell": {"bottleneck": {"rate": "10Mbps", "delay": "5ms", "buffer": "100pkt"},
                         "access": {"rate": "1Gbps", "buffer": "1000pkt"}}},
                       "flows": [{"id": "a", "algorithm": "reno", "rtt": "40ms"},
                                 {"id": "b", "algorithm": "reno", "rtt": "80ms"}]})";
  return p.string();
}

/// Mounts a tmpfs of `size` on `mnt` (created); false, with a warning naming what goes
/// untested, where the machine does not allow mounting.
bool mount_tmpfs(const fs::path& mnt, const char* size, const char* untested) {
  fs::create_directories(mnt);
  if (::mount("tmpfs", mnt.c_str(), "tmpfs", 0, size) == 0)
    return true;
  WARN("cannot mount a tmpfs here (" << std::strerror(errno) << "): " << untested << " not tested");
  return false;
}
}  // namespace

TEST_CASE("a killed run's temporaries are removed by the next run; stale traces go", "[outputs][reliability]") {
  const fs::path dir = fastsim::testing::temp_dir("stale-tmp");
  const fs::path out = dir / "out";
  fs::create_directories(out / "flows");
  std::ofstream(out / "flows" / "a.csv.tmp") << "half a trace";
  std::ofstream(out / "summary.json.tmp") << "{";
  std::ofstream(out / "flows" / "gone.csv") << "a flow of a previous scenario";
  // Files named .tmp that no run writes are the user's: they stay.
  std::ofstream(out / "notes.tmp") << "mine";
  std::ofstream(out / "flows" / "keep.tmp") << "mine";
  const auto r = run_command(std::string(FASTSIM_BINARY) + " run " + scenario_file(dir, "s", "1s") + " --out " +
                             out.string() + " --quiet");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  for (const auto& e : fs::recursive_directory_iterator(out)) {
    const std::string name = e.path().filename().string();
    CHECK((e.path().extension() != ".tmp" || name == "notes.tmp" || name == "keep.tmp"));
  }
  CHECK(read_file(out / "notes.tmp") == "mine");
  CHECK(read_file(out / "flows" / "keep.tmp") == "mine");
  CHECK_FALSE(fs::exists(out / "flows" / "gone.csv"));
  CHECK(fs::exists(out / "flows" / "a.csv"));
  CHECK(fs::exists(out / "summary.json"));
  fs::remove_all(dir);
}

TEST_CASE("a run that fills the disk exits 3 naming the file; the previous result survives whole",
          "[outputs][reliability]") {
  const fs::path dir = fastsim::testing::temp_dir("full-disk");
  const fs::path mnt = dir / "mnt";
  if (!mount_tmpfs(mnt, "size=96k", "full-disk run")) {
    fs::remove_all(dir);
    return;
  }
  const fs::path out = mnt / "out";
  // A first run that fits (5 rows per trace) ...
  const auto good = run_command(std::string(FASTSIM_BINARY) + " run " + scenario_file(dir, "small", "1s") + " --out " +
                                out.string() + " --quiet");
  INFO(good.output);
  REQUIRE(good.exit_code == 0);
  const auto before = fastsim::testing::run_outputs(out, {});
  REQUIRE(before.size() == 4);  // summary, two flows, the bottleneck
  // ... then one that does not (5000 rows per trace).
  const auto full = run_command(std::string(FASTSIM_BINARY) + " run " + scenario_file(dir, "big", "1ms") + " --out " +
                                out.string() + " --quiet");
  INFO(full.output);
  CHECK(full.exit_code == 3);
  CHECK_THAT(full.output, Catch::Contains("No space left on device"));
  CHECK_THAT(full.output, Catch::Contains(out.string()));
  CHECK(fastsim::testing::run_outputs(out, {}) == before);  // byte for byte, and no temporary left
  ::umount(mnt.c_str());
  fs::remove_all(dir);
}

TEST_CASE("a run into a folder that became read-only exits 3 naming it; the previous result stays",
          "[outputs][reliability]") {
  // Root ignores permission bits, so the folder is made read-only the way a remounted or
  // failing disk does it: a tmpfs remounted read-only between the two runs.
  const fs::path dir = fastsim::testing::temp_dir("read-only");
  const fs::path mnt = dir / "mnt";
  if (!mount_tmpfs(mnt, "size=1m", "read-only run")) {
    fs::remove_all(dir);
    return;
  }
  const fs::path out = mnt / "out";
  const std::string scenario = scenario_file(dir, "small", "1s");
  const auto good =
      run_command(std::string(FASTSIM_BINARY) + " run " + scenario + " --out " + out.string() + " --quiet");
  INFO(good.output);
  REQUIRE(good.exit_code == 0);
  const auto before = fastsim::testing::run_outputs(out, {});
  REQUIRE(before.size() == 4);
  REQUIRE(::mount("tmpfs", mnt.c_str(), "tmpfs", MS_REMOUNT | MS_RDONLY, "size=1m") == 0);
  const auto refused =
      run_command(std::string(FASTSIM_BINARY) + " run " + scenario + " --out " + out.string() + " --quiet");
  INFO(refused.output);
  CHECK(refused.exit_code == 3);
  CHECK_THAT(refused.output, Catch::Contains("Read-only file system"));
  CHECK_THAT(refused.output, Catch::Contains(out.string()));
  CHECK(fastsim::testing::run_outputs(out, {}) == before);
  ::umount(mnt.c_str());
  fs::remove_all(dir);
}

TEST_CASE("a transient trace file holds no write buffer between flushes", "[outputs][memory]") {
  const fs::path dir = fastsim::testing::temp_dir("atomic-transient");
  const fs::path path = dir / "t.csv";
  fastsim::trace::AtomicFile file(path.string(), 64, /*transient=*/true);
  CHECK(file.buffer_capacity() == 0);
  file.print("{}\n", std::string(40, 'a'));  // below the 64-byte limit: buffered
  CHECK(file.buffer_capacity() >= 41);
  file.print("{}\n", std::string(40, 'b'));  // reaches the limit: written, buffer freed
  CHECK(file.buffer_capacity() == 0);
  file.print("{}\n", std::string(10, 'c'));
  file.commit();
  CHECK(read_file(path) == std::string(40, 'a') + "\n" + std::string(40, 'b') + "\n" + std::string(10, 'c') + "\n");
  fs::remove_all(dir);
}

TEST_CASE("a second run into a folder being written is refused; the first one's result stays whole",
          "[outputs][reliability]") {
  // The second run used to remove the first's temporaries; the first then failed at its
  // renames, and the folder was left with no summary. A run holds flock(2) on its folder.
  const fs::path dir = fastsim::testing::temp_dir("busy-folder");
  const fs::path out = dir / "out";
  const std::string run = std::string(FASTSIM_BINARY) + " run " + scenario_file(dir, "s", "1s") + " --out " +
                          out.string() + " --quiet";
  REQUIRE(run_command(run).exit_code == 0);
  const std::string before = read_file(out / "summary.json");
  const int fd = ::open(out.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);  // as a run in progress holds it
  REQUIRE(fd >= 0);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {  // NFS: no lock on a folder, and fastsim goes on unguarded there
    WARN("no flock on a folder here (" << std::strerror(errno) << "): the run folder lock is not tested");
    ::close(fd);
    return;
  }
  const auto busy = run_command(run);
  CHECK(busy.exit_code == 3);
  CHECK_THAT(busy.output, Catch::Contains(out.string() + " is being written by another fastsim run"));
  CHECK(read_file(out / "summary.json") == before);
  ::close(fd);
  CHECK(run_command(run).exit_code == 0);
  fs::remove_all(dir);
}
