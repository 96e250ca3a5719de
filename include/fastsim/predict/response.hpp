// Response functions of the loss-based algorithms: the mean congestion window (packets)
// a flow keeps when each packet is lost independently with probability p (docs/predict.md).
#pragma once

#include <optional>
#include <string>

#include "fastsim/cc/params.hpp"

namespace fastsim::predict {

/// The mean window under random loss p in (0, 1), or the reason there is none.
struct ResponseWindow {
  std::optional<double> window_pkts;
  std::string model;  ///< the formula used, or the reason there is none
};

/// `algorithm` is a registry name, `params` its resolved parameters; `rtt_s` is only used
/// by CUBIC (its window depends on the RTT).
ResponseWindow response_window(const std::string& algorithm, const cc::ParamValues& params, double p, double rtt_s);

}  // namespace fastsim::predict
