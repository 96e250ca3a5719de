// Measured against predicted, interval by interval (see prediction_report.hpp). A measured
// interval is matched to the predicted interval holding its midpoint (both split the run
// at the same starts and stops); flows are matched by id. Goodputs are compared: the
// measured interval means (after warm-up) against the predicted rate * mss / packet_size.
#include "fastsim/run/prediction_report.hpp"

#include <nlohmann/json.hpp>

namespace fastsim::run {

namespace {

nlohmann::json rel_error(double measured, double predicted) {
  return predicted != 0 ? nlohmann::json((measured - predicted) / predicted) : nlohmann::json(nullptr);
}

const predict::IntervalPrediction* containing(const predict::Prediction& p, double t) {
  for (const auto& i : p.intervals) {
    if (i.start_s <= t && t < i.end_s)
      return &i;
  }
  return nullptr;
}

}  // namespace

nlohmann::json prediction_json(const config::Scenario& scenario, const RunResult& r, const predict::Prediction& p) {
  nlohmann::json out;
  out["tolerance"] = p.tolerance;
  out["intervals"] = nlohmann::json::array();
  for (const IntervalResult& ir : r.intervals) {
    const predict::IntervalPrediction* pi = containing(p, 0.5 * (ir.start_s + ir.end_s));
    nlohmann::json ij = {{"start_s", ir.start_s}, {"end_s", ir.end_s}};
    ij["flows"] = nlohmann::json::array();
    for (size_t k = 0; k < ir.flows.size(); ++k) {
      nlohmann::json fj = {{"id", ir.flows[k]}};
      fj["measured_goodput_bps"] =
          k < ir.flow_throughput_bps.size() ? nlohmann::json(ir.flow_throughput_bps[k]) : nlohmann::json(nullptr);
      const predict::FlowPrediction* fp = nullptr;
      if (pi) {
        for (const auto& f : pi->flows) {
          if (f.id == ir.flows[k])
            fp = &f;
        }
      }
      if (!fp || fp->reason) {
        fj["predicted_goodput_bps"] = nullptr;
        fj["relative_error"] = nullptr;
        fj["reason"] = fp ? *fp->reason : "no predicted interval holds this one";
      } else {
        fj["predicted_goodput_bps"] = fp->goodput_bps;
        fj["relative_error"] = fj["measured_goodput_bps"].is_null()
                                   ? nlohmann::json(nullptr)
                                   : rel_error(ir.flow_throughput_bps[k], fp->goodput_bps);
        if (fp->rate_band_bps) {  // Vegas: every equilibrium's goodput, and whether the measured one is among them
          const double to_goodput = fp->goodput_bps / fp->rate_bps;
          const double lo = fp->rate_band_bps->first * to_goodput, hi = fp->rate_band_bps->second * to_goodput;
          fj["predicted_goodput_band_bps"] = {lo, hi};
          if (k < ir.flow_throughput_bps.size())
            fj["within_band"] = ir.flow_throughput_bps[k] >= lo && ir.flow_throughput_bps[k] <= hi;
        }
      }
      ij["flows"].push_back(std::move(fj));
    }
    if (pi && ir.mean_queue_pkts) {
      for (const auto& l : pi->links) {
        if (l.id != scenario.bottleneck || l.reason)
          continue;
        ij["bottleneck_queue_pkts"] = {{"measured", *ir.mean_queue_pkts},
                                       {"predicted", l.queue_pkts},
                                       {"relative_error", rel_error(*ir.mean_queue_pkts, l.queue_pkts)}};
      }
    }
    out["intervals"].push_back(std::move(ij));
  }
  out["model"] = predict::to_json(p);
  return out;
}

}  // namespace fastsim::run
