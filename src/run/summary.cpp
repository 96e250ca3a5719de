// summary.json (specs/metrics.md "Outputs" and the contract): scenario echo,
// run facts, per-flow, per-link and per-interval metrics. Null where a metric is
// undefined (e.g. an interval without a full sample period).
#include <nlohmann/json.hpp>

#include "fastsim/run/experiment.hpp"

namespace fastsim::run {

namespace {
template <class T>
nlohmann::json opt(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}
}  // namespace

nlohmann::json Experiment::summary_json() const {
  using nlohmann::json;
  const RunResult& r = result_;
  json s;
  s["fastsim_version"] = version_;
  s["scenario"] = scenario_.resolved;
  s["seed"] = scenario_.seed;
  s["sim_time_s"] = r.sim_time_s;
  s["wall_time_s"] = r.wall_time_s;
  s["events"] = r.events;
  s["data_packets_delivered"] = r.data_packets_delivered;
  s["peak_rss_mb"] = r.peak_rss_mb;
  s["events_per_data_packet"] =
      r.data_packets_delivered ? static_cast<double>(r.events) / static_cast<double>(r.data_packets_delivered) : 0.0;
  s["bottleneck"] = scenario_.bottleneck;
  s["flows"] = json::array();
  for (const auto& f : r.flows) {
    s["flows"].push_back({{"id", f.id},
                          {"algorithm", f.algorithm},
                          {"start_s", f.start_s},
                          {"end_s", f.end_s},
                          {"completion_time_s", f.completion_s ? json(*f.completion_s - f.start_s) : json(nullptr)},
                          {"bytes_delivered", f.bytes_delivered},
                          {"goodput_bps", f.goodput_bps},
                          {"data_packets_sent", f.data_packets_sent},
                          {"data_packets_delivered", f.data_packets_delivered},
                          {"retransmits", f.retransmits},
                          {"timeouts", f.timeouts},
                          {"fast_recoveries", f.fast_recoveries},
                          {"drops", f.drops},
                          {"acks_sent", f.acks_sent},
                          {"mean_rtt_s", f.mean_rtt_s},
                          {"min_rtt_s", f.min_rtt_s},
                          {"base_rtt_s", f.min_rtt_s},
                          {"mean_cwnd_pkts", f.mean_cwnd_pkts}});
  }
  s["udp"] = json::array();
  for (const auto& u : r.udp) {
    s["udp"].push_back({{"id", u.id},
                        {"type", u.type},
                        {"rate_bps", u.rate_bps},
                        {"start_s", u.start_s},
                        {"stop_s", u.stop_s},
                        {"packets_sent", u.packets_sent},
                        {"packets_delivered", u.packets_delivered},
                        {"drops", u.drops}});
  }
  s["links"] = json::array();
  for (const auto& l : r.links) {
    if (!l.monitored)
      continue;
    s["links"].push_back({{"id", l.id},
                          {"rate_bps", l.rate_bps},
                          {"utilization", l.utilization},
                          {"mean_queue_pkts", l.mean_queue_pkts},
                          {"max_queue_pkts", l.max_queue_pkts},
                          {"arrivals", l.arrivals},
                          {"drops", l.drops},
                          {"early_drops", l.early_drops},
                          {"random_losses", l.random_losses},
                          {"departures", l.departures}});
  }
  s["intervals"] = json::array();
  for (const auto& i : r.intervals) {
    json convergence = json::array();
    for (const auto& c : i.flow_convergence_s)
      convergence.push_back(opt(c));
    s["intervals"].push_back({{"start_s", i.start_s},
                              {"end_s", i.end_s},
                              {"flows", i.flows},
                              {"periods", i.periods},
                              {"throughput_bps", opt(i.throughput_bps)},
                              {"flow_throughput_bps", i.flow_throughput_bps},
                              {"utilization", opt(i.utilization)},
                              {"jain", opt(i.jain)},
                              {"stability", opt(i.stability)},
                              {"responsiveness_periods", opt(i.responsiveness_periods)},
                              {"responsiveness_s", opt(i.responsiveness_s)},
                              {"mean_queue_pkts", opt(i.mean_queue_pkts)},
                              {"max_queue_pkts", opt(i.max_queue_pkts)},
                              {"newest_flow", opt(i.newest_flow)},
                              {"fairness_ratio", opt(i.fairness_ratio)},
                              {"flow_convergence_s", convergence},
                              {"convergence_s", opt(i.convergence_s)},
                              {"convergence_base_rtts", opt(i.convergence_base_rtts)}});
  }
  s["arrivals"] = json::array();
  s["completed_flows"] = json::array();
  for (size_t i = 0; i < r.arrivals.size(); ++i) {
    const ArrivalResult& a = r.arrivals[i];
    s["arrivals"].push_back({{"id", a.id},
                             {"flows_per_s", a.flows_per_s},
                             {"started", a.started},
                             {"completed", a.completed},
                             {"active_at_end", a.active_at_end},
                             {"mean_fct_s", opt(a.mean_fct_s)},
                             {"mean_slowdown", opt(a.mean_slowdown)}});
    for (const CompletedFlow& c : arrivals_[i]->completed()) {
      s["completed_flows"].push_back({{"id", c.id},
                                      {"arrival", a.id},
                                      {"path", arrivals_[i]->spec().paths[c.path].id},
                                      {"size", c.size_bytes},
                                      {"start", c.start_s},
                                      {"fct", c.fct_s},
                                      {"fair_fct", c.fair_fct_s}});
    }
  }
  return s;
}

}  // namespace fastsim::run
