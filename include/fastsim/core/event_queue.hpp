// The pending-event set: a two-level timing wheel over integer picoseconds for the next
// few seconds, and a 4-ary heap beyond. Events pop in exactly (time, seq) order.
// - seq is a global scheduling counter, so simultaneous events fire in the order they
//   were scheduled (ns-3's (time, uid) tie-break): runs are reproducible.
// - Fine wheel: 4096 buckets of 2^20 ps (~1.05 us) covering the current period of 2^32 ps
//   (~4.3 ms, aligned). A bucket is an intrusive doubly-linked list kept sorted by
//   (time, seq); an insertion usually carries the largest seq yet, so it is placed after
//   the last event not later than it (almost always the tail: buckets hold 0-2 events);
//   one with a reserved (older) seq goes before the simultaneous events with larger seqs.
//   A two-level bitmap finds the next occupied bucket with two bit scans.
// - Coarse wheel: 1024 buckets, one per later period (~4.4 s ahead in all), unsorted
//   lists in scheduling (= seq) order. When the fine wheel runs dry, the next occupied
//   period is poured into it (each event moves at most once).
// - Far heap: events beyond the coarse wheel (and any before the fine wheel's cursor),
//   entries (time, seq, event) as in OMNeT++'s intrusive heap. Each pop compares the
//   wheel's earliest event with the heap's top by (time, seq), so which structure holds
//   an event never changes the order, only the cost.
// - Schedule, cancel and pop are O(1) in the wheel (hashed hierarchical timing wheels,
//   Varghese & Lauck), O(log n) in the heap; nothing is allocated after construction
//   except heap growth. The usual schedule (append to a bucket) and pop (head of the next
//   occupied bucket) are inline; their cost does not grow with the number of events.
#pragma once

#include <array>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fastsim/core/event.hpp"

namespace fastsim {

class EventQueue {
 public:
  EventQueue() = default;
  EventQueue(const EventQueue&) = delete;
  EventQueue& operator=(const EventQueue&) = delete;
  /// Unschedules the events still pending, so their owners may outlive the queue.
  ~EventQueue() { clear(); }

  /// Schedules `ev` at `t`; if it is already pending, moves it (new tie-break seq).
  /// Inline: the usual case appends to a fine bucket's list.
  void schedule(Event& ev, Time t) {
    assert(!ev.scheduled() || ev.queue_ == this);  // an event is pending on one queue at a time
    if (ev.index_ != Event::kNotScheduled)
      unlink(ev);
    else
      ++size_;
    place(ev, t);
  }
  /// schedule() of an event known not to be pending (asserted in debug builds): an event
  /// re-scheduled from its own firing skips the pending test.
  void schedule_unpending(Event& ev, Time t) {
    assert(!ev.scheduled());
    ++size_;
    place(ev, t);
  }
  /// Takes the seq the next schedule would get, for schedule_reserved().
  uint64_t reserve_seq() { return next_seq_++; }
  /// Files `ev` (not pending) at `t` with a `seq` taken earlier by reserve_seq(): among
  /// simultaneous events it fires where an event scheduled when that seq was taken would.
  void schedule_reserved(Event& ev, Time t, uint64_t seq) {
    assert(!ev.scheduled() && seq < next_seq_);
    ++size_;
    ev.time_ = t;
    ev.seq_ = seq;
    ev.queue_ = this;
    file(ev, fine_index(t));
  }
  /// Removes `ev` if pending; no-op otherwise.
  void cancel(Event& ev);
  /// Unschedules every pending event (their owners may then be destroyed in any order).
  void clear();
  [[nodiscard]] bool empty() const { return size_ == 0; }
  [[nodiscard]] size_t size() const { return size_; }
  /// Removes and returns the earliest event if its time is at most `end`; nullptr (and
  /// nothing removed) otherwise. The returned event is no longer pending. Inline: the
  /// usual case takes the head of the next occupied fine bucket.
  Event* pop_until(Time end) {
    const uint32_t b = fine_used_.find_from(static_cast<uint32_t>(cursor_) & (kFineN - 1));
    if (b < kFineN) [[likely]] {
      Event* ev = fine_[b].head;
      if (ev->time_ <= end && !(far_due_ && heap_first(*ev)))
        return take_fine(b);
    }
    return pop_slow(end);
  }
  /// Prefetches the memory of the event due next in the fine wheel (Event's hints), to
  /// overlap its cache misses with the event now firing. Only a hint: an event filed later
  /// before it, or none in the wheel, leaves it at that.
  [[gnu::always_inline]] void warm_next() const {
    const uint32_t b = fine_used_.find_from(static_cast<uint32_t>(cursor_) & (kFineN - 1));
    if (b < kFineN)
      warm(*fine_[b].head);
  }

 private:
  /// Files `ev` (not in any structure, counted in size_) at `t` with a new seq.
  [[gnu::always_inline]] void place(Event& ev, Time t) {
    ev.time_ = t;
    ev.seq_ = next_seq_++;
    ev.queue_ = this;
    const uint64_t f = fine_index(t);
    if (f - cursor_ < period_end_ - cursor_) {  // cursor_ <= f < period_end_ (unsigned wrap)
      const auto b = static_cast<uint32_t>(f) & (kFineN - 1);
      Bucket& bk = fine_[b];
      Event* tail = bk.tail;
      if (tail == nullptr || tail->time_ <= t) {  // t after the bucket's events: append
        ev.index_ = Event::kInWheel;
        ev.next_ = nullptr;
        ev.prev_ = tail;
        if (tail != nullptr) {
          tail->next_ = &ev;
        } else {
          bk.head = &ev;
          fine_used_.set(b);
        }
        bk.tail = &ev;
        return;
      }
    }
    file(ev, f);
  }

