// Which build of fastsim is running: the version and a hash of the executable's own bytes.
// Sweep run ids and check's reuse of results depend on it, so that results an earlier build
// made (a source changed without a version bump) are never taken for this build's.
#pragma once

#include <string>

namespace fastsim {

/// "VERSION+HHHHHHHHHHHHHHHH": FASTSIM_VERSION and a 64-bit FNV-1a hash of
/// /proc/self/exe, read once; just the version where the executable cannot be read.
const std::string& build_identity();

}  // namespace fastsim
