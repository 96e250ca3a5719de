// Per-period trace of an arrival process (see arrival_probe.hpp).
#include "fastsim/trace/arrival_probe.hpp"
#include "fastsim/trace/sample_time.hpp"

#include <fmt/format.h>

namespace fastsim::trace {

ArrivalProbe::ArrivalProbe(traffic::FlowArrivals& arrivals) : arrivals_(arrivals) {}

void ArrivalProbe::open(const std::string& out_dir, const TraceFileOptions& options) {
  const std::string& id = arrivals_.spec().id;
  file_ = &create_file(fmt::format("{}/arrivals/{}.csv", out_dir, id), options);
  file_->print("time_s,active,started,completed,mean_fct_s,mean_slowdown\n");
  if (arrivals_.spec().traces) {
    flows_file_ = &create_file(fmt::format("{}/arrivals/{}-flows.csv", out_dir, id), options);
    flows_file_->print("time_s,flow,cwnd_pkts,srtt_s,bytes_acked,retransmits\n");
  }
}

void ArrivalProbe::sample(Time now, Duration tau) {
  const traffic::ArrivalPeriod p = arrivals_.take_period();
  if (!file_)
    return;
  const SampleTime t{now, tau};
  const double n = static_cast<double>(p.completed);
  file_->print("{},{},{},{},", t, arrivals_.active(), p.started, p.completed);
  if (p.completed > 0) {
    file_->print("{:.9g},{:.6g}\n", p.fct_sum_s / n, p.slowdown_sum / n);
  } else {
    file_->print(",\n");
  }
  if (flows_file_) {
    active_.clear();
    arrivals_.active_flows(active_);
    const uint64_t mss = arrivals_.spec().paths.front().tcp.mss;
    for (const auto& f : active_) {
      flows_file_->print("{},{},{:.6g},{:.9f},{},{}\n", t, *f.id, f.cwnd_pkts, f.srtt_s, f.segments_acked * mss,
                         f.retransmits);
    }
  }
}

}  // namespace fastsim::trace
