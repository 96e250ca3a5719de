// The prediction as JSON and as text tables (see predict.hpp).
#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include "fastsim/predict/predict.hpp"

namespace fastsim::predict {

namespace {

nlohmann::json flow_json(const FlowPrediction& f) {
  nlohmann::json j = {{"id", f.id}, {"algorithm", f.algorithm}};
  if (f.reason) {
    j["prediction"] = nullptr;
    j["reason"] = *f.reason;
    return j;
  }
  j["model"] = f.model;
  j["rate_bps"] = f.rate_bps;
  j["goodput_bps"] = f.goodput_bps;
  j["queueing_delay_s"] = f.queueing_delay_s;
  j["rtt_s"] = f.rtt_s;
  j["window_pkts"] = f.window_pkts;
  j["queued_pkts"] = f.queued_pkts;
  if (f.target_high_pkts > 0)
    j["target_pkts"] = {f.target_low_pkts, f.target_high_pkts};
  j["base_rtt_error_s"] = f.base_rtt_error_s;
  if (f.loss_rate)
    j["loss_rate"] = *f.loss_rate;
  j["bottleneck"] = f.bottleneck ? nlohmann::json(*f.bottleneck) : nlohmann::json(nullptr);
  if (f.rate_band_bps)
    j["rate_band_bps"] = {f.rate_band_bps->first, f.rate_band_bps->second};
  if (!f.notes.empty())
    j["notes"] = f.notes;
  return j;
}

nlohmann::json link_json(const LinkPrediction& l) {
  nlohmann::json j = {{"id", l.id}, {"capacity_bps", l.capacity_bps}};
  if (l.reason) {
    j["prediction"] = nullptr;
    j["reason"] = *l.reason;
    return j;
  }
  j["load_bps"] = l.load_bps;
  j["utilization"] = l.utilization;
  j["queueing_delay_s"] = l.queueing_delay_s;
  j["queue_pkts"] = l.queue_pkts;
  j["queue_bytes"] = l.queue_bytes;
  return j;
}

}  // namespace

nlohmann::json to_json(const Prediction& p) {
  nlohmann::json j;
  j["tolerance"] = p.tolerance;
  j["intervals"] = nlohmann::json::array();
  for (const auto& i : p.intervals) {
    nlohmann::json ij = {{"start_s", i.start_s},
                         {"end_s", i.end_s},
                         {"solver_sweeps", i.sweeps},
                         {"residual", i.residual},
                         {"converged", i.converged}};
    ij["flows"] = nlohmann::json::array();
    for (const auto& f : i.flows)
      ij["flows"].push_back(flow_json(f));
    ij["links"] = nlohmann::json::array();
    for (const auto& l : i.links)
      ij["links"].push_back(link_json(l));
    j["intervals"].push_back(std::move(ij));
  }
  if (p.intervals_omitted > 0)
    j["intervals_omitted"] = p.intervals_omitted;
  return j;
}

std::string format_text(const Prediction& p) {
  std::string out;
  for (const auto& i : p.intervals) {
    out += fmt::format("interval {:.6g} s - {:.6g} s{}\n", i.start_s, i.end_s,
                       i.converged ? "" : fmt::format(" (solver stopped at residual {:.3g})", i.residual));
    out += fmt::format("  {:<16} {:<12} {:>12} {:>12} {:>11} {:>10} {:>10} {:>12}  {}\n", "flow", "algorithm",
                       "rate Mb/s", "goodput Mb/s", "qdelay ms", "queued pk", "window pk", "bottleneck", "notes");
    for (const auto& f : i.flows) {
      if (f.reason) {
        out += fmt::format("  {:<16} {:<12} no prediction: {}\n", f.id, f.algorithm, *f.reason);
        continue;
      }
      std::string notes;
      if (f.rate_band_bps)
        notes = fmt::format("any rate in [{:.6g}, {:.6g}] Mb/s is an equilibrium", f.rate_band_bps->first / 1e6,
                            f.rate_band_bps->second / 1e6);
      for (const auto& n : f.notes)
        notes += (notes.empty() ? "" : "; ") + n;
      out += fmt::format("  {:<16} {:<12} {:>12.6g} {:>12.6g} {:>11.5g} {:>10.5g} {:>10.5g} {:>12}  {}\n", f.id,
                         f.algorithm, f.rate_bps / 1e6, f.goodput_bps / 1e6, f.queueing_delay_s * 1e3, f.queued_pkts,
                         f.window_pkts, f.bottleneck.value_or("-"), notes);
    }
    out +=
        fmt::format("  {:<16} {:>12} {:>12} {:>11} {:>10}\n", "link", "Mb/s", "utilization", "qdelay ms", "queue pk");
    for (const auto& l : i.links) {
      if (l.reason) {
        out += fmt::format("  {:<16} no prediction: {}\n", l.id, *l.reason);
      } else if (l.queue_pkts > 0 || l.utilization > 0.999) {  // the busy ones; --json has every link
        out += fmt::format("  {:<16} {:>12.6g} {:>12.6f} {:>11.5g} {:>10.5g}\n", l.id, l.capacity_bps / 1e6,
                           l.utilization, l.queueing_delay_s * 1e3, l.queue_pkts);
      }
    }
  }
  if (p.intervals_omitted > 0 && p.intervals.empty()) {
    out += fmt::format("(no interval shown, {} omitted: the first one's flows alone exceed the interval-flows limit; "
                       "raise it with --limit interval-flows=N)\n",
                       p.intervals_omitted);
  } else if (p.intervals_omitted > 0) {
    out += fmt::format("({} later intervals omitted: interval-flows limit)\n", p.intervals_omitted);
  } else if (p.intervals.empty()) {
    out += "(no interval has a TCP flow of \"flows\": nothing to predict; UDP sources and flow arrivals are "
           "predicted only as the load they put on the flows' links)\n";
  }
  return out;
}

}  // namespace fastsim::predict
