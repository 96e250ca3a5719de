// Goodput and window samples and the per-flow trace (see flow_probe.hpp).
#include "fastsim/trace/flow_probe.hpp"
#include "fastsim/trace/sample_time.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace fastsim::trace {

namespace {
const char* state_name(cc::CaState s) {
  switch (s) {
    case cc::CaState::kOpen:
      return "open";
    case cc::CaState::kRecovery:
      return "recovery";
    case cc::CaState::kLoss:
      return "loss";
  }
  return "?";
}
}  // namespace

uint64_t bytes_delivered(uint64_t segments, uint32_t mss, std::optional<uint64_t> size_bytes) {
  const uint64_t b = segments * mss;
  return size_bytes ? std::min(b, *size_bytes) : b;
}

uint64_t bytes_delivered(const tcp::TcpReceiver& receiver, uint32_t mss, std::optional<uint64_t> size_bytes) {
  return bytes_delivered(receiver.counters().segments_delivered, mss, size_bytes);
}

FlowProbe::FlowProbe(std::string id, const tcp::TcpSender& sender, const tcp::TcpReceiver& receiver, uint32_t mss,
                     std::optional<uint64_t> size_bytes, const FlowActivity& activity)
    : id_(std::move(id)),
      sender_(sender),
      receiver_(receiver),
      mss_(mss),
      size_bytes_(size_bytes),
      activity_(activity) {}

void FlowProbe::open(const std::string& out_dir, const TraceFileOptions& options) {
  file_ = &create_file(fmt::format("{}/flows/{}.csv", out_dir, id_), options);
  file_->print("time_s,cwnd_pkts,ssthresh_pkts,srtt_s,base_rtt_s,goodput_bps,qdelay_s,bytes_acked,retransmits,state");
  for (const cc::TraceColumn& c : sender_.algorithm().trace_columns())
    file_->print(",{}", c.name);
  file_->print("\n");
}

void FlowProbe::sample(Time now, Duration tau) {
  const uint64_t bytes = bytes_delivered(receiver_, mss_, size_bytes_);
  const double goodput = static_cast<double>(bytes - delivered_at_last_sample_) * 8.0 / tau.to_seconds();
  delivered_at_last_sample_ = bytes;
  goodput_samples_bps_.push_back(goodput);
  const tcp::WindowIntegral wi = sender_.window_integral();
  const double active_s = wi.seconds - window_at_last_sample_.seconds;
  cwnd_samples_pkts_.push_back(active_s > 0 ? (wi.cwnd_pkt_seconds - window_at_last_sample_.cwnd_pkt_seconds) / active_s
                                            : 0.0);
  window_at_last_sample_ = wi;
  // a row per period that overlaps the flow's activity: (start, end + tau]
  if (file_ && activity_.start < now && (!activity_.ended || *activity_.ended > now - tau))
    write_row(now, tau, goodput);
}

void FlowProbe::write_row(Time now, Duration tau, double goodput_bps) {
  const auto& w = sender_.window();
  const auto& rtt = sender_.rtt().view();
  const double srtt = rtt.srtt ? rtt.srtt->to_seconds() : 0.0;
  const double base = rtt.min_rtt ? rtt.min_rtt->to_seconds() : 0.0;
  AtomicFile& out = *file_;
  out.print("{},{:.6g},", SampleTime{now, tau}, w.cwnd_pkts);
  if (cc::is_infinite_ssthresh(w.ssthresh_pkts)) {
    out.print("inf,");
  } else {
    out.print("{:.6g},", w.ssthresh_pkts);
  }
  out.print("{:.9f},{:.9f},{:.6g},{:.9f},{},{},{}", srtt, base, goodput_bps, srtt > 0 ? srtt - base : 0.0,
            sender_.counters().segments_acked * mss_, sender_.counters().retransmits,
            activity_.ended ? "done" : state_name(sender_.state()));
  const cc::CongestionControl& algorithm = sender_.algorithm();
  for (const cc::TraceColumn& c : algorithm.trace_columns())
    out.print(",{:.6g}", c.value(algorithm));
  out.print("\n");
}

}  // namespace fastsim::trace
