// TcpSender's delivery-rate sampling hooks (rate_sampler.hpp) and the `pacing` switch
// (Linux fq pacing at TCP's own rate); see tcp_sender.hpp for the model.
#include <algorithm>

#include "fastsim/tcp/tcp_sender.hpp"

namespace fastsim::tcp {

namespace {
// Linux net.ipv4.tcp_pacing_ss_ratio = 200 and tcp_pacing_ca_ratio = 120 (percent).
constexpr double kPacingSlowStartRatio = 2.0;
constexpr double kPacingAvoidanceRatio = 1.2;
}  // namespace

void TcpSender::apply_pacing_rate(double pkts_per_s) {
  pacing_rate_ = pkts_per_s > 0 ? pkts_per_s : 0;
  if (pacing_rate_ > 0) {
    if (!pacer_)  // an algorithm that did not say wants_pacing()
      pacer_ = std::make_unique<Pacer>(this);
    pacer_->gap = Duration::seconds(1.0 / pacing_rate_);
  }
}

void TcpSender::update_pacing() {
  if (cc_paces_)
    return;
  const std::optional<Duration> srtt = rtt_.view().srtt;
  if (!srtt || *srtt <= Duration::zero())
    return;
  // Linux tcp_update_pacing_rate: "if snd_cwnd >= snd_ssthresh / 2 we are approaching the
  // end of slow start and should slow down".
  const double ratio = w_.cwnd_pkts < w_.ssthresh_pkts / 2 ? kPacingSlowStartRatio : kPacingAvoidanceRatio;
  const double window = std::max(w_.cwnd_pkts, static_cast<double>(snd_nxt_ - snd_una_));
  apply_pacing_rate(ratio * window / srtt->to_seconds());
}

void TcpSender::mark_app_limited() {
  if (rate_)
    rate_->mark_app_limited(static_cast<uint64_t>(std::max(pipe(), 0.0)));
}

void TcpSender::rate_on_cumulative_ack(uint64_t ack) {
  for (uint64_t s = snd_una_; s < ack; ++s) {
    if ((seg(s) & kSacked) == 0)
      rate_->on_delivered(s);
  }
}

void TcpSender::rate_on_sack_only_ack() {
  cc::AckEvent ev;
  ev.rate = &rate_->generate(sim_.now(), rtt_.view().min_rtt);
  ev.in_recovery = state_ == cc::CaState::kRecovery;
  account_window();
  cc_->on_delivery(view(), w_, ev);
  w_.cwnd_pkts = std::max(w_.cwnd_pkts, 1.0);
}

void TcpSender::rate_note_no_data() {
  // Linux tcp_rate_check_app_limited: the application has nothing to send, the window
  // has room and no lost packet waits for retransmission (try_send found none).
  const bool app_out_of_data = stopped_ || paused_ || (total_ != 0 && snd_nxt_ >= total_);
  if (app_out_of_data && pipe() < w_.cwnd_pkts)
    mark_app_limited();
}

}  // namespace fastsim::tcp
