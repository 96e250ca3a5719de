// The congestion-control interface: the algorithm decides the window only.
// Follows Linux's tcp_congestion_ops split (the TCP sender owns sequence space, ACK
// clocking, loss detection, recovery, timers and RTT estimation) and ns-3's
// "return ssthresh, don't set it". Events and their data: docs/algorithms.md, "What
// every algorithm sees (the interface)".
// - Delayed ACKs reach the algorithm as newly_acked = 2: algorithms never assume one
//   ACK per packet.
// - Windows are fractional packets.
// - Beyond the window, an algorithm may ask its sender (SenderControl) for one timer of
//   its own, a pacing rate and a new baseRTT estimate: what FAST's fixed-interval
//   updates, burstiness control and persistent-congestion remedies need (Linux offers
//   the same through sk_pacing_rate, timers and tcp_sock's rtt_min).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>

#include "fastsim/core/time.hpp"

namespace fastsim::cc {

/// Sender state as the algorithm sees it.
enum class CaState : uint8_t { kOpen, kRecovery, kLoss };

/// ssthresh before the first loss: "infinite" (slow start until a loss). Every window
/// variable is a double, so this is a large finite value rather than a special one.
inline constexpr double kInfiniteSsthresh = 1e18;
/// True for an ssthresh that stands for "no threshold yet": kInfiniteSsthresh, or
/// anything above a tenth of it (no real window comes near).
[[nodiscard]] constexpr bool is_infinite_ssthresh(double pkts) {
  return pkts >= kInfiniteSsthresh / 10;
}

/// The smallest ssthresh, and the smallest window, an algorithm sets after a decrease:
/// 2 packets (RFC 5681 section 3.1: ssthresh = max(FlightSize / 2, 2 SMSS); a window of
/// 1 would stall against a delayed-ACK receiver).
inline constexpr double kMinWindow = 2;
/// `pkts`, raised to kMinWindow if below it.
[[nodiscard]] inline double at_least_min_window(double pkts) {
  return std::max(pkts, kMinWindow);
}

/// The RTT samples of one round (from the ACK that ended the previous round to the
/// ACK that ends this one, both included in the round they end: Linux Vegas order).
struct RoundRtt {
  Duration min;
  Duration max;
  Duration mean;
  uint32_t samples = 0;  ///< 0: no valid sample in the round (min/max/mean meaningless)
};

/// Round-trip statistics kept by the sender.
struct RttView {
  std::optional<Duration>
      srtt;  ///< RFC 6298 smoothed RTT, once a sample reached it (rtt_every_ack: every ACK's, else the timed segment's)
  std::optional<Duration> min_rtt;  ///< smallest sample ever (baseRTT)
  std::optional<Duration> max_rtt;  ///< largest sample ever
  std::optional<Duration> latest;   ///< most recent sample
  RoundRtt last_round;              ///< the round that ended most recently (see AckEvent::round_start)
};

/// A read-only view of the flow handed to every callback.
struct FlowView {
  Time now;
  double in_flight_pkts = 0;  ///< packets believed in the network (RFC 6675 "pipe")
  const RttView* rtt = nullptr;
  CaState state = CaState::kOpen;
  bool cwnd_limited = true;  ///< the window, not the application or rwnd, limited the last send
  uint64_t round = 0;        ///< RTT rounds completed (a round ends when its first packet is acked)
  uint32_t mss = 1460;       ///< payload bytes per segment (the flow's mss)
  bool paced = false;        ///< the pacing switch is on (Linux fq); false for an algorithm's own rate (FAST, BBR)
};

/// The two window variables the algorithm owns.
struct Window {
  double cwnd_pkts = 10;
  double ssthresh_pkts = kInfiniteSsthresh;
};

/// A delivery-rate sample (draft-cheng-iccrg-delivery-rate-estimation, Linux tcp_rate.c),
/// built by the sender on every ACK that delivered data, for algorithms that ask for it
/// (CongestionControl::wants_rate_samples). Rates are in packets per second.
struct RateSample {
  double delivery_rate = 0;      ///< delivered / interval; 0 when the sample is invalid
  Duration interval;             ///< max(send interval, ACK interval); zero when invalid
  uint64_t delivered = 0;        ///< packets delivered over the interval
  uint64_t prior_delivered = 0;  ///< the flow's delivered count when the newest acked packet was sent
  uint64_t flow_delivered = 0;   ///< the flow's delivered count now (C.delivered)
  uint32_t acked_sacked = 0;     ///< packets newly delivered (cumulatively or SACKed) by this ACK
  bool is_app_limited = false;   ///< the newest acked packet was sent while the application limited the flow
  bool valid = false;            ///< interval and delivery_rate are meaningful
  std::optional<Duration> rtt;   ///< RTT of the newest acked packet (absent if it was retransmitted)
};

struct AckEvent {
  uint32_t newly_acked = 0;            ///< packets newly covered by the cumulative ACK
  std::optional<Duration> rtt_sample;  ///< Karn-filtered sample (absent for retransmitted segments)
  bool in_recovery = false;
  bool round_start = false;  ///< this ACK ended a round (once per RTT); RttView::last_round is that round
  /// This ACK's delivery-rate sample; null unless the algorithm wants_rate_samples().
  const RateSample* rate = nullptr;
  bool ece = false;  ///< the ACK carried ECN-Echo (flows with ECN only; see tcp/ecn.hpp)
};

struct LossResponse {
  double ssthresh_pkts = 2;
  double cwnd_pkts = 2;  ///< window to use while recovering (and after, unless on_recovery_exit changes it)
};

class CongestionControl;

/// One algorithm-specific column of the per-flow trace: its CSV header name and how to read it.
struct TraceColumn {
  const char* name;                              // e.g. "alpha" (units in the name where any: "qdelay_s")
  double (*value)(const CongestionControl& cc);  // reads the current value
};

/// What an algorithm may ask of its sender besides the window.
class SenderControl {
 public:
  virtual ~SenderControl() = default;
  /// Arms the algorithm's one timer (re-arming moves it; Time::never() disarms);
  /// CongestionControl::on_timer runs when it fires.
  virtual void set_timer(Time at) = 0;
  /// Spaces data packets at least 1/rate apart (packets per second); 0 = no pacing,
  /// packets leave as the window and ACKs allow.
  virtual void set_pacing_rate(double pkts_per_s) = 0;
  /// Replaces the baseRTT estimate (RttView::min_rtt); smaller samples still lower it.
  virtual void set_base_rtt(Duration base) = 0;
  /// Marks the data sent from now until what is in flight is delivered as application
  /// limited (its rate samples carry is_app_limited), as BBR's ProbeRTT does; no-op
  /// without rate sampling.
  virtual void mark_app_limited() {}
};

class CongestionControl {
 public:
  virtual ~CongestionControl() = default;
  /// Called once by the sender before the flow starts.
  void attach(SenderControl* control) { control_ = control; }
  /// The algorithm's timer (SenderControl::set_timer) fired.
  virtual void on_timer(const FlowView& /*flow*/, Window& /*w*/) {}
  /// A cumulative ACK advanced snd_una.
  virtual void on_ack(const FlowView& flow, Window& w, const AckEvent& ack) = 0;
  /// A duplicate ACK arrived (`dupacks` so far in this run of duplicates).
  virtual void on_dupack(const FlowView& /*flow*/, Window& /*w*/, uint32_t /*dupacks*/) {}
  /// Fast retransmit begins: return the new ssthresh and window.
  [[nodiscard]] virtual LossResponse on_loss(const FlowView& flow, const Window& w) = 0;
  /// The ACK that ends fast recovery has arrived; the sender has set cwnd = ssthresh.
  virtual void on_recovery_exit(const FlowView& /*flow*/, Window& /*w*/) {}
  /// The retransmission timer fired: default ssthresh = max(cwnd/2, 2), cwnd = 1
  /// (RFC 5681 section 3.1, with cwnd for FlightSize).
  [[nodiscard]] virtual LossResponse on_timeout(const FlowView& flow, const Window& w);
  /// Asked once, when the sender is built: true makes the sender keep per-packet
  /// delivery state and pass a RateSample with every ACK (AckEvent::rate) and call
  /// on_delivery for ACKs that only SACK. False (default): no cost.
  [[nodiscard]] virtual bool wants_rate_samples() const { return false; }
  /// With rate samples only: an ACK delivered data (SACKed segments) without advancing
  /// snd_una (on_ack is not called for it); `ack.rate` is set, newly_acked = 0.
  virtual void on_delivery(const FlowView& /*flow*/, Window& /*w*/, const AckEvent& /*ack*/) {}
  /// ECN: an ACK with ECE asks for a window reduction (at most once per window, only while
  /// Open); the sender sets ssthresh and cwnd = min(cwnd, the returned cwnd) and sends CWR.
  /// Default: the loss response (RFC 3168 section 6.1.2, Linux's ssthresh hook).
  [[nodiscard]] virtual LossResponse on_ecn(const FlowView& flow, const Window& w) { return on_loss(flow, w); }
  /// The algorithm works only with ECN (DCTCP; Linux TCP_CONG_NEEDS_ECN): its flows send
  /// ECN-capable data whatever the `ecn` setting and their receivers echo CE exactly.
  [[nodiscard]] virtual bool needs_ecn() const { return false; }
  /// A data packet leaves the sender; called only for an algorithm whose
  /// wants_send_events() is true.
  virtual void on_send(const FlowView& /*flow*/, uint64_t /*seq*/, bool /*retransmission*/) {}
  /// Asked once, when the sender is built: true makes the sender call on_send for every
  /// data packet. False (default): no per-send call (no built-in algorithm needs one).
  [[nodiscard]] virtual bool wants_send_events() const { return false; }
  /// Asked once, when the sender is built: true makes the sender keep the state of the
  /// algorithm's timer (set_timer) from the start. An algorithm that calls set_timer
  /// without saying so still gets its timer, allocated at the first call.
  [[nodiscard]] virtual bool wants_timer() const { return false; }
  /// Asked once, when the sender is built: true makes the sender keep the pacing state
  /// (set_pacing_rate) from the start; otherwise as wants_timer().
  [[nodiscard]] virtual bool wants_pacing() const { return false; }
  /// Asked once, when the sender is built: true makes the sender call on_tx_start.
  [[nodiscard]] virtual bool wants_tx_start() const { return false; }
  /// New data leaves with nothing in flight, `idle` after the last data packet left
  /// (Linux's CA_EVENT_TX_START with now - lsndtime): the application let the pipe empty.
  /// Called as the segment leaves; only for an algorithm whose wants_tx_start() is true.
  virtual void on_tx_start(const FlowView& /*flow*/, Duration /*idle*/) {}
  /// Asked once, when the sender is built: true exempts the algorithm from the sender's
  /// restart after idle (slow_start_after_idle): Linux's tcp_slow_start_after_idle_check
  /// skips algorithms with a cong_control hook, which set cwnd and the pacing rate from
  /// their own model (BBR). False (default): the window restarts.
  [[nodiscard]] virtual bool exempt_from_idle_restart() const { return false; }
  /// The algorithm's extra trace columns (a static table; fixed for the run).
  [[nodiscard]] virtual std::span<const TraceColumn> trace_columns() const { return {}; }
  /// Named values the algorithm reports once, at the end of the run (summary.json
  /// flows[].algorithm_values; a static table, may be empty).
  [[nodiscard]] virtual std::span<const TraceColumn> summary_values() const { return {}; }

 protected:
  /// The timeout response of an algorithm whose RTO ssthresh is its own loss response
  /// (Linux calls the same ssthresh hook on an RTO): on_loss's ssthresh, cwnd = 1.
  /// on_loss runs, with its side effects.
  [[nodiscard]] LossResponse timeout_from_loss(const FlowView& flow, const Window& w);

  /// The sender's services; null when driven without a sender (unit tests).
  SenderControl* control_ = nullptr;
};

}  // namespace fastsim::cc
