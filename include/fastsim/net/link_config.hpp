// How a unidirectional link is configured: rate, propagation delay, buffer limit,
// random loss, and the optional queue models (a dummynet tick, RED parameters, ECN
// marking, an AQM discipline; kept on the heap, only when set). Apart
// from link.hpp so that the scenario description need not see the Link class.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "fastsim/core/time.hpp"
#include "fastsim/core/units.hpp"
#include "fastsim/net/heap_optional.hpp"

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

/// An active queue management discipline that decides at dequeue (aqm_link.hpp): the
/// link serves it with one event per transmission instead of precomputing departures.
enum class AqmKind : uint8_t { kCodel, kFqCodel, kPie };

/// Parameters of CoDel (RFC 8289), FQ-CoDel (RFC 8290) and PIE (RFC 8033); the link's
/// buffer is the discipline's limit. Defaults are the published ones (aqm_defaults()).
struct AqmParams {
  AqmKind kind = AqmKind::kCodel;
  Duration target;          ///< CoDel/FQ-CoDel: 5 ms; PIE: QDELAY_REF 15 ms
  Duration interval;        ///< CoDel/FQ-CoDel: 100 ms
  uint32_t mtu = 1514;      ///< CoDel's maxpacket; PIE's "fewer than 2 MTU queued" safeguard
  uint32_t flows = 1024;    ///< FQ-CoDel flow queues
  uint32_t quantum = 1514;  ///< FQ-CoDel DRR quantum, bytes
  Duration tupdate;         ///< PIE: 15 ms
  double alpha = 0.125;     ///< PIE, 1/s
  double beta = 1.25;       ///< PIE, 1/s
  Duration max_burst;       ///< PIE: 150 ms
};

/// The published defaults of a discipline.
inline AqmParams aqm_defaults(AqmKind kind) {
  AqmParams p;
  p.kind = kind;
  p.target = kind == AqmKind::kPie ? Duration::milliseconds(15) : Duration::milliseconds(5);
  p.interval = Duration::milliseconds(100);
  p.tupdate = Duration::milliseconds(15);
  p.max_burst = Duration::milliseconds(150);
  return p;
}

struct LinkConfig {
  std::string id;
  Rate rate;
  Duration delay;
  BufferLimit buffer;
  double loss_rate = 0.0;
  Duration tick;  ///< > 0: a dummynet pipe served at this scheduler tick
  // The optional queue models, on the heap (heap_optional.hpp): a link without them, as
  // every access link, holds three pointers instead of 152 bytes.
  HeapOptional<RedParams> red;                         ///< RED in front of the queue (the buffer limit still applies)
  HeapOptional<MarkingParams> marking = std::nullopt;  ///< step-threshold CE marking at enqueue
  HeapOptional<AqmParams> aqm = std::nullopt;          ///< "queue": CoDel, FQ-CoDel or PIE (event-served, aqm_link.hpp)

  /// The link may mark packets CE (RED with ecn, or a step marker): its outputs report ce_marks.
  [[nodiscard]] bool marks_ecn() const { return marking.has_value() || (red && red->ecn); }
};

}  // namespace fastsim::net
