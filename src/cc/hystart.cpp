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
}  // namespace

void Hystart::new_round(Time now) {
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
  if (!ack.rtt_sample || fresh_epoch)
    return;
  const Duration delay = *ack.rtt_sample;
  if (!delay_min_ || delay < *delay_min_)
    delay_min_ = delay;
  if (found_ || w.cwnd_pkts >= w.ssthresh_pkts)
    return;
  if (ack.round_start || !started_)
    new_round(flow.now);
  if (w.cwnd_pkts < kLowWindow)
    return;

  // ACK train: the spacing test, then the train's length against delay_min / 2.
  if (flow.now - last_ack_ <= kAckDelta) {
    last_ack_ = flow.now;
    const Duration threshold = *delay_min_ / 2;
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
  delay_min_.reset();
}

}  // namespace fastsim::cc
