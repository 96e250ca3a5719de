// FQ-CoDel's flow classification, DRR scheduler and overflow rule (see fq_codel.hpp).
#include "fastsim/net/fq_codel.hpp"

#include "fastsim/core/rng.hpp"

namespace fastsim::net {

FqCodelQueue::FqCodelQueue(AqmDropSink& sink, BufferLimit limit, const AqmParams& prm, uint64_t seed)
    : AqmQueue(sink, limit),
      prm_(prm),
      seed_(mix64(seed ^ hash_name("fq_codel"))),
      flows_(prm.flows),
      new_flows_(prm.flows),
      old_flows_(prm.flows) {}

uint32_t FqCodelQueue::flow_of(const Packet& p) {
  const auto it = route_numbers_.try_emplace(p.route, route_numbers_.size()).first;
  return static_cast<uint32_t>(mix64(seed_ ^ it->second) % flows_.size());
}

void FqCodelQueue::enqueue(Packet* p, Time now) {
  const uint32_t idx = flow_of(*p);
  Flow& f = flows_[idx];
  f.q.push(p, now);
  ++pkts_;
  bytes_ += p->size_bytes;
  if (f.list == List::kNone) {
    f.list = List::kNew;
    f.deficit = prm_.quantum;
    new_flows_.push_back(idx);
  }
  // The limit counts the packets waiting with this one: over it, one packet goes.
  if (limit_.packets != 0 ? pkts_ > limit_.packets : bytes_ > limit_.bytes)
    drop_from_fattest();
}

void FqCodelQueue::drop_from_fattest() {
  size_t fattest = 0;
  for (size_t i = 1; i < flows_.size(); ++i) {
    if (flows_[i].q.bytes() > flows_[fattest].q.bytes())
      fattest = i;
  }
  const TimedFifo::Entry e = flows_[fattest].q.pop();
  --pkts_;
  bytes_ -= e.pkt->size_bytes;
  drop(e.pkt, false);
}

Packet* FqCodelQueue::dequeue(Time now) {
  struct View {
    FqCodelQueue& s;
    Flow& f;
    Time last_in;
    TimedFifo::Entry pop() {
      const TimedFifo::Entry e = f.q.pop();
      if (e.pkt != nullptr) {
        --s.pkts_;
        s.bytes_ -= e.pkt->size_bytes;
        last_in = e.in;
      }
      return e;
    }
    [[nodiscard]] uint64_t backlog() const { return s.bytes_; }
    void drop(Packet* p) { s.drop(p, true); }
  };
  for (;;) {
    boost::circular_buffer<uint32_t>* list = !new_flows_.empty() ? &new_flows_ : &old_flows_;
    if (list->empty())
      return nullptr;
    const uint32_t idx = list->front();
    Flow& f = flows_[idx];
    if (f.deficit <= 0) {
      f.deficit += prm_.quantum;
      list->pop_front();
      old_flows_.push_back(idx);
      f.list = List::kOld;
      continue;
    }
    View view{*this, f, Time::zero()};
    Packet* p = f.codel.dequeue(view, now, prm_);
    if (p == nullptr) {
      list->pop_front();
      if (list == &new_flows_ && !old_flows_.empty()) {
        old_flows_.push_back(idx);
        f.list = List::kOld;
      } else {
        f.list = List::kNone;
      }
      continue;
    }
    f.deficit -= p->size_bytes;
    note_dequeue(view.last_in, now);
    return p;
  }
}

void FqCodelQueue::for_each(const std::function<void(const Packet&)>& fn) const {
  for (const Flow& f : flows_)
    f.q.for_each(fn);
}

}  // namespace fastsim::net
