// PIE, "Proportional Integral Controller Enhanced" (RFC 8033), as its Appendix
// pseudocode has it, with Linux sch_pie's defaults:
// - Every `tupdate` (15 ms) the drop probability moves by
//   p = alpha (qdelay - target) + beta (qdelay - qdelay_old), alpha = 0.125 /s,
//   beta = 1.25 /s, target (QDELAY_REF) = 15 ms, scaled down while the probability is
//   small (Section 4.2's table: /2048 below 1e-6, /512 below 1e-5, /128 below 1e-4,
//   /32 below 1e-3, /8 below 1e-2, /2 below 0.1); a step is at most 0.02 once the
//   probability is 0.1 or more; qdelay above 250 ms adds 0.02; with no delay now and
//   at the previous update the probability decays by x0.98. It stays in [0, 1].
// - At enqueue: a full buffer tail-drops; otherwise, when no burst allowance is left,
//   an arrival is dropped with the probability (de-randomized as Section 5.1: the
//   accumulated probability must reach 0.85 before a drop and forces one at 8.5), except
//   while qdelay_old < target/2 with probability < 0.2, or when at most 2 MTU are queued.
// - Burst allowance: max_burst (150 ms) at the start and whenever the probability is 0
//   and both delays are below target/2; it shrinks by tupdate at each update.
// Choice: the queue delay is the timestamp one (RFC 8033 Section 5.2 allows it; Linux's
// default since 5.1): the sojourn of the last packet dequeued, 0 once the queue empties
// -- not the departure-rate estimate. The update timer runs only while the queue holds
// packets or the controller has state to decay; it restarts (phase now + tupdate) at the
// next arrival.
#pragma once

#include <cstdint>
#include <string>

#include "fastsim/core/rng.hpp"
#include "fastsim/core/simulator.hpp"
#include "fastsim/net/aqm_queue.hpp"

namespace fastsim::net {

class PieQueue final : public AqmQueue {
 public:
  PieQueue(Simulator& sim, AqmDropSink& sink, BufferLimit limit, const AqmParams& prm, uint64_t seed,
           const std::string& link_id);
  void enqueue(Packet* p, Time now) override;
  Packet* dequeue(Time now) override;
  [[nodiscard]] uint64_t packets() const override { return fifo_.packets(); }
  [[nodiscard]] uint64_t bytes() const override { return fifo_.bytes(); }
  void for_each(const std::function<void(const Packet&)>& fn) const override { fifo_.for_each(fn); }
  [[nodiscard]] double drop_prob() const { return prob_; }
  [[nodiscard]] Duration qdelay() const { return qdelay_; }
  [[nodiscard]] Duration burst_allowance() const { return burst_; }
  /// One probability update with the current queue delay (the timer calls it every tupdate).
  void update();

 private:
  [[nodiscard]] bool drop_early();
  void on_timer();

  Simulator& sim_;
  AqmParams prm_;
  RandomStream rng_;
  TimedFifo fifo_;
  double prob_ = 0;
  double accu_prob_ = 0;
  Duration qdelay_;
  Duration qdelay_old_;
  Duration burst_;
  bool timer_on_ = false;
  MemberEvent<PieQueue, &PieQueue::on_timer> timer_{this};
};

}  // namespace fastsim::net
