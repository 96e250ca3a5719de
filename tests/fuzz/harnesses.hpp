// The fuzz harnesses: one function per input fastsim reads, taking raw bytes. libFuzzer
// drives them in the fuzz preset (libfuzzer_main.cpp, tools/fuzz); the release test suite
// replays the seed corpus and every saved crash through the same functions
// (tests/scenario/fuzz_replay_test.cpp), so a fixed crash stays covered without clang.
// Each returns normally for any input that is accepted or rejected cleanly; a broken
// invariant throws HarnessFailure, and a crash is a crash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace fastsim::fuzz {

struct HarnessFailure : std::logic_error {
  using std::logic_error::logic_error;
};

/// Bytes -> JSON -> config::parse_scenario. Input starting with '/': one --set
/// assignment per line, applied to a small valid scenario first.
void scenario_input(const uint8_t* data, size_t size);
/// Bytes -> JSON -> sweep::parse_sweep_spec -> expand (inline bases only; at most 64 runs).
void sweep_spec_input(const uint8_t* data, size_t size);
/// Bytes -> JSON -> sweep::parse_baseline (fastsim check's parser), then each entry's
/// "set" applied to a small scenario and each metric looked up in a small summary.
void baseline_input(const uint8_t* data, size_t size);
/// Bytes -> JSON -> a valid scenario, cut to 20 ms and skipped if it would still be
/// large, then run with outputs written to a temporary folder.
void run_input(const uint8_t* data, size_t size);

/// The harness by its name (scenario, sweep_spec, baseline, run); nullptr if unknown.
using Harness = void (*)(const uint8_t*, size_t);
Harness harness(const std::string& name);

}  // namespace fastsim::fuzz
