// Drop-tail (or RED) link or dummynet pipe with one pending event per link and chaining
// into single-fed links (see link.hpp for the model and the choices).
#include "fastsim/net/link.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <set>
#include <stdexcept>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "fastsim/net/aqm_link.hpp"

namespace fastsim::net {

namespace {
constexpr uint64_t kInitialSlots = 4;  // grows by doubling; most access links stay small
// A full ring (make_room) with at most 1/kShrinkBelow of it live shrinks to the smallest power
// of two >= twice the live slots (a link that shrank fills at least half its ring again
// before it must grow; one whose live slots stay the same never allocates again), unless it
// was resized less than kShrinkAfter of simulated time ago: a link whose queue comes and goes
// (every RTT, or a sawtooth) reallocates at most once a simulated second plus the doublings
// back, so busy links pay nothing measurable, and the many slow ones (an access link of one
// flow among thousands fills its ring every few seconds) give the memory back.
constexpr uint64_t kShrinkBelow = 8;
constexpr Duration kShrinkAfter = Duration::seconds_int(1);
constexpr uint64_t kPrefetchSlots = 8;  // 256 bytes ahead: slots the admission reaches soon
constexpr uint64_t kRingAhead = 16;     // deliveries ahead whose slot is fetched (512 bytes)
}  // namespace

Link::Link(Simulator& sim, PacketPool& pool, LinkConfig cfg, uint64_t seed)
    : sim_(sim),
      pool_(pool),
      cfg_(std::move(cfg)),
      seed_(seed),
      wire_delay_(cfg_.delay),
      ring_(kInitialSlots),
      mask_(kInitialSlots - 1) {
  if (cfg_.tick > Duration::zero()) {
    cold().pipe = std::make_unique<DummynetPipe>(cfg_.rate, cfg_.tick, cfg_.delay);
    wire_delay_ = cold_->pipe->delay();
    pipe_mode_ = true;
    pipe_ps_per_byte_ = 8e12 / cfg_.rate.to_double();
  }
  if (cfg_.red) {
    cold().red =
        std::make_unique<RedGate>(*cfg_.red, serialization_time(cfg_.red->mean_packet_size, cfg_.rate), seed_, cfg_.id);
  }
  if (cfg_.aqm) {
    if (pipe_mode_ || cfg_.red)
      throw std::invalid_argument(fmt::format("link {}: an AQM queue excludes dummynet and red", cfg_.id));
    cold().aqm = std::make_unique<AqmPath>(*this, sim_, *cfg_.aqm, seed_);
    aqm_mode_ = true;
    enters_elsewhere_ = true;
  }
  modelled_ = pipe_mode_ || cfg_.red || aqm_mode_;
  if (cfg_.marking)
    cold().mark_threshold = cfg_.marking->threshold_pkts;
  may_mark_ = cfg_.marking.has_value() || modelled_;
  may_lose_ = cfg_.loss_rate > 0.0;
  if (may_lose_)  // may_lose_ and may_mark_ find the cold part made
    cold();
  update_plain();
  update_eager_view();
}

Link::Cold& Link::cold() {
  if (!cold_)
    cold_ = std::make_unique<Cold>();
  return *cold_;
}

void Link::update_plain() {
  const bool no_extras =
      !may_lose_ && (cold_ == nullptr || cold_->observer == nullptr) && next_loss_change_ == Time::never();
  plain_ = no_extras && !modelled_ && !may_mark_;
  plain_pipe_ = no_extras && pipe_mode_ && !cold_->red && cold_->mark_threshold == UINT64_MAX;
}

void Link::set_observer(PacketObserver* observer, uint32_t object) {
  cold().observer = observer;
  cold_->observer_object = object;
  update_plain();
}

size_t Link::slot_capacity() const {
  return ring_.size() + (cold_ ? cold_->drops_ahead.capacity() : 0);
}

Link::~Link() = default;

const AqmQueue* Link::aqm() const {
  return aqm_mode_ ? &cold_->aqm->queue() : nullptr;
}

void Link::aqm_visit(bool queued_only, const std::function<void(const Packet&)>& fn) const {
  cold_->aqm->visit(queued_only, fn);
}

Duration Link::tx_time_slow(uint32_t bytes) const {
  memo_.bytes[1] = memo_.bytes[0];
  memo_.tx[1] = memo_.tx[0];
  memo_.bytes[0] = bytes;
  memo_.tx[0] = serialization_time(bytes, cfg_.rate);
  return memo_.tx[0];
}

RandomStream& Link::loss_rng() {
  Cold& c = cold();
  if (!c.rng)
    c.rng = std::make_unique<RandomStream>(seed_, "link/" + cfg_.id);
  return *c.rng;
}

void Link::make_room() {
  // Delivered slots stay in the ring until the view passes them: bring it to now first.
  sync_due(sim_.now());
  const uint64_t live = tail_ - head_;
  if (live == ring_.size())
    resize_ring(ring_.size() * 2);
  else if (live <= ring_.size() / kShrinkBelow && ring_.size() > kInitialSlots &&
           sim_.now() - resized_at_ >= kShrinkAfter)
    resize_ring(std::max(kInitialSlots, std::bit_ceil(2 * live)));
}

void Link::resize_ring(uint64_t slots) {
  // The live slots keep their indices (only their positions change): every cursor, the
  // lost-slot list and the view stay as they are.
  std::vector<Slot> ring(slots);
  const uint64_t mask = slots - 1;
  for (uint64_t i = head_; i < tail_; ++i)
    ring[i & mask] = slot(i);
  ring_ = std::move(ring);
  mask_ = mask;
  resized_at_ = sim_.now();
}

// The per-slot steps (serve, advance_view, retire)
// are forced inline into their few callers in this file: GCC
// kept them out of line, and the calls were 6.6 % of B1's instructions (callgrind:
// 2781 -> 2597 per delivered packet; docs/performance.md).
void Link::count_drop(Packet* p, bool early) {
  ++counters_.arrivals;
  ++counters_.drops;
  counters_.early_drops += early ? 1 : 0;
  ++p->route->counters->queue_drops;
  pool_.release(p);
}

void Link::drop(Packet* p, Time in, bool early) {
  if (in <= sim_.now()) {
    count_drop(p, early);
    return;
  }
  // Chained: counted when it reaches the link (the feeder shows it on its wire until then).
  auto& ahead = cold().drops_ahead;
  if (ahead.full())
    ahead.set_capacity(std::max<size_t>(kInitialSlots, 2 * ahead.capacity()));
  ahead.push_back({in, p, early});
  next_due_ = std::min(next_due_, in);
}

[[gnu::always_inline]] inline void Link::serve(const Slot& s) {
  const Duration bt = busy_time(s);
  busy_started_ += bt;
  busy_end_ = std::max(busy_end_, s.tx_start) + bt;
  counters_.bytes_sent += s.size;
}

[[gnu::always_inline]] inline void Link::advance_view(Time now) {
  if (cold_ != nullptr) [[unlikely]] {
    auto& ahead = cold_->drops_ahead;
    while (!ahead.empty() && ahead.front().in <= now) {
      count_drop(ahead.front().pkt, ahead.front().early);
      ahead.pop_front();
    }
  }
  // No packet waits in the view nor among the slots ahead of it (a link that does not
  // queue, e.g. behind a slower one): the arrivals up to now change no statistic, so the
  // cursors jump past them (arrival times never decrease along the ring).
  if (started_ == arrived_ && waiting_end_ <= arrived_ && !pipe_mode_) {
    uint64_t lo = arrived_;
    uint64_t hi = tail_;  // the first slot arriving after now is in [lo, hi]
    if (lo < hi && slot(hi - 1).in > now) {
      --hi;
      while (lo < hi) {
        const uint64_t mid = lo + (hi - lo) / 2;
        if (slot(mid).in > now)
          hi = mid;
        else
          lo = mid + 1;
      }
    }
    arrived_ = started_ = hi;
    return;
  }
  // The view's cursors and sums are walked in locals and stored once at the end: as
  // members they were stored and reloaded at every slot (a slot's times are Time values
  // like area_since_, so the compiler could not keep them in registers).
  const Slot* const ring = ring_.data();
  const uint64_t mask = mask_;
  const uint64_t tail = tail_;
  const bool pipe = pipe_mode_;
  uint64_t arrived = arrived_;
  uint64_t started = started_;
  uint64_t queued = queued_pkts_;
  uint64_t queued_bytes = queued_bytes_;
  uint64_t period_max = period_max_queue_;
  Time since = area_since_;
  double area = counters_.queue_area;
  // integrate_queue() on the locals: the same terms in the same order.
  const auto integrate = [&](Time t) __attribute__((always_inline)) {
    area += queue_area_term(queued, since, t);
    since = t;
  };
  // The waiting packets that start at or before `t` start. Slots that never waited
  // (tx_start == in) started on arrival: only skipped here.
  const auto start_until = [&](Time t) __attribute__((always_inline)) {
    while (started < arrived) {
      const Slot& s = ring[started & mask];
      if (s.tx_start > t)
        return;
      if (s.tx_start > s.in) {
        integrate(s.tx_start);
        --queued;
        queued_bytes -= s.size;
        if (pipe) [[unlikely]]
          serve(s);
      }
      ++started;
    }
  };
  // One visit per arrival; before it, the waiting packets that start at or before it
  // (at equal times a departure from the queue comes before an arrival into it).
  // Arrivals and marks are counted from the view's cursor (counters()); the largest queue
  // only per period, folded into the run's maximum when the period ends or counters() is read.
  while (arrived < tail) {
    const Slot& a = ring[arrived & mask];
    if (a.in > now)
      break;
    start_until(a.in);
    if (a.tx_start > a.in) {
      integrate(a.in);
      ++queued;
      queued_bytes += a.size;
      period_max = std::max(period_max, queued);
    } else {
      // It starts on arrival, after everything before it (start_until() started those):
      // the start cursor passes it now instead of in a later start_until().
      if (pipe) [[unlikely]]  // a FIFO's service is summed at admission
        serve(a);
      started = arrived + 1;
    }
    ++arrived;
  }
  start_until(now);
  arrived_ = arrived;
  started_ = started;
  queued_pkts_ = queued;
  queued_bytes_ = queued_bytes;
  period_max_queue_ = period_max;
  area_since_ = since;
  counters_.queue_area = area;
}

[[gnu::always_inline]] inline void Link::retire(Time now) {
  // Packets leave in ring order (a FIFO serves back to back, a pipe releases in order: out()
  // never decreases along the ring), so the slots to free are a prefix, found without
  // walking it: up to the first pending slot (its delivery event not done; a delivered
  // one left at its out() <= now) and the first whose packet is still on the wire.
  const uint64_t end = std::min(deliver_, arrived_);
  uint64_t head = head_;
  if (head < end) {
    if (out(slot(end - 1)) <= now) {
      head = end;
    } else {  // the first slot with out() > now, in [head, end - 1]
      uint64_t hi = end - 1;
      while (head < hi) {
        const uint64_t mid = head + (hi - head) / 2;
        if (out(slot(mid)) > now)
          hi = mid;
        else
          head = mid + 1;
      }
    }
  }
  // Chained slots' departures are counted when read (counters()); lost ones leave the
  // wire now, in ring order.
  if (cold_ != nullptr) [[unlikely]] {
    auto& lost = cold_->lost;
    while (!lost.empty() && lost.front() < head) {
      Packet* p = slot(lost.front()).pkt;
      ++counters_.random_losses;
      ++p->route->counters->random_losses;
      pool_.release(p);
      lost.pop_front();
    }
  }
  // Slots the admission view still counted as waiting started before any future input
  // time: they leave it with the head.
  for (; admit_ < head; ++admit_) {
    --admit_queue_pkts_;
    admit_queue_bytes_ -= slot(admit_).size;
  }
  // The real-time view has started every slot before `now` (advance_view ran first); a
  // slot that never waited may still be under started_, which is skipped lazily: move it
  // past the head, whose ring positions are reused (the view would otherwise read a later
  // packet there as this one and start it twice).
  started_ = std::max(started_, head);
  head_ = head;
}

template <bool kPipe>
[[gnu::always_inline]] inline void Link::advance_eager_view(Time in) {
  // Each waiting packet that starts by `in` ends a term of the queue integral, in time
  // order, as advance_view() would add it (and a pipe's service, as it would count it).
  while (admit_ < tail_) {
    const Slot& s = slot(admit_);
    if (s.tx_start > in)
      break;
    add_area(admit_queue_pkts_, s.tx_start);
    if (kPipe)
      serve(s);
    --admit_queue_pkts_;
    admit_queue_bytes_ -= s.size;
    ++admit_;
  }
}

[[gnu::noinline]] void Link::advance_pipe_view(Time now) {
  advance_eager_view<true>(now);
}

[[gnu::always_inline]] inline void Link::advance_admission(Time in) {
  if (eager_view_) {
    advance_eager_view<false>(in);
    return;
  }
  while (admit_ < tail_) {
    const Slot& s = slot(admit_);
    if (s.tx_start > in)
      break;
    --admit_queue_pkts_;
    admit_queue_bytes_ -= s.size;
    ++admit_;
  }
}

void Link::sync_due(Time now) {
  if (eager_view_) {
    // The admission view brought to now is the real-time view (every input came at its
    // own time, so no chained drop is ahead and every slot has arrived).
    if (pipe_mode_) [[unlikely]]
      advance_pipe_view(now);  // out of line: the FIFO's loop stays as it was
    else
      advance_eager_view<false>(now);
    arrived_ = tail_;
    started_ = admit_;
    queued_pkts_ = admit_queue_pkts_;
    queued_bytes_ = admit_queue_bytes_;
  } else {
    advance_view(now);
  }
  retire(now);
  // The next time something outside the link's own statistics changes: a chained drop
  // reaching the link, or a lost packet leaving the wire (route counters, the pool).
  Time due = Time::never();
  if (cold_ != nullptr) [[unlikely]] {
    if (!cold_->drops_ahead.empty())
      due = cold_->drops_ahead.front().in;
    if (!cold_->lost.empty())
      due = std::min(due, out(slot(cold_->lost.front())));
  }
  next_due_ = due;
}

void Link::enqueue(Packet* p) {
  if (enters_elsewhere_) [[unlikely]] {
    enter_elsewhere(p);
    return;
  }
  accept(p, sim_.now());
}

void Link::enter_elsewhere(Packet* p) {
  if (!aqm_mode_)
    unexpected_feeder();
  cold_->aqm->accept(p);
}

std::optional<Time> Link::full_until(uint32_t bytes) {
  const Time now = sim_.now();
  if (modelled_ || feeder_ != nullptr || busy_until_ <= now)
    return std::nullopt;
  sync();
  advance_admission(now);
  if (!full(bytes))
    return std::nullopt;
  return admit_ < tail_ ? slot(admit_).tx_start : busy_until_;
}

Time Link::latest_input() const {
  // Inputs arriving after now are live slots (arrival times never decrease along the ring)
  // or chained drops not yet at the link; every other input arrived by now.
  Time t = tail_ > head_ ? slot(tail_ - 1).in : Time::zero();
  if (cold_ != nullptr && !cold_->drops_ahead.empty())
    t = std::max(t, cold_->drops_ahead.back().in);
  return t;
}

void Link::schedule_loss_change(Time at, std::optional<double> rate, uint32_t inject) {
  if (at < sim_.now())
    throw std::logic_error(fmt::format("link {}: a loss change at {} s is in the past (now {} s)", cfg_.id,
                                       at.to_seconds(), sim_.now().to_seconds()));
  const Time last_in = latest_input();
  if (at < last_in) {
    throw std::logic_error(fmt::format(
        "link {}: a loss change at {} s comes after the link took a packet arriving at {} s (it is chained to "
        "{} and decides packets when they enter it): announce the change earlier with set_loss_rate_at / "
        "inject_losses_at",
        cfg_.id, at.to_seconds(), last_in.to_seconds(), feeder_ != nullptr ? feeder_->id() : "its feeder"));
  }
  auto& changes = cold().loss_changes;
  const auto pos =
      std::upper_bound(changes.begin(), changes.end(), at, [](Time t, const Cold::LossChange& c) { return t < c.at; });
  changes.insert(pos, {at, rate, inject});
  next_loss_change_ = changes.front().at;
  update_plain();
}

void Link::apply_loss_changes(Time in) {
  Cold& c = *cold_;  // made with the first loss change
  auto it = c.loss_changes.begin();
  for (; it != c.loss_changes.end() && it->at <= in; ++it) {
    if (it->rate)
      cfg_.loss_rate = *it->rate;
    c.injected_losses += it->inject;
  }
  c.loss_changes.erase(c.loss_changes.begin(), it);
  may_lose_ = c.injected_losses > 0 || cfg_.loss_rate > 0.0;
  next_loss_change_ = c.loss_changes.empty() ? Time::never() : c.loss_changes.front().at;
  update_plain();
}

[[gnu::always_inline]] inline std::optional<Time> Link::admit_to_pipe(Time in, uint32_t bytes) {
  DummynetPipe& pipe = *cold_->pipe;
  const DummynetPipe::Release release = pipe.next_release(in, bytes);
  if (release.at > in && full(bytes)) {
    last_early_drop_ = false;
    return std::nullopt;  // the pipe commits its credit only for admitted packets
  }
  pipe.commit(release);
  busy_until_ = release.at;  // a pipe is idle once its last admitted packet is released
  return release.at;
}

void Link::accept(Packet* p, Time in) {
  if (plain_) [[likely]]
    accept_as<true, false>(p, in);
  else if (plain_pipe_)
    accept_as<false, true>(p, in);
  else
    accept_as<false, false>(p, in);
}

template <bool kPlain, bool kPlainPipe>
[[gnu::always_inline]] inline void Link::accept_as(Packet* p, Time in) {
  // Neither a plain FIFO nor a plain pipe: any feature may be on, each is tested.
  constexpr bool kAny = !kPlain && !kPlainPipe;
  sync();
  if (kAny && in >= next_loss_change_) [[unlikely]]
    apply_loss_changes(in);
  // Admission is decided at the packet's own arrival time `in`: what waits then.
  if (!kPlain && pipe_mode_ && eager_view_)
    advance_eager_view<true>(in);
  else
    advance_admission(in);
  // The slots the admission and start cursors reach next were written a queue ago.
  __builtin_prefetch(&slot(admit_ + kPrefetchSlots));
  const uint32_t size = p->size_bytes;
  std::optional<Time> start;
  if (kPlainPipe) {
    start = admit_to_pipe(in, size);
  } else if (!kPlain && modelled_) [[unlikely]] {
    start = admit_modelled(in, size, p->ecn_capable());
    if (start && !pipe_mode_) {  // RED: what its transmitter serves (as the FIFO's below)
      bytes_admitted_ += size;
      busy_admitted_ += tx_time(size);
    }
  } else {  // the plain drop-tail FIFO (the hot path)
    start = std::max(in, busy_until_);
    if (*start > in && full(size)) {
      last_early_drop_ = false;
      start.reset();
    } else {
      // What its transmitter serves (counters() takes off what has not started).
      const Duration tx = tx_time(size);
      busy_until_ = *start + tx;
      bytes_admitted_ += size;
      busy_admitted_ += tx;
    }
  }
  if (!start) {
    if (kAny && cold_ != nullptr && cold_->observer != nullptr) [[unlikely]]
      cold_->observer->link_dropped(cold_->observer_object, *p, in, last_early_drop_);
    drop(p, in, last_early_drop_);
    return;
  }
  if (tail_ - head_ > mask_) [[unlikely]]  // the ring (mask_ + 1 slots) is full
    make_room();
  const uint64_t idx = tail_++;
  Slot& s = slot(idx);
  s.pkt = p;
  s.in = in;
  s.size = size;
  // ECN: the step marker sees the packets waiting at `in` (this one not yet counted).
  s.marked = false;
  if (kAny && may_mark_) [[unlikely]] {
    s.marked = (admit_queue_pkts_ >= cold_->mark_threshold && p->ecn_capable()) || (modelled_ && red_marked_);
    if (s.marked) {
      p->mark_ce();
      ++marks_admitted_;
    }
  }
  if (*start > in) {
    waiting_end_ = tail_;
    if (eager_view_) {  // it arrives now: the real-time view's queue grows (sync_due())
      add_area(admit_queue_pkts_, in);
      period_max_queue_ = std::max(period_max_queue_, admit_queue_pkts_ + 1);
    }
    ++admit_queue_pkts_;
    admit_queue_bytes_ += s.size;
  } else {
    admit_ = tail_;  // everything before has started; this one starts at once
  }
  s.tx_start = *start;
  // A pipe's packet released on arrival is served now, after those before it (advance_eager_view()).
  if (!kPlain && pipe_mode_ && eager_view_ && *start == in) [[unlikely]]
    serve(s);
  // may_lose_ (a loss rate or a loss change) found the cold part made.
  const bool lost = kAny && may_lose_ &&
                    (cold_->injected_losses > 0 || (cfg_.loss_rate > 0.0 && loss_rng().bernoulli(cfg_.loss_rate)));
  if (kAny && cold_ != nullptr && cold_->observer != nullptr) [[unlikely]]
    cold_->observer->link_admitted(cold_->observer_object, *p, in, s.tx_start, out(s), lost);
  if (lost) {
    Cold& c = *cold_;
    if (c.injected_losses > 0)
      --c.injected_losses;
    may_lose_ = c.injected_losses > 0 || cfg_.loss_rate > 0.0;
    update_plain();
    s.state = SlotState::kLost;
    if (deliver_ == idx)
      deliver_ = tail_;
    if (c.lost.full())
      c.lost.set_capacity(std::max<size_t>(kInitialSlots, 2 * c.lost.capacity()));
    c.lost.push_back(idx);
    next_due_ = std::min(next_due_, out(s));
    return;
  }
  const auto& links = p->route->links;
  Link* next = feeds_chain_ && p->hop + 1u < links.size() ? links[p->hop + 1u] : nullptr;
  if (next != nullptr && next->feeder_ == this) {
    s.state = SlotState::kChained;
    ++chained_;
    if (deliver_ == idx)
      deliver_ = tail_;
    ++p->hop;
    next->accept(p, kPlainPipe ? s.tx_start + wire_delay_ : out(s));
    return;
  }
  s.state = SlotState::kPending;
  if (deliver_ == idx) {
    delivery_event_.set_warm(p, &s);
    sim_.schedule_at(delivery_event_, kPlainPipe ? s.tx_start + wire_delay_ : out(s));
  }
}

std::optional<Time> Link::admit_modelled(Time in, uint32_t bytes, bool ecn_capable) {
  // The queue seen at `in`: admit_queue_* (packets waiting, not the one in service).
  Cold& c = *cold_;  // a modelled link's (pipe or RED) is made with it
  const bool idle = admit_queue_pkts_ == 0 && in >= busy_until_;
  const RedVerdict red =
      c.red ? c.red->decide(admit_queue_pkts_, idle, busy_until_, in, ecn_capable) : RedVerdict::kAdmit;
  if (red == RedVerdict::kDrop) {
    last_early_drop_ = true;
    return std::nullopt;
  }
  red_marked_ = red == RedVerdict::kMark;
  last_early_drop_ = false;
  if (c.pipe)
    return admit_to_pipe(in, bytes);
  const Time start = std::max(in, busy_until_);
  if (start > in && full(bytes))
    return std::nullopt;
  busy_until_ = start + tx_time(bytes);
  return start;
}

void Link::on_delivery() {
  Slot& s = slot(deliver_);
  Packet* p = s.pkt;
  s.state = SlotState::kDelivered;
  ++counters_.departures;
  uint64_t i = deliver_ + 1;
  while (i < tail_ && slot(i).state != SlotState::kPending)
    ++i;
  deliver_ = i;
  if (i < tail_) {
    // The next packet and the ring further on were last touched when they entered
    // (possibly a long queue ago): fetch them while other events run, and name them to the
    // event queue (HintedEvent::set_warm), which fetches them again just before the delivery.
    const Slot& next = slot(i);
    __builtin_prefetch(next.pkt);
    __builtin_prefetch(&slot(i + kRingAhead));
    delivery_event_.set_warm(next.pkt, &next);
    // The event has just fired (not pending) and later slots leave no earlier (out() never
    // decreases along the ring).
    sim_.schedule_unpending(delivery_event_, out(next));
  }
  sync();
  hand_on(p);
}

void Link::unexpected_feeder() const {
  throw std::logic_error(
      fmt::format("link {}: a packet arrived from somewhere other than its single feeder {} (a route was not wired)",
                  cfg_.id, feeder_->id()));
}

void Link::check_next_hop(const Packet& p) const {
  const bool last = p.hop >= p.route->links.size();
  const bool wrong_link = only_hop_is_link_ && (last || p.route->links[p.hop] != only_hop_);
  const bool wrong_sink = !only_hop_is_link_ && only_hop_ != nullptr && !(last && p.route->sink == only_hop_);
  if (wrong_link || wrong_sink) {
    throw std::logic_error(
        fmt::format("link {}: a packet's route leaves it other than every route wired before the run", cfg_.id));
  }
}

const LinkCounters& Link::counters() {
  refresh();
  const Time now = sim_.now();
  integrate_queue(now);
  LinkCounters& report = cold().report;  // made on the first read: most links' counters are never read
  report = counters_;
  report.max_queue_pkts = std::max(counters_.max_queue_pkts, period_max_queue_);
  report.arrivals += arrived_;  // slots that have arrived (drops and an AQM's count in counters_)
  // Marks count at the packet's arrival: the ones admitted less those not yet arrived.
  uint64_t marks = marks_admitted_;
  for (uint64_t k = arrived_; k < tail_ && marks != 0; ++k)
    marks -= slot(k).marked ? 1 : 0;
  report.ce_marks += marks;
  // Chained packets have left once their out() is past: all but a suffix of the ring.
  uint64_t on_wire = 0;
  for (uint64_t k = tail_; k > head_ && out(slot(k - 1)) > now; --k)
    on_wire += slot(k - 1).state == SlotState::kChained ? 1 : 0;
  report.departures += chained_ - on_wire;
  if (!pipe_mode_ && !aqm_mode_) {
    // A FIFO serves its slots back to back in ring order: the packets started are the
    // admitted ones less a suffix of the ring not yet started, and the transmitter works
    // until the last started one is serialized.
    uint64_t k = tail_;
    Duration busy = busy_admitted_;
    uint64_t bytes = bytes_admitted_;
    for (; k > head_ && slot(k - 1).tx_start > now; --k) {
      busy -= tx_time(slot(k - 1).size);
      bytes -= slot(k - 1).size;
    }
    busy_started_ = busy;
    report.bytes_sent = bytes;
    busy_end_ = k > head_ ? slot(k - 1).tx_start + tx_time(slot(k - 1).size) : Time::zero();
  }
  // What the transmitter has still to do of the packets started counts later.
  report.busy = busy_started_ - std::max(Duration::zero(), busy_end_ - now);
  return report;
}

uint64_t Link::queue_packets() {
  refresh();
  return queued_pkts_;
}

uint64_t Link::queue_bytes() {
  refresh();
  return queued_bytes_;
}

uint64_t Link::take_period_max_queue() {
  refresh();
  const uint64_t m = period_max_queue_;
  counters_.max_queue_pkts = std::max(counters_.max_queue_pkts, m);
  period_max_queue_ = queued_pkts_;
  return m;
}

uint64_t Link::packets_on_link() {
  refresh();
  uint64_t n = 0;
  for_each_packet([&](const Packet&) { ++n; });
  return n;
}

void Link::check_invariants() {
  refresh();
  check_state();
}

void Link::check_state() const {
  const auto fail = [&](std::string_view what) {
    throw std::logic_error(
        fmt::format("link {}: invariant broken at {} s: {}", cfg_.id, sim_.now().to_seconds(), what));
  };
  if ((may_lose_ || may_mark_ || modelled_ || next_loss_change_ != Time::never()) && cold_ == nullptr)
    fail("a link with losses, marking, a queue model or a loss change to come has no cold part");
  if (aqm_mode_)  // the ring is unused; the AQM discipline keeps the queue
    return;
  const Time now = sim_.now();
  if (!(head_ <= admit_ && admit_ <= tail_ && head_ <= started_ && started_ <= arrived_ && arrived_ <= tail_ &&
        head_ <= deliver_ && deliver_ <= tail_ && tail_ - head_ <= ring_.size()))
    fail("cursor order head <= admit, started <= arrived <= tail, deliver in [head, tail]");
  uint64_t queued = 0, queued_bytes = 0, admit_pkts = 0, admit_bytes = 0;
  static const boost::circular_buffer<uint64_t> kNone;
  const auto& lost_slots = cold_ ? cold_->lost : kNone;
  auto lost = lost_slots.begin();
  for (uint64_t i = head_; i < tail_; ++i) {
    const Slot& s = slot(i);
    if (s.tx_start < s.in)
      fail("a slot starts before it arrives");
    if (i > head_ && (s.in < slot(i - 1).in || s.tx_start < slot(i - 1).tx_start))
      fail("arrivals or starts out of ring order");
    if (i > head_ && out(s) < out(slot(i - 1)))  // retire() finds the departed slots as a prefix
      fail("departures out of ring order");
    if ((i < arrived_) != (s.in <= now))
      fail("the view's arrival cursor disagrees with the slots' arrival times");
    if (s.in <= now && now < s.tx_start) {
      ++queued;
      queued_bytes += s.size;
    }
    if (i >= admit_) {
      ++admit_pkts;
      admit_bytes += s.size;
    }
    if ((i < deliver_ && s.state == SlotState::kPending) || (i == deliver_ && s.state != SlotState::kPending))
      fail("the delivery cursor is not on the first pending slot");
    if (s.state == SlotState::kLost) {
      if (lost == lost_slots.end() || *lost != i)
        fail("the lost-slot list does not match the lost slots");
      ++lost;
    }
  }
  if (lost != lost_slots.end())
    fail("the lost-slot list names slots no longer in the ring");
  if (queued != queued_pkts_ || queued_bytes != queued_bytes_)
    fail(fmt::format("queue {} packets / {} bytes, recounted {} / {}", queued_pkts_, queued_bytes_, queued,
                     queued_bytes));
  if (admit_pkts != admit_queue_pkts_ || admit_bytes != admit_queue_bytes_)
    fail("the admission view's queue does not match the slots it covers");
  if (period_max_queue_ < queued_pkts_)
    fail("the period's queue maximum below the current queue");
  if (cold_) {
    for (const Cold::DropAhead& d : cold_->drops_ahead) {
      if (d.in <= now)
        fail("a chained drop due by now is not counted");
    }
  }
}

void wire_single_fed_links(std::span<const Route* const> routes) {
  std::map<Link*, std::set<const Link*>> feeders;  // nullptr stands for a host
  for (const Route* r : routes) {
    for (size_t i = 0; i < r->links.size(); ++i)
      feeders[r->links[i]].insert(i == 0 ? nullptr : r->links[i - 1]);
  }
  // An AQM link's departures are not known when a packet enters it: it neither feeds
  // nor is fed by chaining.
  for (auto& [link, from] : feeders) {
    const Link* only = from.size() == 1 ? *from.begin() : nullptr;
    if (link->aqm() != nullptr || (only != nullptr && only->aqm() != nullptr))
      only = nullptr;
    link->set_single_feeder(only);
  }
  // A feeder is itself on a route (a key): it looks up the next link of its packets.
  for (auto& [link, from] : feeders) {
    if (const Link* f = link->single_feeder())
      feeders.find(const_cast<Link*>(f))->first->feeds_chain_ = true;
  }
  // The next hops of every link: one next link, or one sink (null: a route made during the
  // run, whose sink is not known yet, so nothing is cached), or several.
  struct NextHops {
    std::set<const Link*> links;
    std::set<const PacketSink*> sinks;
  };
  std::map<Link*, NextHops> next;
  for (const Route* r : routes) {
    for (size_t i = 0; i < r->links.size(); ++i) {
      NextHops& n = next[r->links[i]];
      if (i + 1 < r->links.size())
        n.links.insert(r->links[i + 1]);
      else
        n.sinks.insert(r->sink);
    }
  }
  for (auto& [link, n] : next) {
    link->only_hop_ = nullptr;
    link->only_hop_is_link_ = false;
    if (n.links.size() == 1 && n.sinks.empty()) {
      link->only_hop_ = const_cast<Link*>(*n.links.begin());
      link->only_hop_is_link_ = true;
    } else if (n.links.empty() && n.sinks.size() == 1) {
      link->only_hop_ = const_cast<PacketSink*>(*n.sinks.begin());  // null if not known before the run
    }
  }
}

void check_route_against_wiring(const Route& route) {
  const auto& links = route.links;
  for (size_t i = 0; i < links.size(); ++i) {
    const Link& l = *links[i];
    const PacketSink* next = i + 1 < links.size() ? links[i + 1] : route.sink;
    if (l.only_next_hop() != nullptr && l.only_next_hop() != next) {
      throw std::logic_error(fmt::format(
          "link {}: a route leaves it other than every route wired before the run (hop {} of {})", l.id(), i + 1,
          links.size()));
    }
    const Link* feeder = i == 0 ? nullptr : links[i - 1];
    if (l.single_feeder() != nullptr && l.single_feeder() != feeder) {
      throw std::logic_error(fmt::format("link {}: a route enters it from {}, not its single feeder {}", l.id(),
                                         feeder != nullptr ? feeder->id() : std::string("a host"),
                                         l.single_feeder()->id()));
    }
  }
}

}  // namespace fastsim::net
