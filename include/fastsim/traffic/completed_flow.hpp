// What is recorded of a finite flow of an arrival process when its last byte is
// acknowledged (flow_arrivals.hpp): the summary's completed_flows[] rows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace fastsim::traffic {

struct CompletedFlow {
  /// "<arrival id>#<n>": the n-th flow of its process.
  std::string id;
  size_t path = 0;  ///< index of its path in the process's paths
  uint64_t size_bytes = 0;
  double start_s = 0;
  double fct_s = 0;       ///< flow completion time
  double fair_fct_s = 0;  ///< completion time at the fair share (flow_arrivals.hpp)
};

}  // namespace fastsim::traffic
