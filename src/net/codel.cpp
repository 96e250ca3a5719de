// CoDel on one FIFO (see codel.hpp).
#include "fastsim/net/codel.hpp"

namespace fastsim::net {

void CodelQueue::enqueue(Packet* p, Time now) {
  if (over_limit(fifo_.packets(), fifo_.bytes(), p->size_bytes)) {
    drop(p, false);
    return;
  }
  fifo_.push(p, now);
}

Packet* CodelQueue::dequeue(Time now) {
  struct View {
    CodelQueue& q;
    Time last_in;
    TimedFifo::Entry pop() {
      const TimedFifo::Entry e = q.fifo_.pop();
      last_in = e.in;
      return e;
    }
    [[nodiscard]] uint64_t backlog() const { return q.fifo_.bytes(); }
    void drop(Packet* p) { q.drop(p, true); }
  } view{*this, Time::zero()};
  Packet* p = ctl_.dequeue(view, now, prm_);
  if (p != nullptr)
    note_dequeue(view.last_in, now);
  return p;
}

}  // namespace fastsim::net
