// Replays the fuzz seed corpus and every saved crash (tests/fuzz/{corpus,crash}/<harness>/)
// through the libFuzzer harnesses' own functions, in the ordinary release build: an input
// that once crashed a harness stays covered without clang (docs/fuzzing.md).
#include <catch2/catch.hpp>

#include <filesystem>

#include "../fuzz/harnesses.hpp"
#include "../support/helpers.hpp"

namespace fs = std::filesystem;

namespace {

/// Every file under tests/fuzz/<kind>/<harness>/, replayed; returns how many.
size_t replay(const std::string& kind) {
  const fs::path root = fs::path(FASTSIM_SOURCE_DIR) / "tests" / "fuzz" / kind;
  size_t n = 0;
  if (!fs::exists(root))
    return 0;
  for (const auto& dir : fs::directory_iterator(root)) {
    if (!dir.is_directory())
      continue;
    const auto harness = fastsim::fuzz::harness(dir.path().filename().string());
    INFO("harness folder " << dir.path());
    REQUIRE(harness != nullptr);
    for (const auto& f : fs::directory_iterator(dir.path())) {
      const std::string bytes = fastsim::testing::read_file(f.path());
      INFO("input " << f.path());
      CHECK_NOTHROW(harness(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
      ++n;
    }
  }
  return n;
}

}  // namespace

TEST_CASE("the fuzz seed corpus passes every harness", "[scenario][fuzz]") {
  CHECK(replay("corpus") >= 20);
}

TEST_CASE("every input a fuzzer crashed on is handled now", "[scenario][fuzz]") {
  CHECK(replay("crash") >= 1);
}
