// Random Early Detection (Floyd and Jacobson, "Random Early Detection Gateways for
// Congestion Avoidance", ToN 1993), with the "gentle" variant (Floyd 2000) as ns-2 has it:
// - avg = (1 - w) avg + w q at every arrival, q = packets waiting (not the one in
//   service); after an idle period avg decays as if m = idle / s small packets had
//   arrived to an empty queue: avg = (1 - w)^m avg, s = the transmission time of a
//   `mean_packet_size` packet (ns-2's ptc).
// - min_th <= avg < max_th: p_b = max_p (avg - min_th) / (max_th - min_th);
//   gentle and max_th <= avg < 2 max_th: p_b = max_p + (1 - max_p)(avg - max_th) / max_th;
//   beyond: drop every arrival. Drops are spread out with the count of packets since the
//   last drop: p_a = p_b / (1 - count p_b), so inter-drop gaps are uniform on
//   1..1/p_b and the drop fraction is 2 p_b / (1 + p_b).
// ECN (`ecn`, RFC 3168 section 7): where RED would drop an arrival early with a probability
// below 1 (min_th <= avg < max_th, and gentle's max_th <= avg < 2 max_th), an ECN-capable
// packet is marked CE instead and admitted; where p_b = 1 (avg >= max_th without gentle,
// >= 2 max_th with it: ns-2's "forced drop") every arrival is dropped, ECN-capable or not,
// so the marks cannot keep a persistently overloaded queue full. A mark restarts the count
// as a drop does. The link's buffer limit still applies on top (a full buffer drops).
#pragma once

#include <cstdint>
#include <string>

#include "fastsim/core/rng.hpp"
#include "fastsim/core/time.hpp"
#include "fastsim/net/link_config.hpp"  // RedParams

namespace fastsim::net {

enum class RedVerdict : uint8_t { kAdmit, kMark, kDrop };

class RedGate {
 public:
  RedGate(const RedParams& p, Duration small_packet_time, uint64_t seed, const std::string& link_id)
      : p_(p), small_packet_ps_(static_cast<double>(small_packet_time.ps())), rng_(seed, "red/" + link_id) {}

  /// Decides for a packet arriving at `now` that finds `queue` packets waiting;
  /// `idle_since` is when the link last became idle (meaningful when `idle`).
  /// `ecn_capable`: the packet may be marked instead of dropped (with the ecn option).
  RedVerdict decide(uint64_t queue, bool idle, Time idle_since, Time now, bool ecn_capable);
  /// decide() for a packet that is not ECN-capable: true to drop.
  bool drop(uint64_t queue, bool idle, Time idle_since, Time now) {
    return decide(queue, idle, idle_since, now, false) == RedVerdict::kDrop;
  }
  /// The drop probability p_b for an average queue (before the count spreading).
  [[nodiscard]] double base_probability(double avg) const;
  [[nodiscard]] double average() const { return avg_; }

 private:
  RedParams p_;
  double small_packet_ps_;
  RandomStream rng_;
  double avg_ = 0;
  int64_t count_ = -1;
};

}  // namespace fastsim::net
