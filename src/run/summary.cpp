// summary.json (docs/outputs.md): scenario echo, run facts, per-flow, per-UDP-source,
// per-link, per-interval and per-arrival-process results, and every completed flow of
// the arrival processes. One to_json per result kind; null where a metric is undefined
// (e.g. an interval without a full sample period). Links appear only when monitored.
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "fastsim/run/prediction_report.hpp"
#include "fastsim/run/results.hpp"
#include "fastsim/run/summary_writer.hpp"

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
       // No RTT sample (the first ACK never came): null, not a zero RTT that would pull means down.
       {"mean_rtt_s", f.min_rtt_s > 0 ? json(f.mean_rtt_s) : json(nullptr)},
       {"min_rtt_s", f.min_rtt_s > 0 ? json(f.min_rtt_s) : json(nullptr)},
       {"base_rtt_s", f.base_rtt_s > 0 ? json(f.base_rtt_s) : json(nullptr)},
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
       {"drops", opt(i.drops)},
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

json summary_skeleton(const config::Scenario& scenario, const RunResult& r, std::string_view version,
                      SummaryArrays& arrays) {
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
  s["flows"] = json::array();
  arrays["flows"] = [&r](const SummaryElement& emit) {
    for (const FlowResult& f : r.flows)
      emit(f);
  };
  s["udp"] = r.udp;
  s["links"] = json::array();
  for (const auto& l : r.links) {
    if (l.monitored)
      s["links"].push_back(l);
  }
  s["intervals"] = json::array();
  arrays["intervals"] = [&r](const SummaryElement& emit) {
    for (const IntervalResult& i : r.intervals)
      emit(i);
  };
  if (r.intervals_omitted.count > 0) {  // only then: the summaries of existing runs are unchanged
    s["intervals_omitted"] = {{"count", r.intervals_omitted.count},
                              {"from_s", r.intervals_omitted.from},
                              {"flow_entries", r.intervals_omitted.flow_entries},
                              {"without_periods", r.intervals_omitted.without_periods},
                              {"limit", scenario.limits.interval_flow_entries}};
  }
  s["arrivals"] = r.arrivals;
  if (r.prediction)  // only with run --predict: other summaries are unchanged
    s["prediction"] = prediction_json(scenario, r, *r.prediction);
  s["completed_flows"] = json::array();
  arrays["completed_flows"] = [&r](const SummaryElement& emit) {
    for (const ArrivalResult& a : r.arrivals) {
      for (const traffic::CompletedFlow& c : a.completed_flows) {
        emit({{"id", c.id},
              {"arrival", a.id},
              {"path", a.path_ids[c.path]},
              {"size", c.size_bytes},
              {"start", c.start_s},
              {"fct", c.fct_s},
              {"fair_fct", c.fair_fct_s}});
      }
    }
  };
  return s;
}

json summary_json(const config::Scenario& scenario, const RunResult& r, std::string_view version) {
  SummaryArrays arrays;
  json s = summary_skeleton(scenario, r, version, arrays);
  for (const auto& [key, each] : arrays) {
    json& a = s[key];
    each([&a](const json& e) { a.push_back(e); });
  }
  return s;
}

namespace {
/// `v` as dump(2) would write it nested `indent` spaces deep (a JSON text holds no raw
/// newline outside its layout: strings escape theirs).
void write_nested(std::ostream& out, const json& v, size_t indent) {
  const std::string text = v.dump(2);
  size_t from = 0;
  for (size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', from)) {
    out.write(text.data() + from, static_cast<std::streamsize>(nl + 1 - from));
    out << std::string(indent, ' ');
    from = nl + 1;
  }
  out.write(text.data() + from, static_cast<std::streamsize>(text.size() - from));
}
}  // namespace

void write_summary(std::ostream& out, const json& skeleton, const SummaryArrays& arrays) {
  out << '{';
  bool first = true;
  for (const auto& [key, value] : skeleton.items()) {
    out << (first ? "\n  " : ",\n  ") << json(key).dump() << ": ";
    first = false;
    const auto lazy = arrays.find(key);
    if (lazy == arrays.end()) {
      write_nested(out, value, 2);
      continue;
    }
    bool any = false;
    lazy->second([&](const json& e) {
      out << (any ? ",\n    " : "[\n    ");
      write_nested(out, e, 4);
      any = true;
    });
    out << (any ? "\n  ]" : "[]");
  }
  out << (first ? "}\n" : "\n}\n");
}

}  // namespace fastsim::run
