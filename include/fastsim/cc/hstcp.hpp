// HighSpeed TCP (RFC 3649; docs/algorithms.md "hstcp").
// Choices where the sources are open:
// - a(w) and b(w) come from the RFC's formulas, not Linux's 73-row table:
//   p(w) = low_p * (w / low_window)^S with S = ln(high_p/low_p) / ln(high_window/low_window)
//   and low_p = 1e-3 (RFC 3649 section 5; with the defaults this is 0.078 / w^1.2),
//   b(w) = (high_decrease - 0.5) * ln(w/low_window) / ln(high_window/low_window) + 0.5,
//   a(w) = w^2 p(w) 2 b(w) / (2 - b(w)).
// - a(w) is floored at 1 packet per RTT (the formula gives 0.955 just above
//   low_window; Linux's table starts at 1), so HSTCP never grows slower than Reno.
// - Above high_window, a and b keep following the formulas (the RFC leaves it open).
// - a(w), b(w) are re-evaluated when the integer part of w changes (Linux's table
//   lookup is per packet of window too), not on every ACK.
// - At or below low_window the algorithm is Reno: +1 per RTT, halve on loss.
// - Slow start: standard (ABC, L = 2); RFC 3742 limited slow start is not applied.
// - Timeout: ssthresh = (1 - b(w)) w as for a loss (Linux calls the same ssthresh hook).
#pragma once

#include "fastsim/cc/congestion_control.hpp"
#include "fastsim/cc/params.hpp"

namespace fastsim::cc {

class HighSpeed final : public CongestionControl {
 public:
  static std::vector<ParamSpec> param_specs();
  static std::vector<std::pair<std::string, std::string>> check(const ParamValues& p);
  explicit HighSpeed(const ParamValues& p);

  /// Increase per RTT at window w (packets).
  [[nodiscard]] double increase(double w) const;
  /// Fraction of the window removed at a loss at window w.
  [[nodiscard]] double decrease(double w) const;

  void on_ack(const FlowView& flow, Window& w, const AckEvent& ack) override;
  [[nodiscard]] LossResponse on_loss(const FlowView& flow, const Window& w) override;
  [[nodiscard]] LossResponse on_timeout(const FlowView& flow, const Window& w) override;
  [[nodiscard]] std::span<const TraceColumn> trace_columns() const override;

 private:
  void refresh(double w);

  double low_window_;
  double high_window_;
  double high_p_;
  double high_decrease_;
  double slope_;          // S, the log-log slope of p(w)
  double cached_w_ = -1;  // integer window a_/b_ were computed for
  double a_ = 1;
  double b_ = 0.5;
};

}  // namespace fastsim::cc
