// A Pareto on/off UDP source, as ns-2's POO_Traffic (the background traffic of the
// persistent-congestion experiments): bursts at the peak rate alternate with silences.
// Each burst is a whole number of packets, round(X) but at least one, where X is Pareto
// with mean mean_on x peak / packet bits; each silence is Pareto with mean mean_off (the
// same shape). The long-run rate is peak x on / (on + off).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "fastsim/core/rng.hpp"
#include "fastsim/core/simulator.hpp"
#include "fastsim/core/units.hpp"
#include "fastsim/net/packet_pool.hpp"
#include "fastsim/net/route.hpp"
#include "fastsim/traffic/udp_source.hpp"

namespace fastsim::traffic {

class ParetoOnOffSource final : public UdpSource {
 public:
  struct Params {
    Rate peak;
    uint32_t packet_bytes = 1500;
    double shape = 1.5;
    Duration mean_on;
    Duration mean_off;
  };

  ParetoOnOffSource(Simulator& sim, net::PacketPool& pool, const net::Route* route, net::PacketSink& out,
                    const Params& p, Time start, Time stop, uint64_t seed, const std::string& id)
      : UdpSource(sim, pool, route, out, start, stop),
        p_(p),
        rng_(seed, "udp/" + id),
        gap_(serialization_time(p.packet_bytes, p.peak)),
        mean_burst_pkts_(p.mean_on.to_seconds() * p.peak.to_double() / (8.0 * p.packet_bytes)) {}

  void fire() override {
    if (left_in_burst_ == 0) {  // a new burst (capped far beyond any run: the tail is unbounded)
      const double n = std::min(rng_.pareto(mean_burst_pkts_, p_.shape), 1e15);
      left_in_burst_ = std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(n)));
    }
    send(p_.packet_bytes);
    Time next = sim_.now() + gap_;
    if (--left_in_burst_ == 0) {
      const double off = rng_.pareto(p_.mean_off.to_seconds(), p_.shape);
      if (next >= stop_ || off >= (stop_ - next).to_seconds())
        return;
      next += Duration::seconds(off);
    }
    if (next < stop_)
      sim_.schedule_at(*this, next);
  }

 private:
  Params p_;
  RandomStream rng_;
  Duration gap_;
  double mean_burst_pkts_;
  uint64_t left_in_burst_ = 0;
};

}  // namespace fastsim::traffic
