// Host timing noise elements (see host_noise.hpp).
#include "fastsim/net/host_noise.hpp"

#include <algorithm>

#include <boost/random/exponential_distribution.hpp>

namespace fastsim::net {

HeldPackets::~HeldPackets() {
  for (const Entry& e : fifo_)
    pool_.release(e.pkt);
}

void HeldPackets::push(Packet* p, Time release) {
  if (fifo_.full())
    fifo_.set_capacity(fifo_.capacity() * 2);  // only past the largest number ever held
  fifo_.push_back({p, release});
}

SendJitter::SendJitter(Simulator& sim, PacketPool& pool, PacketSink& out, Duration mean, uint64_t seed,
                       std::string_view stream_name)
    : sim_(sim), out_(out), mean_s_(mean.to_seconds()), rng_(seed, stream_name), held_(pool) {}

void SendJitter::receive(Packet* p) {
  const double delay_s = boost::random::exponential_distribution<double>(1.0 / mean_s_)(rng_.engine());
  Time release = sim_.now() + Duration::seconds(delay_s);
  if (!held_.empty())
    release = std::max(release, held_.back().release);  // no overtaking: order kept
  held_.push(p, release);
  if (!event_.scheduled())
    sim_.schedule_at(event_, release);
}

void SendJitter::on_release() {
  const Time now = sim_.now();
  while (!held_.empty() && held_.front().release <= now)
    out_.receive(held_.pop());
  if (!held_.empty())
    sim_.schedule_at(event_, held_.front().release);
}

AckCoalescer::AckCoalescer(Simulator& sim, PacketPool& pool, PacketSink& out, Duration period, uint64_t seed,
                           std::string_view stream_name)
    : sim_(sim), out_(out), period_(period), held_(pool) {
  RandomStream rng(seed, stream_name);
  phase_ = Duration::picoseconds(static_cast<int64_t>(rng.uniform() * static_cast<double>(period.ps())));
}

Time AckCoalescer::next_tick(Time t) const {
  // ticks at phase + k period, k >= 0: the first one > t
  const int64_t since = t.ps() - phase_.ps();
  const int64_t k = since < 0 ? 0 : since / period_.ps() + 1;
  return Time::at(phase_ + Duration::picoseconds(k * period_.ps()));
}

void AckCoalescer::receive(Packet* p) {
  held_.push(p, Time::zero());
  if (!event_.scheduled())
    sim_.schedule_at(event_, next_tick(sim_.now()));
}

void AckCoalescer::on_tick() {
  while (!held_.empty())
    out_.receive(held_.pop());
}

}  // namespace fastsim::net
