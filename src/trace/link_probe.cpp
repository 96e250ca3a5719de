// Per-period link figures and the per-link trace (see link_probe.hpp).
#include "fastsim/trace/link_probe.hpp"
#include "fastsim/trace/sample_time.hpp"

#include <fmt/format.h>

#include "fastsim/net/aqm_queue.hpp"

namespace fastsim::trace {

LinkProbe::LinkProbe(net::Link& link) : link_(link) {}

void LinkProbe::open(const std::string& out_dir, const TraceFileOptions& options) {
  file_ = &create_file(fmt::format("{}/links/{}.csv", out_dir, link_.config().id), options);
  // An AQM link adds its discipline's drops, mean sojourn of the period and PIE's probability;
  // a link that can mark adds ce_marks (extra columns only there: other traces keep their format).
  marks_ = link_.config().marks_ecn();
  file_->print("time_s,queue_pkts,queue_bytes,drops,utilization,mean_queue_pkts");
  if (link_.aqm() != nullptr)
    file_->print(",aqm_drops,sojourn_s,drop_prob");
  if (marks_)
    file_->print(",ce_marks");
  file_->print("\n");
}

void LinkProbe::sample(Time now, Duration tau) {
  const auto& c = link_.counters();
  const double util = (c.busy - last_busy_).to_seconds() / tau.to_seconds();
  const double queue = (c.queue_area - last_area_) / tau.to_seconds();
  last_busy_ = c.busy;
  last_area_ = c.queue_area;
  samples_.utilization.push_back(util);
  samples_.mean_queue_pkts.push_back(queue);
  samples_.max_queue_pkts.push_back(static_cast<double>(link_.take_period_max_queue()));
  const uint64_t lost = c.drops + c.random_losses;
  samples_.drops.push_back(static_cast<double>(lost - last_drops_));
  last_drops_ = lost;
  if (file_) {
    file_->print("{},{},{},{},{:.6g},{:.6g}", SampleTime{now, tau}, link_.queue_packets(), link_.queue_bytes(), lost,
                 util, queue);
    if (const net::AqmQueue* q = link_.aqm()) {
      const auto& st = q->stats();
      const uint64_t n = st.dequeued - last_dequeued_;
      const double sojourn = n == 0 ? 0.0 : (st.sojourn_sum_s - last_sojourn_s_) / static_cast<double>(n);
      last_dequeued_ = st.dequeued;
      last_sojourn_s_ = st.sojourn_sum_s;
      file_->print(",{},{:.6g},{:.6g}", st.aqm_drops, sojourn, st.drop_prob);
    }
    if (marks_)  // an extra column only where the link can mark, so other traces keep their format
      file_->print(",{}", c.ce_marks);
    file_->print("\n");
  }
}

}  // namespace fastsim::trace
