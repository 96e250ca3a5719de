// Response functions (see response.hpp). fastsim counts congestion-avoidance increases
// per packet newly acknowledged (appropriate byte counting), so delayed ACKs do not
// change them.
#include "fastsim/predict/response.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace fastsim::predict {

namespace {

/// AIMD with increase a packets per RTT and decrease fraction b (Reno: a = 1, b = 1/2):
/// the periodic-loss model of Mathis et al. 1997 generalised, w = sqrt(a (2 - b) / (2 b p)).
double aimd(double a, double b, double p) {
  return std::sqrt(a * (2 - b) / (2 * b * p));
}

constexpr double kHstcpLowP = 1e-3;  // RFC 3649: Reno's loss rate at low_window (as cc/hstcp.cpp)

}  // namespace

ResponseWindow response_window(const std::string& algorithm, const cc::ParamValues& params, double p, double rtt_s) {
  if (algorithm == "reno") {
    const double a = params.get("increase"), b = params.get("decrease");
    return {aimd(a, b, p), fmt::format("Mathis: sqrt({:g} (2 - {:g}) / (2 {:g} p))", a, b, b)};
  }
  if (algorithm == "hstcp") {
    // RFC 3649 sec. 5: w = W0 (p / P0)^S through (P0, W0) = (1e-3, low_window) and
    // (high_p, high_window); Reno at or below low_window (0.12 / p^0.835 at the defaults).
    const double w0 = params.get("low_window"), w1 = params.get("high_window"), p1 = params.get("high_p");
    const double s = (std::log(w1) - std::log(w0)) / (std::log(p1) - std::log(kHstcpLowP));
    const double w = w0 * std::pow(p / kHstcpLowP, s);
    if (w > w0)
      return {w, fmt::format("RFC 3649: {:g} (p / 0.001)^{:.4g}", w0, s)};
    return {aimd(1, 0.5, p), "RFC 3649 below low_window: Reno, sqrt(1.5 / p)"};
  }
  if (algorithm == "stcp") {
    const double a = params.get("a"), b = params.get("b"), low = params.get("low_window");
    const double w = a / (b * p);
    if (w > low)
      return {w, fmt::format("Kelly 2003: ({:g} / {:g}) / p", a, b)};
    return {aimd(1, 0.5, p), "Scalable TCP below low_window: Reno, sqrt(1.5 / p)"};
  }
  if (algorithm == "cubic") {
    // RFC 8312 sec. 5.1: (C (3 + beta) / (4 (1 - beta)))^(1/4) (RTT / p)^(3/4) packets with
    // RTT in seconds, beta the fraction kept at a loss; in the TCP-friendly region at least
    // the AIMD window of sec. 4.2 (the same as Reno's).
    const double c = params.get("c"), beta = params.get("beta");
    const double w = std::pow(c * (3 + beta) / (4 * (1 - beta)), 0.25) * std::pow(rtt_s / p, 0.75);
    if (params.get("tcp_friendly") != 0 && aimd(1, 0.5, p) > w)
      return {aimd(1, 0.5, p), "RFC 8312 TCP-friendly region: Reno, sqrt(1.5 / p)"};
    return {w, fmt::format("RFC 8312: ({:g} (3 + {:g}) / (4 (1 - {:g})))^0.25 (RTT / p)^0.75", c, beta, beta)};
  }
  return {std::nullopt, fmt::format("no response function for {} in fastsim's predictor", algorithm)};
}

}  // namespace fastsim::predict
