// The service clock of a dummynet pipe (Rizzo, "Dummynet: a simple approach to the
// evaluation of network protocols", CCR 1997; FreeBSD ip_dummynet.c): the pipe is served
// only when the kernel's scheduler ticks (every 1/HZ s). At each tick a backlogged pipe
// gains rate x tick of credit and releases head-of-line packets while the credit covers
// them, so packets leave in per-tick batches of about rate x tick bytes; the delay line
// is also checked at ticks only.
// Choices (docs/model.md, "Dummynet pipes"):
// - Both stages are quantised: bandwidth (release at the first tick with enough credit)
//   and the delay line (the delay is a whole number of ticks, rounded down as dummynet
//   converts milliseconds to ticks; a packet released at tick r leaves the pipe at
//   r + delay).
// - Credit accrues only while the pipe is backlogged: a packet reaching an idle pipe
//   gets one tick of credit at the first tick at or after its arrival (leftover credit
//   is kept while the backlog lasts, dropped when the pipe idles).
// - Credit is exact integer arithmetic (bit x picoseconds), so long runs do not drift.
// The release time is a function of the arrival sequence only, so it is computed when a
// packet is accepted (as a FIFO link computes its transmission start): pipes chain like
// links (link.hpp).
#pragma once

#include <cstdint>

#include "fastsim/core/time.hpp"
#include "fastsim/core/units.hpp"

namespace fastsim::net {

class DummynetPipe {
 public:
  DummynetPipe() = default;
  DummynetPipe(Rate rate, Duration tick, Duration delay)
      : tick_ps_(tick.ps()),
        credit_per_tick_(static_cast<uint128_t>(rate.bps) * static_cast<uint64_t>(tick.ps())),
        delay_(Duration::picoseconds(delay.ps() / tick.ps() * tick.ps())) {}

  /// The delay line's length: the configured delay rounded down to whole ticks.
  [[nodiscard]] Duration delay() const { return delay_; }

  /// First tick at or after `t`.
  [[nodiscard]] Time tick_at_or_after(Time t) const {
    const int64_t k = (t.ps() + tick_ps_ - 1) / tick_ps_;
    return Time::from_ps(k * tick_ps_);
  }

  /// A release computed but not yet committed (the queue may still refuse the packet).
  struct Release {
    Time at;           // the tick at which the packet leaves the queue for the delay line
    uint128_t credit;  // the pipe's credit after it
  };
  /// The release of a `bytes`-byte packet arriving at `in` (non-decreasing over the
  /// committed calls); commit() makes it the pipe's state. No copy of the pipe is needed
  /// to try a packet that the buffer may refuse.
  [[nodiscard]] Release next_release(Time in, uint32_t bytes) const {
    Time at = last_release_;
    uint128_t credit = credit_;
    // last_release_ is on a tick (or before time 0): the pipe idled if and only if it is
    // before `in`, and then the first tick at or after `in` brings one tick of fresh credit.
    if (at < in) {
      at = tick_at_or_after(in);
      credit = credit_per_tick_;
    }
    const uint128_t cost = static_cast<uint128_t>(bytes) * 8u * 1'000'000'000'000ULL;
    if (credit < cost) {
      const uint128_t ticks = (cost - credit + credit_per_tick_ - 1) / credit_per_tick_;
      at = at + Duration::picoseconds(static_cast<int64_t>(ticks) * tick_ps_);
      credit += ticks * credit_per_tick_;
    }
    return {at, credit - cost};
  }
  void commit(const Release& r) {
    last_release_ = r.at;
    credit_ = r.credit;
  }
  /// When the pipe is idle again (its last release so far).
  [[nodiscard]] Time last_release() const { return last_release_; }

 private:
  int64_t tick_ps_ = 1;
  uint128_t credit_per_tick_ = 0;  // bits x ps
  uint128_t credit_ = 0;
  Duration delay_;
  Time last_release_ = Time::from_ps(-1);
};

}  // namespace fastsim::net
