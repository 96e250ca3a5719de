// CoDel, "Controlled Delay Active Queue Management" (RFC 8289), as its Section 5
// pseudocode and Linux's include/net/codel_impl.h have it:
// - At dequeue, a packet's sojourn time (now - enqueue time) is compared with `target`
//   (5 ms). Once it has stayed at or above target for a whole `interval` (100 ms) -- and
//   more than one MTU (`mtu`, 1514 bytes, RFC "maxpacket") is left queued -- CoDel enters
//   the dropping state and drops the packet.
// - In the dropping state it drops again at drop_next, with drop_next advanced by the
//   control law interval / sqrt(count), until a packet's sojourn goes below target.
// - Re-entering the dropping state less than 16 intervals after the last drop_next
//   starts from the count of drops the previous episode added (count - lastcount, if
//   above 1) instead of 1.
// CodelControl is the per-queue state and control law (FQ-CoDel keeps one per flow);
// CodelQueue is CoDel on one FIFO with the link's buffer as its tail-drop limit.
#pragma once

#include <cmath>
#include <cstdint>

#include "fastsim/net/aqm_queue.hpp"

namespace fastsim::net {

class CodelControl {
 public:
  /// CoDel's dequeue over `q`, which provides pop() -> TimedFifo::Entry (empty if none),
  /// backlog() -> bytes still queued (after the pop) and drop(Packet*); the packet
  /// returned is the last one popped.
  template <class Q>
  Packet* dequeue(Q& q, Time now, const AqmParams& prm) {
    bool ok = false;
    Packet* p = do_dequeue(q, now, prm, ok);
    if (dropping_) {
      if (!ok) {
        dropping_ = false;
      }
      while (dropping_ && now >= drop_next_) {
        q.drop(p);
        ++count_;
        p = do_dequeue(q, now, prm, ok);
        if (!ok)
          dropping_ = false;
        else
          drop_next_ = control_law(drop_next_, prm.interval);
      }
    } else if (ok) {
      q.drop(p);
      p = do_dequeue(q, now, prm, ok);
      dropping_ = true;
      const uint32_t delta = count_ - lastcount_;
      count_ = 1;
      if (delta > 1 && now - drop_next_ < prm.interval * 16)
        count_ = delta;
      drop_next_ = control_law(now, prm.interval);
      lastcount_ = count_;
    }
    return p;
  }
  [[nodiscard]] bool dropping() const { return dropping_; }
  [[nodiscard]] uint32_t count() const { return count_; }
  [[nodiscard]] Time drop_next() const { return drop_next_; }

 private:
  template <class Q>
  Packet* do_dequeue(Q& q, Time now, const AqmParams& prm, bool& ok_to_drop) {
    ok_to_drop = false;
    const TimedFifo::Entry e = q.pop();
    if (e.pkt == nullptr) {
      first_above_time_ = Time::zero();
      return nullptr;
    }
    if (now - e.in < prm.target || q.backlog() <= prm.mtu) {
      first_above_time_ = Time::zero();  // went below target (or too little to drop)
    } else if (first_above_time_ == Time::zero()) {
      first_above_time_ = now + prm.interval;
    } else if (now >= first_above_time_) {
      ok_to_drop = true;
    }
    return e.pkt;
  }
  /// t + interval / sqrt(count).
  [[nodiscard]] Time control_law(Time t, Duration interval) const {
    return t + Duration::picoseconds(
                   std::llround(static_cast<double>(interval.ps()) / std::sqrt(static_cast<double>(count_))));
  }

  Time first_above_time_ = Time::zero();  // zero: not above target
  Time drop_next_ = Time::zero();
  uint32_t count_ = 0;
  uint32_t lastcount_ = 0;
  bool dropping_ = false;
};

/// CoDel on a single FIFO; arrivals beyond the buffer are tail-dropped.
class CodelQueue final : public AqmQueue {
 public:
  CodelQueue(AqmDropSink& sink, BufferLimit limit, const AqmParams& prm) : AqmQueue(sink, limit), prm_(prm) {}
  void enqueue(Packet* p, Time now) override;
  Packet* dequeue(Time now) override;
  [[nodiscard]] uint64_t packets() const override { return fifo_.packets(); }
  [[nodiscard]] uint64_t bytes() const override { return fifo_.bytes(); }
  void for_each(const std::function<void(const Packet&)>& fn) const override { fifo_.for_each(fn); }
  [[nodiscard]] const CodelControl& control() const { return ctl_; }

 private:
  AqmParams prm_;
  TimedFifo fifo_;
  CodelControl ctl_;
};

}  // namespace fastsim::net
