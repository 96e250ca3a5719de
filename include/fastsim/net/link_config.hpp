// How a unidirectional link is configured: rate, propagation delay, buffer limit,
// random loss, and the optional queue models (a dummynet tick, RED parameters). Apart
// from link.hpp so that the scenario description need not see the Link class.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "fastsim/core/time.hpp"
#include "fastsim/core/units.hpp"

namespace fastsim::net {

/// Buffer size: in packets or in bytes (exactly one is non-zero).
struct BufferLimit {
  uint64_t packets = 0;
  uint64_t bytes = 0;
};

/// Parameters of a RED gate (red.hpp has the algorithm).
struct RedParams {
  double min_th = 5;   ///< packets
  double max_th = 15;  ///< packets
  double max_p = 0.1;  ///< drop probability at max_th
  double weight = 0.002;
  bool gentle = true;
  uint32_t mean_packet_size = 1500;  ///< bytes; sets the idle decay
};

struct LinkConfig {
  std::string id;
  Rate rate;
  Duration delay;
  BufferLimit buffer;
  double loss_rate = 0.0;
  Duration tick;                 ///< > 0: a dummynet pipe served at this scheduler tick
  std::optional<RedParams> red;  ///< RED in front of the queue (the buffer limit still applies)
};

}  // namespace fastsim::net
