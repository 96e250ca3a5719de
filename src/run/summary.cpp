// summary.json (docs/outputs.md): scenario echo, run facts, per-flow, per-UDP-source,
// per-link, per-interval and per-arrival-process results, and every completed flow of
// the arrival processes. One to_json per result kind; null where a metric is undefined
// (e.g. an interval without a full sample period). Links appear only when monitored.
#include <nlohmann/json.hpp>

#include "fastsim/run/prediction_report.hpp"
#include "fastsim/run/results.hpp"

namespace fastsim::run {

using nlohmann::json;

namespace {
template <class T>
json opt(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}
}  // namespace

void to_json(json& j, const FlowResult& f) {
  j = {{"id", f.id},
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
       {"mean_cwnd_pkts", f.mean_cwnd_pkts}};
  if (!f.algorithm_values.empty()) {  // only algorithms that report any (other summaries unchanged)
    json values = json::object();
    for (const auto& [name, value] : f.algorithm_values)
      values[name] = value;
    j["algorithm_values"] = values;
  }
}

void to_json(json& j, const UdpResult& u) {
  j = {{"id", u.id},
       {"type", u.type},
       {"rate_bps", u.rate_bps},
       {"start_s", u.start_s},
       {"stop_s", u.stop_s},
       {"packets_sent", u.packets_sent},
       {"packets_delivered", u.packets_delivered},
       {"drops", u.drops}};
}

void to_json(json& j, const LinkResult& l) {
  j = {{"id", l.id},
       {"rate_bps", l.rate_bps},
       {"utilization", l.utilization},
       {"mean_queue_pkts", l.mean_queue_pkts},
       {"max_queue_pkts", l.max_queue_pkts},
       {"arrivals", l.arrivals},
       {"drops", l.drops},
       {"early_drops", l.early_drops},
       {"random_losses", l.random_losses},
       {"departures", l.departures}};
  if (l.aqm) {
    j["aqm"] = {{"discipline", l.aqm->discipline},         {"aqm_drops", l.aqm->aqm_drops},
                {"overflow_drops", l.aqm->overflow_drops}, {"mean_sojourn_s", l.aqm->mean_sojourn_s},
                {"max_sojourn_s", l.aqm->max_sojourn_s},   {"drop_prob", l.aqm->drop_prob}};
  }
  if (l.ce_marks)  // only links that can mark report it (other summaries keep their keys)
    j["ce_marks"] = *l.ce_marks;
}

void to_json(json& j, const IntervalResult& i) {
  json convergence = json::array();
  for (const auto& c : i.flow_convergence_s)
    convergence.push_back(opt(c));
  json window_convergence = json::array();
  for (const auto& c : i.flow_window_convergence_s)
    window_convergence.push_back(opt(c));
  j = {{"start_s", i.start_s},
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
       {"convergence_base_rtts", opt(i.convergence_base_rtts)},
       {"flow_window_convergence_s", window_convergence},
       {"window_convergence_s", opt(i.window_convergence_s)},
       {"queue_convergence_s", opt(i.queue_convergence_s)}};
}

void to_json(json& j, const ArrivalResult& a) {
  j = {{"id", a.id},
       {"flows_per_s", a.flows_per_s},
       {"started", a.started},
       {"completed", a.completed},
       {"active_at_end", a.active_at_end},
       {"mean_fct_s", opt(a.mean_fct_s)},
       {"mean_slowdown", opt(a.mean_slowdown)}};
}

json summary_json(const config::Scenario& scenario, const RunResult& r, std::string_view version) {
  json s;
  s["fastsim_version"] = version;
  s["scenario"] = scenario.resolved;
  s["seed"] = scenario.seed;
  s["sim_time_s"] = r.sim_time_s;
  s["wall_time_s"] = r.wall_time_s;
  s["events"] = r.events;
  s["data_packets_delivered"] = r.data_packets_delivered;
  s["peak_rss_mb"] = r.peak_rss_mb;
  s["events_per_data_packet"] =
      r.data_packets_delivered ? static_cast<double>(r.events) / static_cast<double>(r.data_packets_delivered) : 0.0;
  s["bottleneck"] = scenario.bottleneck;
  s["flows"] = r.flows;
  s["udp"] = r.udp;
  s["links"] = json::array();
  for (const auto& l : r.links) {
    if (l.monitored)
      s["links"].push_back(l);
  }
  s["intervals"] = r.intervals;
  if (r.intervals_omitted.count > 0) {  // only then: the summaries of existing runs are unchanged
    s["intervals_omitted"] = {{"count", r.intervals_omitted.count},
                              {"from_s", r.intervals_omitted.from},
                              {"flow_entries", r.intervals_omitted.flow_entries},
                              {"limit", scenario.limits.interval_flow_entries}};
  }
  s["arrivals"] = r.arrivals;
  if (r.prediction)  // only with run --predict: other summaries are unchanged
    s["prediction"] = prediction_json(scenario, r, *r.prediction);
  s["completed_flows"] = json::array();
  for (const ArrivalResult& a : r.arrivals) {
    for (const traffic::CompletedFlow& c : a.completed_flows) {
      s["completed_flows"].push_back({{"id", c.id},
                                      {"arrival", a.id},
                                      {"path", a.path_ids[c.path]},
                                      {"size", c.size_bytes},
                                      {"start", c.start_s},
                                      {"fct", c.fct_s},
                                      {"fair_fct", c.fair_fct_s}});
    }
  }
  return s;
}

}  // namespace fastsim::run
