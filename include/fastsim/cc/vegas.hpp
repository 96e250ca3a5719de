// TCP Vegas (Brakmo & Peterson 1995; Linux tcp_vegas; docs/algorithms.md "vegas").
// Once per round, diff = w (RTT - baseRTT) / RTT estimates the packets this flow keeps
// queued; below alpha the window grows by one packet, above beta it shrinks by one.
// Choices:
// - RTT is, by parameter rtt_statistic: round_min (default) the smallest sample of the
//   round that just ended (Linux tcp_vegas; a round with fewer than 3 samples makes no
//   decision); round_mean the mean of the round's samples as ns-2's tcp-vegas.cc takes it
//   (the samples of the ACKs from the one that ended the previous round up to, not
//   including, the one that ends this round; any round with a sample decides); srtt the
//   RFC 6298 smoothed RTT (>= 3 samples in the round, as round_min). baseRTT is the
//   smallest sample ever (Linux also resets it when it starts sending with nothing in
//   flight, tcp_vegas_init on CA_EVENT_TX_START / CWND_RESTART; fastsim never does).
// - diff's arithmetic is, by parameter diff_arithmetic: exact (the real number w (RTT -
//   baseRTT) / RTT of the Arizona papers); linux as tcp_vegas.c computes it, in integers:
//   floor(cwnd (RTT - baseRTT) / baseRTT) with cwnd in whole packets (divided by baseRTT,
//   not RTT, and truncated, so a flow holds up to beta + 1 packets before it shrinks);
//   ns2 as tcp-vegas.cc rounds it, int(diff + 0.5) (its pseudo-code's "diff == (alpha +
//   beta) / 2" branch shows Quick Vegas compares integers too). ns-2 computes diff from
//   the packets outstanding and those sent in the last round; fastsim from the window.
// - Slow start doubles the window every other round (growth rounds alternate with
//   rounds that only measure) and ends when diff > gamma, cutting the window by 1/8
//   (the seed paper; Linux instead sets w = min(w, target + 1)); ssthresh = w then.
// - Loss: as Reno (ssthresh = w/2, recovery with cwnd = ssthresh); the original 3/4 cut
//   for a first loss is not implemented. Timeout: as Reno. No decisions outside Open.
// - The +1/-1 is applied at the round boundary (Linux); the window never drops below 2,
//   and a decrease lowers ssthresh with it so the flow does not fall back into slow start.
#pragma once

#include "fastsim/cc/congestion_control.hpp"
#include "fastsim/cc/params.hpp"

namespace fastsim::cc {

/// Vegas's "extra data": packets queued by a flow with window `w` whose RTT is `rtt`.
double vegas_backlog(double w, Duration base_rtt, Duration rtt);

/// Which RTT of a round the Vegas family compares with baseRTT (parameter rtt_statistic).
enum class RttStatistic : uint8_t { kRoundMin, kRoundMean, kSrtt };
/// The rtt_statistic parameter shared by Vegas and Quick Vegas.
ParamSpec rtt_statistic_param();
/// The parsed value of rtt_statistic_param().
RttStatistic rtt_statistic_from(const ParamValues& p);

/// How diff is computed and rounded (parameter diff_arithmetic).
enum class DiffArithmetic : uint8_t { kExact, kLinux, kNs2 };
/// The diff_arithmetic parameter shared by Vegas and Quick Vegas.
ParamSpec diff_arithmetic_param();
/// The parsed value of diff_arithmetic_param().
DiffArithmetic diff_arithmetic_from(const ParamValues& p);
/// diff as `arithmetic` computes it for window `w`.
double vegas_diff(DiffArithmetic arithmetic, double w, Duration base_rtt, Duration rtt);

/// What the shared part of a Vegas-family ACK leaves to the algorithm.
struct VegasAck {
  bool avoidance = false;         ///< congestion avoidance: the algorithm's own rule applies
  std::optional<double> backlog;  ///< this ACK ended a round that allows a decision
};

/// The part Vegas and Quick Vegas share: nothing outside Open; at a round boundary the
/// round's backlog estimate (>= 3 samples and a baseRTT); below ssthresh the Vegas slow
/// start (doubling every other round, left when the backlog exceeds gamma with w cut by
/// 1/8 and ssthresh = w).
class VegasCore {
 public:
  VegasCore(double gamma, RttStatistic statistic, DiffArithmetic arithmetic = DiffArithmetic::kExact)
      : gamma_(gamma), statistic_(statistic), arithmetic_(arithmetic) {}
  VegasAck on_ack(const FlowView& flow, Window& w, const AckEvent& ack);
  /// The latest backlog estimate (packets).
  [[nodiscard]] double diff() const { return diff_; }

 private:
  /// The RTT the round that ends with this ACK is judged by; none: no decision.
  std::optional<Duration> round_rtt(const FlowView& flow, const AckEvent& ack);

  double gamma_;
  RttStatistic statistic_;
  DiffArithmetic arithmetic_;
  bool grow_round_ = true;
  double diff_ = 0;
  // round_mean (ns-2 order): samples of the current round so far, and when it began.
  int64_t round_sum_ps_ = 0;
  uint32_t round_samples_ = 0;
  Time round_begin_ = Time::zero();
};

class Vegas final : public CongestionControl {
 public:
  static std::vector<ParamSpec> param_specs();
  /// alpha <= beta.
  static std::vector<std::pair<std::string, std::string>> check(const ParamValues& p);
  explicit Vegas(const ParamValues& p);

  void on_ack(const FlowView& flow, Window& w, const AckEvent& ack) override;
  [[nodiscard]] LossResponse on_loss(const FlowView& flow, const Window& w) override;
  [[nodiscard]] std::span<const TraceColumn> trace_columns() const override;
  [[nodiscard]] double diff() const { return core_.diff(); }

 private:
  double alpha_, beta_;
  VegasCore core_;
};

}  // namespace fastsim::cc
