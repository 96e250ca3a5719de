// The network utility maximisation behind the FAST/Vegas equilibrium (docs/predict.md):
// maximise sum_i w_i log y_i + o_i y_i subject to sum_{i uses l} y_i <= c_l on every link.
// Its optimum is the equilibrium y_i = w_i / (q_i - o_i), q_i the sum of the link prices
// (queueing delays) on flow i's path: FAST and Vegas flows with w_i = alpha_i bits and o_i
// their baseRTT error, loss-based flows at a fixed window with w_i = window bits and
// o_i = -baseRTT. Solved on the dual by Gauss-Seidel relaxation (one exact price per link
// in turn), which converges for this strictly concave, separable problem.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace fastsim::predict {

struct EqFlow {
  double weight = 0;            ///< w_i > 0, bits
  double offset_s = 0;          ///< o_i, seconds; the rate is weight / (q_i - offset_s)
  std::vector<uint32_t> links;  ///< indices into EqProblem::capacity_bps (distinct)
};

struct EqProblem {
  std::vector<double> capacity_bps;  ///< per link, > 0
  std::vector<EqFlow> flows;
};

struct EqOptions {
  /// Stop when every link's load is within this fraction of its capacity where its price
  /// is positive, and at most capacity * (1 + tolerance) where the price is zero.
  double tolerance = 1e-9;
  size_t max_sweeps = 1'000'000;
};

struct EqSolution {
  std::vector<double> rate_bps;  ///< per flow
  std::vector<double> price_s;   ///< per link: its queueing delay
  std::vector<double> load_bps;  ///< per link: the flows' rates summed
  size_t sweeps = 0;
  double residual = 0;  ///< the largest relative violation left (see EqOptions::tolerance)
  bool converged = false;
};

/// Solves `p`. Precondition: capacities > 0, weights > 0, link indices in range.
EqSolution solve_equilibrium(const EqProblem& p, const EqOptions& options = {});

}  // namespace fastsim::predict
