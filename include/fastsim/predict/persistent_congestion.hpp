// Closed forms of the persistent-congestion model of FAST (Rodriguez-Perez et al., "The
// persistent congestion problem of FAST-TCP: analysis and solutions"): a flow that starts
// while a queue stands takes that queue's delay for part of its propagation delay and
// keeps its alpha packets queued against the wrong baseline (docs/predict.md).
#pragma once

#include <vector>

namespace fastsim::predict {

/// Eq. (15): the extra queue, in units of alpha, once one flow joins n flows that share a
/// link fairly with correct baseRTTs; n = 1 gives eq. (10), (sqrt(5) - 1) / 2.
double newcomer_extra_queue(int n);

/// Eq. (12)/(13): the old flows' and the newcomer's share of the capacity in that case.
double newcomer_old_share(int n);
double newcomer_new_share(int n);

/// Eq. (11): the shares x'_i / C, i = 1..n (oldest first), of n flows with equal alpha
/// that start one after the other, each once the previous ones are in equilibrium. The
/// a_j of the paper are found one after the other from sum_i x'_i / C = 1 (bisection to
/// the last bit; a_1 = 0, a_2 = eq. (10)).
std::vector<double> sequential_shares(int n);

/// Eq. (20): the smallest round-trip propagation delay (s) of the n fair flows for which
/// a newcomer's rate reduction empties the queue before they react; alpha in packets,
/// capacity in packets/s.
double rate_reduction_min_delay(int n, double alpha_pkts, double capacity_pps);

}  // namespace fastsim::predict
