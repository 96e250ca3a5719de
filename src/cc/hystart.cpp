// Linux CUBIC's HyStart (see hystart.hpp).
#include "fastsim/cc/hystart.hpp"

#include <algorithm>

namespace fastsim::cc {

namespace {
// net/ipv4/tcp_cubic.c (Linux 5.7 - 6.x)
constexpr double kLowWindow = 16;                             // hystart_low_window
constexpr Duration kAckDelta = Duration::microseconds(2000);  // hystart_ack_delta_us
constexpr uint32_t kMinSamples = 8;                           // HYSTART_MIN_SAMPLES
constexpr Duration kDelayMin = Duration::milliseconds(4);     // HYSTART_DELAY_MIN
constexpr Duration kDelayMax = Duration::milliseconds(16);    // HYSTART_DELAY_MAX
constexpr Duration kAckDelayCap = Duration::milliseconds(1);  // hystart_ack_delay: USEC_PER_MSEC
constexpr double kGsoBytes = 65536;                           // GSO_MAX_SIZE, Linux's default gso_max_size
constexpr double kSlowStartPacingRatio = 2.0;                 // tcp_pacing_ss_ratio = 200 %

/// Linux's hystart_ack_delay: min(1 ms, 4 gso_max_size / sk_pacing_rate), the cushion for
/// ACKs that GRO/TSO batch. TCP keeps sk_pacing_rate (tcp_update_pacing_rate) whether or
/// not anything paces: in slow start 2 x mss x max(cwnd, in flight) / srtt. No srtt yet: 0.
Duration ack_delay(const FlowView& flow, const Window& w) {
  if (!flow.rtt->srtt || *flow.rtt->srtt <= Duration::zero())
    return Duration::zero();
  const double rate_bytes_per_s = kSlowStartPacingRatio * static_cast<double>(flow.mss) *
                                  std::max(w.cwnd_pkts, flow.in_flight_pkts) / flow.rtt->srtt->to_seconds();
  if (rate_bytes_per_s <= 0)
    return Duration::zero();
  const double seconds = 4 * kGsoBytes / rate_bytes_per_s;
  return seconds >= kAckDelayCap.to_seconds() ? kAckDelayCap : Duration::seconds(seconds);
}
}  // namespace

void Hystart::new_round(Time now) {
  round_pending_ = false;
  round_start_ = last_ack_ = now;
  curr_rtt_.reset();
  sample_cnt_ = 0;
  started_ = true;
}

void Hystart::detect(Window& w) {
  found_ = true;
  w.ssthresh_pkts = w.cwnd_pkts;
  exit_window_ = w.cwnd_pkts;
}

void Hystart::on_ack(const FlowView& flow, Window& w, const AckEvent& ack, bool fresh_epoch) {
  if (!ack.rtt_sample || fresh_epoch) {
    // Linux starts a round on the first ACK with a sample past the round's end
    // (after(snd_una, end_seq) stays true): a boundary ACK without one is not lost.
    round_pending_ = round_pending_ || ack.round_start;
    return;
  }
  const Duration delay = *ack.rtt_sample;
  if (!delay_min_ || delay < *delay_min_)
    delay_min_ = delay;
  if (found_ || w.cwnd_pkts >= w.ssthresh_pkts)
    return;
  if (ack.round_start || round_pending_ || !started_)
    new_round(flow.now);
  if (w.cwnd_pkts < kLowWindow)
    return;

  // ACK train: the spacing test, then the train's length against (delay_min + the ACK
  // delay cushion) / 2, or the whole of it when the sender paces (Linux: sk_pacing_status).
  if (flow.now - last_ack_ <= kAckDelta) {
    last_ack_ = flow.now;
    Duration threshold = *delay_min_ + ack_delay(flow, w);
    if (!flow.paced)
      threshold = threshold / 2;
    if (flow.now - round_start_ > threshold) {
      detect(w);
      return;
    }
  }
  // Delay increase over the round's first samples.
  curr_rtt_ = curr_rtt_ ? std::min(*curr_rtt_, delay) : delay;
  if (sample_cnt_ < kMinSamples) {
    ++sample_cnt_;
    return;
  }
  const Duration eighth = *delay_min_ / 8;
  if (*curr_rtt_ > *delay_min_ + std::clamp(eighth, kDelayMin, kDelayMax))
    detect(w);
}

void Hystart::reset() {
  found_ = false;
  started_ = false;
  round_pending_ = false;
  delay_min_.reset();
}

}  // namespace fastsim::cc
