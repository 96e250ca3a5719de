// How a unidirectional link is configured: rate, propagation delay, buffer limit,
// random loss, and the optional queue models (a dummynet tick, RED parameters, ECN marking). Apart
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
  bool ecn = false;                  ///< mark ECN-capable packets CE instead of dropping them early (red.hpp)
};

/// A step-threshold ECN marker (DCTCP's K, RFC 8257 section 3.1): an ECN-capable packet
/// that finds at least `threshold_pkts` packets waiting when it enters the queue is marked CE.
struct MarkingParams {
  uint64_t threshold_pkts = 0;
};

struct LinkConfig {
  std::string id;
  Rate rate;
  Duration delay;
  BufferLimit buffer;
  double loss_rate = 0.0;
  Duration tick;                         ///< > 0: a dummynet pipe served at this scheduler tick
  std::optional<RedParams> red;          ///< RED in front of the queue (the buffer limit still applies)
  std::optional<MarkingParams> marking;  ///< step-threshold CE marking at enqueue

  /// The link may mark packets CE (RED with ecn, or a step marker): its outputs report ce_marks.
  [[nodiscard]] bool marks_ecn() const { return marking.has_value() || (red && red->ecn); }
};

}  // namespace fastsim::net
