// The event-driven queue + transmitter + wire of a link with an AQM discipline (see
// aqm_link.hpp); the discipline is chosen here from the link's configuration.
#include "fastsim/net/aqm_link.hpp"

#include <algorithm>
#include <stdexcept>

#include "fastsim/net/codel.hpp"
#include "fastsim/net/fq_codel.hpp"
#include "fastsim/net/link.hpp"
#include "fastsim/net/pie.hpp"

namespace fastsim::net {

namespace {
std::unique_ptr<AqmQueue> make_queue(Simulator& sim, AqmDropSink& sink, const LinkConfig& cfg, uint64_t seed) {
  const AqmParams& prm = *cfg.aqm;
  switch (prm.kind) {
    case AqmKind::kCodel:
      return std::make_unique<CodelQueue>(sink, cfg.buffer, prm);
    case AqmKind::kFqCodel:
      return std::make_unique<FqCodelQueue>(sink, cfg.buffer, prm, mix64(seed ^ hash_name("link/" + cfg.id)));
    case AqmKind::kPie:
      return std::make_unique<PieQueue>(sim, sink, cfg.buffer, prm, seed, cfg.id);
  }
  throw std::logic_error("unknown AQM discipline");
}
}  // namespace

AqmPath::AqmPath(Link& link, Simulator& sim, const AqmParams& /*prm*/, uint64_t seed)
    : link_(link), sim_(sim), queue_(make_queue(sim, *this, link.cfg_, seed)), wire_(4) {}

AqmPath::~AqmPath() = default;

void AqmPath::accept(Packet* p) {
  const Time now = sim_.now();
  if (now >= link_.next_loss_change_) [[unlikely]]
    link_.apply_loss_changes(now);
  ++link_.counters_.arrivals;
  link_.integrate_queue(now);
  queue_->enqueue(p, now);
  if (serving_ == nullptr)
    start_next(now);
  else
    note_queue();
}

void AqmPath::aqm_drop(Packet* p, bool early) {
  ++link_.counters_.drops;
  link_.counters_.early_drops += early ? 1 : 0;
  ++p->route->counters->queue_drops;
  link_.pool_.release(p);
}

void AqmPath::note_queue() {
  link_.queued_pkts_ = queue_->packets();
  link_.queued_bytes_ = queue_->bytes();
  link_.counters_.max_queue_pkts = std::max(link_.counters_.max_queue_pkts, link_.queued_pkts_);
  link_.period_max_queue_ = std::max(link_.period_max_queue_, link_.queued_pkts_);
}

void AqmPath::start_next(Time now) {
  serving_ = queue_->dequeue(now);
  note_queue();
  if (serving_ == nullptr)
    return;
  const Duration tx = link_.tx_time(serving_->size_bytes);
  link_.busy_started_ += tx;
  link_.busy_end_ = std::max(link_.busy_end_, now) + tx;
  link_.counters_.bytes_sent += serving_->size_bytes;
  link_.busy_until_ = now + tx;
  sim_.schedule_at(tx_event_, now + tx);
}

void AqmPath::on_tx_done() {
  const Time now = sim_.now();
  bool lost = false;
  if (link_.cold_->injected_losses > 0) {  // an AQM link's cold part holds the AQM path
    --link_.cold_->injected_losses;
    lost = true;
  } else if (link_.cfg_.loss_rate > 0.0) {
    lost = link_.loss_rng().bernoulli(link_.cfg_.loss_rate);
  }
  if (wire_.full())
    wire_.set_capacity(2 * wire_.capacity());
  wire_.push_back({now + link_.wire_delay_, serving_, lost});
  if (wire_.size() == 1)
    sim_.schedule_at(wire_event_, wire_.front().out);
  serving_ = nullptr;
  link_.integrate_queue(now);
  start_next(now);
}

void AqmPath::on_wire() {
  const OnWire w = wire_.front();
  wire_.pop_front();
  if (!wire_.empty())
    sim_.schedule_at(wire_event_, wire_.front().out);
  if (w.lost) {
    ++link_.counters_.random_losses;
    ++w.pkt->route->counters->random_losses;
    link_.pool_.release(w.pkt);
    return;
  }
  ++link_.counters_.departures;
  link_.hand_on(w.pkt);
}

void AqmPath::visit(bool queued_only, const std::function<void(const Packet&)>& fn) const {
  queue_->for_each(fn);
  if (queued_only)
    return;
  if (serving_ != nullptr)
    fn(*serving_);
  for (const OnWire& w : wire_)
    fn(*w.pkt);
}

}  // namespace fastsim::net
