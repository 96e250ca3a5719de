// PIE's enqueue test and periodic probability update (see pie.hpp).
#include "fastsim/net/pie.hpp"

#include <algorithm>

namespace fastsim::net {

PieQueue::PieQueue(Simulator& sim, AqmDropSink& sink, BufferLimit limit, const AqmParams& prm, uint64_t seed,
                   const std::string& link_id)
    : AqmQueue(sink, limit), sim_(sim), prm_(prm), rng_(seed, "pie/" + link_id), burst_(prm.max_burst) {}

void PieQueue::enqueue(Packet* p, Time now) {
  if (over_limit(fifo_.packets(), fifo_.bytes(), p->size_bytes)) {
    accu_prob_ = 0;
    drop(p, false);
    return;
  }
  if (burst_ == Duration::zero() && drop_early()) {
    accu_prob_ = 0;
    drop(p, true);
    return;
  }
  fifo_.push(p, now);
  if (!timer_on_) {
    timer_on_ = true;
    sim_.schedule_at(timer_, now + prm_.tupdate);
  }
}

bool PieQueue::drop_early() {
  // The safeguards that keep PIE work conserving.
  if ((qdelay_old_ < prm_.target / 2 && prob_ < 0.2) || fifo_.bytes() <= 2ull * prm_.mtu)
    return false;
  if (prob_ == 0)
    accu_prob_ = 0;
  accu_prob_ += prob_;
  if (accu_prob_ < 0.85)
    return false;
  if (accu_prob_ >= 8.5)
    return true;
  return rng_.uniform() < prob_;
}

Packet* PieQueue::dequeue(Time now) {
  const TimedFifo::Entry e = fifo_.pop();
  if (e.pkt == nullptr)
    return nullptr;
  qdelay_ = fifo_.empty() ? Duration::zero() : now - e.in;
  note_dequeue(e.in, now);
  return e.pkt;
}

void PieQueue::update() {
  const double qdelay = qdelay_.to_seconds();
  const double qdelay_old = qdelay_old_.to_seconds();
  double p = prm_.alpha * (qdelay - prm_.target.to_seconds()) + prm_.beta * (qdelay - qdelay_old);
  // Section 4.2: smaller steps while the probability is small (auto-tuning of alpha, beta).
  if (prob_ < 0.000001)
    p /= 2048;
  else if (prob_ < 0.00001)
    p /= 512;
  else if (prob_ < 0.0001)
    p /= 128;
  else if (prob_ < 0.001)
    p /= 32;
  else if (prob_ < 0.01)
    p /= 8;
  else if (prob_ < 0.1)
    p /= 2;
  if (prob_ >= 0.1 && p > 0.02)
    p = 0.02;
  if (qdelay > 0.25)
    p += 0.02;
  prob_ += p;
  if (qdelay_ == Duration::zero() && qdelay_old_ == Duration::zero())
    prob_ *= 0.98;
  prob_ = std::clamp(prob_, 0.0, 1.0);
  const bool calm = prob_ == 0 && qdelay_ < prm_.target / 2 && qdelay_old_ < prm_.target / 2;
  qdelay_old_ = qdelay_;
  burst_ = std::max(Duration::zero(), burst_ - prm_.tupdate);
  if (calm)
    burst_ = prm_.max_burst;
  stats_.drop_prob = prob_;
}

void PieQueue::on_timer() {
  update();
  // Nothing left to decay or measure: stop until the next arrival.
  if (fifo_.empty() && prob_ < 1e-9 && qdelay_old_ == Duration::zero()) {
    prob_ = 0;  // what the following updates would reach
    burst_ = prm_.max_burst;
    stats_.drop_prob = 0;
    timer_on_ = false;
    return;
  }
  sim_.schedule_in(timer_, prm_.tupdate);
}

}  // namespace fastsim::net
