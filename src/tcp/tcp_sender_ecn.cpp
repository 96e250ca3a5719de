// The TCP sender's reaction to ECN-Echo (see tcp_sender.hpp and tcp/ecn.hpp): one window
// reduction per window of data through the algorithm's on_ecn, then CWR on new data.
#include <algorithm>

#include "fastsim/tcp/tcp_sender.hpp"

namespace fastsim::tcp {

void TcpSender::on_ecn_echo() {
  if (!ecn_.reduce_on_ece(state_ == cc::CaState::kOpen, snd_una_, snd_nxt_))
    return;
  ++counters_.ecn_reductions;
  const cc::LossResponse r = cc_->on_ecn(view(), w_);
  w_.ssthresh_pkts = r.ssthresh_pkts;
  w_.cwnd_pkts = std::max(std::min(w_.cwnd_pkts, r.cwnd_pkts), 1.0);
}

}  // namespace fastsim::tcp
