// The persistent-congestion closed forms, eqs. (10)-(20) (see persistent_congestion.hpp).
#include "fastsim/predict/persistent_congestion.hpp"

#include <cmath>

namespace fastsim::predict {

double newcomer_extra_queue(int n) {
  return (std::sqrt(1.0 + 4.0 * n) - 1.0) / 2.0;
}

double newcomer_old_share(int n) {
  return 1.0 / (n + 1 + newcomer_extra_queue(n));
}

double newcomer_new_share(int n) {
  return 1.0 / (1 + newcomer_extra_queue(n));
}

std::vector<double> sequential_shares(int n) {
  // With j flows: x'_i / C = 1 / (1 + j - i + sum_{k=i..j} a_k), a_1 = 0. The sum of the
  // shares falls strictly as a_j grows, from above 1 at a_j = 0 (the newest flow alone
  // would take all of C) to below 1 at a_j = j.
  std::vector<double> a(static_cast<size_t>(n) + 1, 0.0);  // a[1..n]
  auto shares = [&](int j, double aj) {
    double sum = 0;
    double tail = aj;  // sum_{k=i..j} a_k
    for (int i = j; i >= 1; --i) {
      if (i < j)
        tail += a[static_cast<size_t>(i)];
      sum += 1.0 / (1 + j - i + tail);
    }
    return sum;
  };
  for (int j = 2; j <= n; ++j) {
    double lo = 0, hi = j;
    for (int k = 0; k < 2000 && hi > lo; ++k) {
      const double mid = 0.5 * (lo + hi);
      if (mid <= lo || mid >= hi)
        break;
      (shares(j, mid) > 1 ? lo : hi) = mid;
    }
    a[static_cast<size_t>(j)] = 0.5 * (lo + hi);
  }
  std::vector<double> out;
  double tail = 0;
  std::vector<double> tails(static_cast<size_t>(n) + 2, 0.0);
  for (int i = n; i >= 1; --i) {
    tail += a[static_cast<size_t>(i)];
    tails[static_cast<size_t>(i)] = tail;
  }
  for (int i = 1; i <= n; ++i)
    out.push_back(1.0 / (1 + n - i + tails[static_cast<size_t>(i)]));
  return out;
}

double rate_reduction_min_delay(int n, double alpha_pkts, double capacity_pps) {
  return n * alpha_pkts * (1 + std::sqrt(1.0 + 4.0 * n)) / (2 * capacity_pps);
}

}  // namespace fastsim::predict
