// Delay-triggered AIMD, the worked example of docs/extending.md (built by the tests with
// its registry row, tests/extending/; not in fastsim's own table).
// - Slow start and congestion avoidance as Reno: w += increase per RTT (helpers of reno.hpp).
// - Loss: w = (1 - decrease) w, as Reno; timeout: the base class default.
// - Delay: when a round ends whose smallest RTT sample exceeds baseRTT by more than
//   delay_threshold, w = (1 - delay_decrease) w and ssthresh = w (slow start ends); not
//   in the round right after such a cut, whose samples still see the old queue.
#pragma once

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "fastsim/cc/congestion_control.hpp"
#include "fastsim/cc/params.hpp"

namespace fastsim::cc {

class DelayAimd final : public CongestionControl {
 public:
  static std::vector<ParamSpec> param_specs();
  /// Constraints between parameters: a delay cut removes at most what a loss does.
  static std::vector<std::pair<std::string, std::string>> check(const ParamValues& p);
  explicit DelayAimd(const ParamValues& p);
  void on_ack(const FlowView& flow, Window& w, const AckEvent& ack) override;
  [[nodiscard]] LossResponse on_loss(const FlowView& flow, const Window& w) override;
  [[nodiscard]] std::span<const TraceColumn> trace_columns() const override;
  [[nodiscard]] std::span<const TraceColumn> summary_values() const override;

 private:
  double increase_;
  double decrease_;
  double delay_threshold_s_;
  double delay_decrease_;
  double queueing_delay_s_ = 0;  ///< the last round's smallest RTT minus baseRTT
  double delay_cuts_ = 0;        ///< delay cuts so far (a double: TraceColumn reads doubles)
  uint64_t last_cut_round_ = 0;
};

}  // namespace fastsim::cc
