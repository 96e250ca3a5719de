// Response functions (see response.hpp). fastsim counts congestion-avoidance increases
// per packet newly acknowledged (appropriate byte counting), so delayed ACKs do not
// change them.
#include "fastsim/predict/response.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

#include <boost/math/quadrature/exp_sinh.hpp>

#include <fmt/format.h>

namespace fastsim::predict {

namespace {

/// E[Z^-s] for Z = sum_k c^k E_k (E_k independent unit exponentials), 0 < c < 1, s > 0.
/// Z is the stationary state of the ideal loss processes below, scaled. From Z's Laplace
/// transform L(t) = prod_k 1 / (1 + t c^k): E[Z^-s] = int_0^inf t^(s-1) L(t) dt / Gamma(s),
/// and with t = u^(1/s), E[Z^-s] = int_0^inf L(u^(1/s)) du / Gamma(s + 1).
double inverse_moment(double c, double s) {
  assert(c > 0 && c < 1);  // the parameters' ranges keep every decrease in (0, 1)
  auto laplace_of_z = [c, s](double u) {
    double product = 1;
    for (double term = std::pow(u, 1 / s); term > 1e-17 && product > 0; term *= c)
      product /= 1 + term;  // term = inf at the integrator's far end gives 0 and stops
    return product;
  };
  boost::math::quadrature::exp_sinh<double> integrator;
  return integrator.integrate(laplace_of_z) / std::tgamma(s + 1);
}

/// AIMD with increase a packets per RTT and decrease fraction b (Reno: a = 1, b = 1/2)
/// under independent per-packet loss p: the time-average window of the ideal process (w
/// grows a / w per packet, w -> (1 - b) w at each loss), exact as p -> 0. Counted in
/// packets, y = w^2 grows 2a per packet and is multiplied by c = (1 - b)^2 at rate p, so
/// y p / (2a) is distributed as Z with that c (the packets since each earlier loss,
/// exponential, shrunk by the losses after it). A packet takes RTT / w, so the time average
/// of w is 1 / E[1 / w] = sqrt(2a / p) / E[Z^-1/2]. Reno: 1.3098 / sqrt(p) (Ott, Kemperman,
/// Mathis 1996; Mathis et al. 1997's periodic-loss sqrt(3 / (2p)) is 6.5 % lower).
double aimd(double a, double b, double p) {
  return std::sqrt(2 * a / p) / inverse_moment((1 - b) * (1 - b), 0.5);
}

/// MIMD (Scalable TCP) with increase a per packet and decrease fraction b under independent
/// loss p, the same way: w grows a per packet and is multiplied by c = 1 - b at rate p, so
/// w p / a is distributed as Z, and the time average is (a / p) / E[Z^-1]. Defaults:
/// 0.0749 / p (Kelly's a / (b p) = 0.08 / p is the mean over packets, 6.8 % higher).
double mimd(double a, double b, double p) {
  return a / p / inverse_moment(1 - b, 1.0);
}

constexpr double kHstcpLowP = 1e-3;  // RFC 3649: Reno's loss rate at low_window (as cc/hstcp.cpp)

}  // namespace

ResponseWindow response_window(const std::string& algorithm, const cc::ParamValues& params, double p, double rtt_s) {
  if (algorithm == "reno") {
    const double a = params.get("increase"), b = params.get("decrease");
    const double k = aimd(a, b, 1.0);  // the window is k / sqrt(p)
    return {k / std::sqrt(p),
            fmt::format("AIMD({:g}, {:g}) under random loss (Ott, Kemperman, Mathis): {:.4g} / sqrt(p)", a, b, k)};
  }
  if (algorithm == "hstcp") {
    // RFC 3649 sec. 5: w = W0 (p / P0)^S through (P0, W0) = (1e-3, low_window) and
    // (high_p, high_window); Reno at or below low_window (0.12 / p^0.835 at the defaults).
    const double w0 = params.get("low_window"), w1 = params.get("high_window"), p1 = params.get("high_p");
    const double s = (std::log(w1) - std::log(w0)) / (std::log(p1) - std::log(kHstcpLowP));
    const double w = w0 * std::pow(p / kHstcpLowP, s);
    if (w > w0)
      return {w, fmt::format("RFC 3649: {:g} (p / 0.001)^{:.4g}", w0, s)};
    return {aimd(1, 0.5, p), "RFC 3649 below low_window: Reno under random loss, 1.31 / sqrt(p)"};
  }
  if (algorithm == "stcp") {
    const double a = params.get("a"), b = params.get("b"), low = params.get("low_window");
    const double k = mimd(a, b, 1.0);  // the window is k / p
    if (k / p > low)
      return {k / p,
              fmt::format("MIMD({:g}, {:g}) under random loss: {:.4g} / p (Kelly 2003's mean over packets: {:g} / p)",
                          a, b, k, a / b)};
    return {aimd(1, 0.5, p), "Scalable TCP below low_window: Reno under random loss, 1.31 / sqrt(p)"};
  }
  if (algorithm == "cubic") {
    // RFC 8312 sec. 5.1: (C (3 + beta) / (4 (1 - beta)))^(1/4) (RTT / p)^(3/4) packets with
    // RTT in seconds, beta the fraction kept at a loss; in the TCP-friendly region at least
    // the window of sec. 4.2's AIMD, increase 3 (1 - beta) / (1 + beta) per RTT and decrease
    // 1 - beta (Reno's under periodic loss; under random loss 1.2739 / sqrt(p) at beta 0.7
    // against Reno's 1.3098).
    const double c = params.get("c"), beta = params.get("beta");
    const double w = std::pow(c * (3 + beta) / (4 * (1 - beta)), 0.25) * std::pow(rtt_s / p, 0.75);
    const double alpha = 3 * (1 - beta) / (1 + beta);
    const double k = aimd(alpha, 1 - beta, 1.0);  // the friendly window is k / sqrt(p)
    if (params.get("tcp_friendly") != 0 && k / std::sqrt(p) > w)
      return {k / std::sqrt(p),
              fmt::format("RFC 8312 TCP-friendly region: AIMD({:.3g}, {:g}) under random loss, {:.4g} / sqrt(p)", alpha,
                          1 - beta, k)};
    return {w, fmt::format("RFC 8312: ({:g} (3 + {:g}) / (4 (1 - {:g})))^0.25 (RTT / p)^0.75", c, beta, beta)};
  }
  return {std::nullopt, fmt::format("no response function for {} in fastsim's predictor", algorithm)};
}

}  // namespace fastsim::predict
