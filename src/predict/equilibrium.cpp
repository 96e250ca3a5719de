// Gauss-Seidel relaxation on the dual of the utility maximisation (see equilibrium.hpp).
// The dual D(p) = sum_i max_y [w_i log y + (o_i - q_i) y] + sum_l p_l c_l is convex and
// differentiable where finite, and strictly convex along each coordinate p_l of a link
// that carries a flow; minimising it exactly over one p_l >= 0 at a time (its load
// equals its capacity, or the price is 0 and the load is below it) therefore converges
// to the optimum (Bertsekas, Nonlinear Programming, 2nd ed., Prop. 2.7.1; Bertsekas and
// Tsitsiklis, Parallel and Distributed Computation, sec. 3.4). Each one-dimensional
// minimum is found by Newton's method from the left of the root, which converges
// monotonically because a link's load is a convex decreasing function of its price.
#include "fastsim/predict/equilibrium.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fastsim::predict {

namespace {

/// Flows of each link, compressed (CSR).
struct LinkFlows {
  std::vector<size_t> begin;
  std::vector<uint32_t> flow;
};

LinkFlows index_links(const EqProblem& p) {
  LinkFlows lf;
  lf.begin.assign(p.capacity_bps.size() + 1, 0);
  for (const auto& f : p.flows) {
    for (uint32_t l : f.links)
      ++lf.begin[l + 1];
  }
  for (size_t l = 0; l < p.capacity_bps.size(); ++l)
    lf.begin[l + 1] += lf.begin[l];
  lf.flow.resize(lf.begin.back());
  std::vector<size_t> fill(lf.begin.begin(), lf.begin.end() - 1);
  for (size_t i = 0; i < p.flows.size(); ++i) {
    for (uint32_t l : p.flows[i].links)
      lf.flow[fill[l]++] = static_cast<uint32_t>(i);
  }
  return lf;
}

/// The price of link l that makes its load equal `cap` with the other prices fixed
/// (0 if the load at price 0 is below it). `base[i]` = q_i - p_l - o_i for the link's flows.
double link_price(const std::vector<double>& w, const std::vector<double>& base, double cap, double current) {
  double lb = -std::numeric_limits<double>::infinity();
  double total_w = 0;
  for (size_t k = 0; k < w.size(); ++k) {
    lb = std::max(lb, -base[k]);
    total_w += w[k];
  }
  auto excess = [&](double p, double* slope) {
    double f = 0, d = 0;
    for (size_t k = 0; k < w.size(); ++k) {
      const double den = base[k] + p;
      f += w[k] / den;
      d -= w[k] / (den * den);
    }
    if (slope)
      *slope = d;
    return f - cap;
  };
  if (lb < 0 && excess(0, nullptr) <= 0)
    return 0;
  const double lo = std::max(lb, 0.0);
  // Every flow's rate is at most w / (p - lo), so the load is at most cap at hi.
  const double hi = lo + total_w / cap;
  double p = current > lo && current <= hi ? current : lo + 0.5 * (hi - lo);
  for (int k = 0; k < 4000 && excess(p, nullptr) <= 0; ++k)
    p = lo + 0.5 * (p - lo);  // move left of the root: Newton is monotone from there
  for (int k = 0; k < 200; ++k) {
    double slope = 0;
    const double g = excess(p, &slope);
    if (g <= 0 || slope >= 0)
      break;
    const double step = -g / slope;
    p += step;
    if (step <= 1e-16 * std::max(p, std::numeric_limits<double>::min()) || g <= 1e-15 * cap)
      break;
  }
  return p;
}

}  // namespace

EqSolution solve_equilibrium(const EqProblem& p, const EqOptions& options) {
  const size_t nl = p.capacity_bps.size();
  const size_t nf = p.flows.size();
  const LinkFlows lf = index_links(p);
  EqSolution s;
  s.price_s.assign(nl, 0.0);
  s.rate_bps.assign(nf, 0.0);
  s.load_bps.assign(nl, 0.0);
  std::vector<double> q(nf, 0.0);  // path price of each flow
  std::vector<double> w, base;
  for (s.sweeps = 1; s.sweeps <= options.max_sweeps; ++s.sweeps) {
    for (size_t l = 0; l < nl; ++l) {
      const size_t b = lf.begin[l], e = lf.begin[l + 1];
      if (b == e)
        continue;
      w.clear();
      base.clear();
      for (size_t k = b; k < e; ++k) {
        const EqFlow& f = p.flows[lf.flow[k]];
        w.push_back(f.weight);
        base.push_back(q[lf.flow[k]] - s.price_s[l] - f.offset_s);
      }
      const double np = link_price(w, base, p.capacity_bps[l], s.price_s[l]);
      const double delta = np - s.price_s[l];
      s.price_s[l] = np;
      for (size_t k = b; k < e; ++k)
        q[lf.flow[k]] += delta;
    }
    // Rates, loads and the largest violation of the optimality conditions.
    std::fill(s.load_bps.begin(), s.load_bps.end(), 0.0);
    for (size_t i = 0; i < nf; ++i) {
      q[i] = 0;  // recomputed from the prices: no drift from the incremental updates
      for (uint32_t l : p.flows[i].links)
        q[i] += s.price_s[l];
      const double den = q[i] - p.flows[i].offset_s;
      s.rate_bps[i] = den > 0 ? p.flows[i].weight / den : std::numeric_limits<double>::infinity();
      for (uint32_t l : p.flows[i].links)
        s.load_bps[l] += s.rate_bps[i];
    }
    s.residual = 0;
    for (size_t l = 0; l < nl; ++l) {
      const double rel = (s.load_bps[l] - p.capacity_bps[l]) / p.capacity_bps[l];
      s.residual = std::max(s.residual, s.price_s[l] > 0 ? std::abs(rel) : std::max(rel, 0.0));
    }
    if (!(s.residual > options.tolerance)) {  // also stops on NaN, reported as not converged
      s.converged = s.residual <= options.tolerance;
      return s;
    }
  }
  s.sweeps = options.max_sweeps;
  return s;
}

}  // namespace fastsim::predict
