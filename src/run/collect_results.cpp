// Results from counters and probe samples (see collect_results.hpp).
#include "fastsim/run/collect_results.hpp"

#include "fastsim/net/aqm_queue.hpp"

#include "fastsim/run/interval_results.hpp"

namespace fastsim::run {

FlowResult flow_result(const FlowRuntime& f, trace::FlowProbe& probe, double run_end_s) {
  FlowResult fr;
  fr.id = f.spec->id;
  fr.algorithm = f.spec->algorithm;
  fr.start_s = f.spec->start.to_seconds();
  fr.end_s = f.activity.ended ? f.activity.ended->to_seconds() : run_end_s;
  if (f.sender->complete())
    fr.completion_s = f.sender->completion_time().to_seconds();
  fr.bytes_delivered = trace::bytes_delivered(*f.receiver, f.spec->tcp.mss, f.spec->size_bytes);
  // Goodput counts what arrived while the flow was active: data in flight at a stop
  // arrives later and is in bytes_delivered only.
  const uint64_t active_bytes =
      f.activity.ended
          ? trace::bytes_delivered(f.activity.segments_delivered_at_end, f.spec->tcp.mss, f.spec->size_bytes)
          : fr.bytes_delivered;
  const double active = fr.end_s - fr.start_s;
  fr.goodput_bps = active > 0 ? static_cast<double>(active_bytes) * 8.0 / active : 0.0;
  const auto& sc = f.sender->counters();
  const auto& rc = f.receiver->counters();
  fr.data_packets_sent = sc.data_sent;
  fr.data_packets_delivered = rc.segments_delivered;
  fr.retransmits = sc.retransmits;
  fr.timeouts = sc.timeouts;
  fr.fast_recoveries = sc.fast_recoveries;
  fr.drops = f.data_counters.queue_drops + f.data_counters.random_losses;
  fr.acks_sent = rc.acks_sent;
  fr.mean_rtt_s = f.sender->rtt().mean_seconds();
  const auto smallest = f.sender->rtt().smallest_sample();
  fr.min_rtt_s = smallest ? smallest->to_seconds() : 0.0;
  const auto& base = f.sender->rtt().view().min_rtt;  // the algorithm may have corrected it
  fr.base_rtt_s = base && smallest ? base->to_seconds() : 0.0;
  const auto wi = f.sender->window_integral();
  fr.mean_cwnd_pkts = wi.seconds > 0 ? wi.cwnd_pkt_seconds / wi.seconds : 0.0;
  trace::FlowProbe::Samples samples = probe.take_samples();
  fr.goodput_samples_bps = std::move(samples.goodput_bps);
  fr.cwnd_samples_pkts = std::move(samples.cwnd_pkts);
  const cc::CongestionControl& algorithm = f.sender->algorithm();
  for (const cc::TraceColumn& v : algorithm.summary_values())
    fr.algorithm_values.emplace_back(v.name, v.value(algorithm));
  return fr;
}

UdpResult udp_result(const UdpRuntime& u, double run_end_s) {
  UdpResult ur;
  ur.id = u.spec->path.id;
  switch (u.spec->type) {
    case config::UdpSpec::Type::kCbr:
      ur.type = "cbr";
      break;
    case config::UdpSpec::Type::kBurst:
      ur.type = "burst";
      break;
    case config::UdpSpec::Type::kParetoOnOff:
      ur.type = "pareto";
      break;
  }
  ur.rate_bps = u.spec->rate.bps > 0 ? u.spec->rate.to_double() : u.route.links.front()->config().rate.to_double();
  ur.start_s = u.spec->start.to_seconds();
  ur.stop_s = u.spec->stop ? u.spec->stop->to_seconds() : run_end_s;
  ur.packets_sent = u.source->sent();
  ur.packets_delivered = u.sink->packets();
  ur.drops = u.counters.queue_drops + u.counters.random_losses;
  return ur;
}

ArrivalResult arrival_result(const traffic::FlowArrivals& a) {
  ArrivalResult ar;
  ar.id = a.spec().id;
  ar.flows_per_s = a.flows_per_s();
  ar.started = a.started();
  ar.completed = a.completed().size();
  ar.active_at_end = a.active();
  if (!a.completed().empty()) {
    double fct = 0, slowdown = 0;
    for (const auto& c : a.completed()) {
      fct += c.fct_s;
      slowdown += c.fct_s / c.fair_fct_s;
    }
    ar.mean_fct_s = fct / static_cast<double>(ar.completed);
    ar.mean_slowdown = slowdown / static_cast<double>(ar.completed);
  }
  ar.completed_flows = a.completed();
  for (const auto& p : a.spec().paths)
    ar.path_ids.push_back(p.id);
  return ar;
}

LinkResult link_result(net::Link& link, const trace::LinkProbe* probe, double run_end_s) {
  const auto& c = link.counters();
  LinkResult lr;
  if (probe != nullptr) {
    lr.monitored = true;
    lr.utilization_samples = probe->samples().utilization;
    lr.queue_samples = probe->samples().mean_queue_pkts;
    lr.max_queue_samples = probe->samples().max_queue_pkts;
    lr.drop_samples = probe->samples().drops;
  }
  lr.id = link.config().id;
  lr.rate_bps = link.config().rate.to_double();
  lr.utilization = run_end_s > 0 ? c.busy.to_seconds() / run_end_s : 0.0;
  lr.mean_queue_pkts = run_end_s > 0 ? c.queue_area / run_end_s : 0.0;
  lr.max_queue_pkts = c.max_queue_pkts;
  lr.arrivals = c.arrivals;
  lr.drops = c.drops;
  lr.early_drops = c.early_drops;
  if (link.config().marks_ecn())
    lr.ce_marks = c.ce_marks;
  lr.random_losses = c.random_losses;
  lr.departures = c.departures;
  if (const net::AqmQueue* q = link.aqm()) {
    static constexpr const char* kNames[] = {"codel", "fq_codel", "pie"};
    const auto& st = q->stats();
    lr.aqm = LinkResult::Aqm{kNames[static_cast<size_t>(link.config().aqm->kind)],
                             st.aqm_drops,
                             st.overflow_drops,
                             st.mean_sojourn_s(),
                             st.max_sojourn.to_seconds(),
                             st.drop_prob};
  }
  return lr;
}

RunResult collect_results(const config::Scenario& scenario, Network& network, const RunProbes& probes,
                          const std::vector<double>& sample_times_s, const RunFacts& facts) {
  RunResult r;
  r.sim_time_s = facts.sim_time_s;
  r.wall_time_s = facts.wall_time_s;
  r.events = facts.events;
  r.sample_times_s = sample_times_s;
  const double end = facts.sim_time_s;
  // Exact sizes: at 10 000 flows (40 000 links) doubling would hold both buffers at the
  // run's peak for a moment, and leave half of the last one unused.
  r.flows.reserve(network.flows().size());
  r.udp.reserve(network.udp().size());
  r.arrivals.reserve(network.arrivals().size());
  r.links.reserve(probes.links.size() + 1);
  for (size_t i = 0; i < network.flows().size(); ++i) {
    const FlowRuntime& f = *network.flows()[i];
    r.flows.push_back(flow_result(f, *probes.flows[i], end));
    r.data_packets_delivered += f.receiver->counters().segments_delivered;
  }
  for (const auto& u : network.udp())
    r.udp.push_back(udp_result(*u, end));
  for (const auto& a : network.arrivals()) {
    r.arrivals.push_back(arrival_result(*a));
    r.data_packets_delivered += a->delivered_packets();
  }
  // The monitored links (summary.json's) and the bottleneck (the intervals'): at 10 000
  // flows the other 40 000 are access links nobody reads (11.2 MB of results).
  for (const auto& link : network.links()) {
    const auto it = probes.links.find(link->id());
    const bool monitored = it != probes.links.end();
    if (monitored || link->id() == scenario.bottleneck)
      r.links.push_back(link_result(*link, monitored ? it->second : nullptr, end));
  }
  r.intervals = interval_results(r, scenario, r.intervals_omitted);
  return r;
}

}  // namespace fastsim::run
