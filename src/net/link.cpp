// Drop-tail link with a single pending event per link (see link.hpp).
#include "fastsim/net/link.hpp"

#include <algorithm>
#include <utility>

namespace fastsim::net {

Link::Link(Simulator& sim, PacketPool& pool, LinkConfig cfg, uint64_t seed)
    : sim_(sim), pool_(pool), cfg_(std::move(cfg)), rng_(seed, "link/" + cfg_.id) {}

void Link::integrate_queue(Time t) {
  counters_.queue_area += static_cast<double>(queued_pkts_) * (t - area_since_).to_seconds();
  area_since_ = t;
}

void Link::start_serializing(const Packet* p) {
  counters_.busy += serialization_time(p->size_bytes, cfg_.rate);
  counters_.bytes_sent += p->size_bytes;
}

void Link::advance() {
  const Time now = sim_.now();
  while (waiting_ != nullptr && waiting_->tx_start <= now) {
    integrate_queue(waiting_->tx_start);
    --queued_pkts_;
    queued_bytes_ -= waiting_->size_bytes;
    start_serializing(waiting_);
    waiting_ = waiting_->next;
  }
}

void Link::enqueue(Packet* p) {
  advance();
  ++counters_.arrivals;
  const Time now = sim_.now();
  const bool full = cfg_.buffer.packets != 0 ? queued_pkts_ + 1 > cfg_.buffer.packets
                                             : queued_bytes_ + p->size_bytes > cfg_.buffer.bytes;
  const Time start = std::max(now, busy_until_);
  if (start > now && full) {
    ++counters_.drops;
    ++p->route->counters->queue_drops;
    pool_.release(p);
    return;
  }
  busy_until_ = start + serialization_time(p->size_bytes, cfg_.rate);
  p->tx_start = start;
  p->arrival = busy_until_ + cfg_.delay;
  p->next = nullptr;
  if (tail_ != nullptr) {
    tail_->next = p;
  } else {
    head_ = p;
  }
  tail_ = p;
  ++on_link_;
  if (start > now) {
    integrate_queue(now);
    ++queued_pkts_;
    queued_bytes_ += p->size_bytes;
    counters_.max_queue_pkts = std::max(counters_.max_queue_pkts, queued_pkts_);
    period_max_queue_ = std::max(period_max_queue_, queued_pkts_);
    if (waiting_ == nullptr)
      waiting_ = p;
  } else {
    start_serializing(p);
  }
  if (head_ == p)
    sim_.schedule_at(head_event_, p->arrival);
}

void Link::on_head_arrival() {
  advance();
  Packet* p = head_;
  head_ = p->next;
  if (head_ == nullptr)
    tail_ = nullptr;
  --on_link_;
  if (head_ != nullptr)
    sim_.schedule_at(head_event_, head_->arrival);
  if (injected_losses_ > 0 || (cfg_.loss_rate > 0.0 && rng_.bernoulli(cfg_.loss_rate))) {
    if (injected_losses_ > 0)
      --injected_losses_;
    ++counters_.random_losses;
    ++p->route->counters->random_losses;
    pool_.release(p);
    return;
  }
  ++counters_.departures;
  forward(p);
}

const LinkCounters& Link::counters() {
  advance();
  integrate_queue(sim_.now());
  return counters_;
}

uint64_t Link::queue_packets() {
  advance();
  return queued_pkts_;
}

uint64_t Link::take_period_max_queue() {
  advance();
  const uint64_t m = period_max_queue_;
  period_max_queue_ = queued_pkts_;
  return m;
}

uint64_t Link::queue_bytes() {
  advance();
  return queued_bytes_;
}

}  // namespace fastsim::net