  static constexpr int kFineShift = 20;   // a fine bucket spans 2^20 ps
  static constexpr int kFineBits = 12;    // 4096 fine buckets: a period of 2^32 ps
  static constexpr int kCoarseBits = 10;  // 1024 coarse buckets, one per period
  static constexpr uint32_t kFineN = 1u << kFineBits;
  static constexpr uint32_t kCoarseN = 1u << kCoarseBits;

  /// Occupied-bucket bits with a summary word: first occupied bucket at or after i.
  template <uint32_t N>
  struct Occupancy {
    static_assert(N % 64 == 0 && N <= 64 * 64);
    uint64_t summary = 0;
    std::array<uint64_t, N / 64> words{};
    void set(uint32_t i) {
      words[i >> 6] |= uint64_t{1} << (i & 63);
      summary |= uint64_t{1} << (i >> 6);
    }
    void reset(uint32_t i) {
      if ((words[i >> 6] &= ~(uint64_t{1} << (i & 63))) == 0)
        summary &= ~(uint64_t{1} << (i >> 6));
    }
    [[nodiscard]] bool any() const { return summary != 0; }
    /// N if none.
    [[nodiscard]] uint32_t find_from(uint32_t i) const {
      uint32_t w = i >> 6;
      const uint64_t m = words[w] & (~uint64_t{0} << (i & 63));
      if (m != 0)
        return (w << 6) | static_cast<uint32_t>(std::countr_zero(m));
      const uint64_t s = summary & ~((uint64_t{2} << w) - 1);  // words after w
      if (s == 0)
        return N;
      w = static_cast<uint32_t>(std::countr_zero(s));
      return (w << 6) | static_cast<uint32_t>(std::countr_zero(words[w]));
    }
  };
  struct Bucket {
    Event* head = nullptr;
    Event* tail = nullptr;
  };
  struct Entry {
    Time time;
    uint64_t seq;
    Event* ev;
  };
  static bool before(const Entry& a, const Entry& b) { return a.time < b.time || (a.time == b.time && a.seq < b.seq); }
  static uint64_t fine_index(Time t) { return static_cast<uint64_t>(t.ps()) >> kFineShift; }
  [[nodiscard]] Time period_end_time() const { return Time::from_ps(static_cast<int64_t>(period_end_ << kFineShift)); }

  /// True if the far heap's top comes before `ev` (precondition: the heap is not empty).
  bool heap_first(const Event& ev) const {
    const Entry& h = heap_.front();
    return h.time < ev.time_ || (h.time == ev.time_ && h.seq < ev.seq_);
  }
  /// Prefetches what `ev`'s fire() reads first: its owner's cache lines and a HintedEvent's hints.
  /// Always inlined: GCC drops the prefetches of a separate function it finds free of side
  /// effects (and calls to it with them).
  [[gnu::always_inline]] static void warm(const Event& ev) {
    // Integer arithmetic: the last lines may lie past the owner object (only prefetched).
    const auto owner = reinterpret_cast<uintptr_t>(ev.owner_);
    for (uint32_t k = 0; k < ev.owner_lines_; ++k)
      __builtin_prefetch(reinterpret_cast<const void*>(owner + 64 * k));
    if (ev.hinted_) {
      const auto& hinted = static_cast<const HintedEvent&>(ev);
      __builtin_prefetch(hinted.warm_[0]);
      __builtin_prefetch(hinted.warm_[1]);
    }
  }
  /// Removes and returns the first event of the occupied fine bucket `b`, the earliest.
  Event* take_fine(uint32_t b) {
    Bucket& bk = fine_[b];
    Event* ev = bk.head;
    bk.head = ev->next_;
    if (bk.head != nullptr) {
      bk.head->prev_ = nullptr;
    } else {
      bk.tail = nullptr;
      fine_used_.reset(b);
    }
    ev->index_ = Event::kNotScheduled;
    --size_;
    cursor_ = (period_end_ - kFineN) | b;
    return ev;
  }
  void file(Event& ev, uint64_t f);
  void insert_fine(Event& ev, uint64_t f);
  void unlink(Event& ev);
  void pour(uint64_t period);
  void set_period(uint64_t period);
  Event* pop_slow(Time end);
  Event* pop_heap();

  void heap_place(const Entry& e, uint32_t i) {
    heap_[i] = e;
    e.ev->index_ = i;
  }
  // Both move the hole at `i` until `e` fits there, then place `e`: the entry is passed
  // in registers, never written and read back (a store-forwarding stall on 24-byte entries).
  void sift_up(uint32_t i, const Entry& e);
  void sift_down(uint32_t i, const Entry& e);
  void heap_remove(uint32_t i);

  // The fine wheel holds fine indices [cursor_, period_end_) (the current period from
  // the last popped wheel event on); the coarse wheel [period_end_, coarse_end_).
  uint64_t period_ = 0;
  uint64_t cursor_ = 0;
  uint64_t period_end_ = kFineN;
  uint64_t coarse_end_ = uint64_t{kCoarseN} << kFineBits;
  // False only if every event in the far heap is after the current period (so after
  // every event of the fine wheel): the usual pop then skips the comparison with it.
  bool far_due_ = false;
  std::array<Bucket, kFineN> fine_{};
  std::array<Bucket, kCoarseN> coarse_{};
  Occupancy<kFineN> fine_used_;
  Occupancy<kCoarseN> coarse_used_;
  std::vector<Entry> heap_;
  size_t size_ = 0;
  uint64_t next_seq_ = 0;
};

}  // namespace fastsim
