// Scenario to predicted equilibria, interval by interval (see predict.hpp and
// docs/predict.md). Each interval: classify the active flows (delay-based, loss-based
// with a response function, or not covered), mark the links whose queue the model cannot
// predict and every flow crossing them, solve the utility maximisation for the rest, and
// refuse queues that would overflow a buffer or wake RED. BaseRTT errors carry over from
// one interval to the next: a delay-based flow that starts into a standing queue keeps
// that queue's delay in its baseRTT (unless its remedy removes it).
#include "fastsim/predict/predict.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "fastsim/predict/persistent_congestion.hpp"
#include "fastsim/predict/response.hpp"

namespace fastsim::predict {

namespace {

bool delay_based(const std::string& a) {
  return a == "fast" || a == "vegas" || a == "quick-vegas";
}

double end_of(const std::optional<Duration>& stop, double duration) {
  return stop ? std::min(stop->to_seconds(), duration) : duration;
}

/// The propagation and transmission delays of a flow's data and ACK paths.
double base_rtt(const config::Scenario& s, const config::FlowSpec& f) {
  double r = 0;
  for (size_t l : f.data_links) {
    const auto& c = s.links[l].link;
    r += c.delay.to_seconds() + f.tcp.packet_size * 8.0 / c.rate.to_double();
  }
  for (size_t l : f.ack_links) {
    const auto& c = s.links[l].link;
    r += c.delay.to_seconds() + f.tcp.ack_size * 8.0 / c.rate.to_double();
  }
  return r;
}

double udp_mean_rate(const config::UdpSpec& u) {
  if (u.type != config::UdpSpec::Type::kParetoOnOff)
    return u.rate.to_double();
  const double on = u.mean_on.to_seconds(), off = u.mean_off.to_seconds();
  return on + off > 0 ? u.rate.to_double() * on / (on + off) : 0.0;
}

/// What persists from one interval to the next.
struct Carry {
  std::vector<std::optional<double>> error_s;  ///< per scenario flow: its baseRTT error (nullopt: unknown)
  std::vector<double> price_s;                 ///< per link, the last interval's
  std::vector<std::optional<std::string>> link_reason;
  std::vector<bool> predicted_delay_flow;       ///< per flow: a predicted delay-based flow last interval
  std::vector<std::vector<std::string>> notes;  ///< per flow: how its baseRTT error came about
  bool first = true;
};

class IntervalSolver {
 public:
  IntervalSolver(const config::Scenario& s, const EqOptions& o, Carry& carry, double t0, double t1)
      : s_(s), options_(o), carry_(carry), t0_(t0) {
    out_.start_s = t0;
    out_.end_s = t1;
  }

  IntervalPrediction run(const std::vector<size_t>& active) {
    active_ = active;
    const size_t nl = s_.links.size();
    udp_load_.assign(nl, 0.0);
    udp_pps_.assign(nl, 0.0);
    link_reason_.assign(nl, std::nullopt);
    used_.assign(nl, false);
    bursty_.assign(nl, false);
    apply_udp_and_arrivals();
    classify();
    EqSolution sol;
    for (size_t round = 0; round <= nl; ++round) {
      propagate_reasons();
      sol = solve();
      if (!refuse_overflows(sol))
        break;
    }
    fill(sol);
    return std::move(out_);
  }

 private:
  struct Entry {
    size_t flow;
    std::optional<std::string> reason;
    std::string model;
    std::vector<std::string> notes;
    double weight = 0, offset = 0, error = 0, low = 0, high = 0, base = 0;
    std::optional<double> loss;
    bool delay = false;
    bool error_unknown = false;  ///< its baseRTT error could not be predicted (kept for later intervals)
  };

  void taint(size_t l, std::string why) {
    if (!link_reason_[l])
      link_reason_[l] = std::move(why);
  }

  void apply_udp_and_arrivals() {
    const double duration = s_.duration.to_seconds();
    for (const auto& u : s_.udp) {
      if (!(u.start.to_seconds() <= t0_ && t0_ < end_of(u.stop, duration)))
        continue;
      const double r = udp_mean_rate(u);
      for (size_t l : u.path.data_links) {
        used_[l] = true;
        if (u.type == config::UdpSpec::Type::kParetoOnOff)
          bursty_[l] = true;
        udp_load_[l] += r;
        udp_pps_[l] += r / (u.packet_size * 8.0);
      }
    }
    for (size_t l = 0; l < s_.links.size(); ++l) {
      if (udp_load_[l] >= s_.links[l].link.rate.to_double())
        taint(l, fmt::format("UDP load {:.4g} Mb/s saturates link {}", udp_load_[l] / 1e6, s_.links[l].link.id));
    }
    for (const auto& a : s_.arrivals) {
      if (!(a.start.to_seconds() <= t0_ && t0_ < end_of(a.stop, duration)))
        continue;
      for (const auto& path : a.paths) {
        for (size_t l : path.data_links) {
          used_[l] = true;
          taint(l, fmt::format("Poisson flow arrivals \"{}\" cross link {}", a.id, s_.links[l].link.id));
        }
      }
    }
  }

  /// The baseRTT error of a delay-based flow starting now, from the last interval's queues.
  void start_error(const config::FlowSpec& f, Entry& e) {
    if (carry_.first || f.start.to_seconds() != t0_) {
      if (!carry_.first && !carry_.error_s[e.flow]) {
        e.reason = "its baseRTT was measured over a queue the model did not predict";
        e.error_unknown = true;
      }
      e.error = carry_.error_s[e.flow].value_or(0.0);
      e.notes = carry_.notes[e.flow];
      return;
    }
    if (f.data_links.empty())
      return;
    double q = 0;
    size_t worst = f.data_links.front();
    for (size_t l : f.data_links) {
      if (carry_.link_reason[l]) {
        e.reason = fmt::format("started into a queue the model does not predict (link {})", s_.links[l].link.id);
        e.error_unknown = true;
        return;
      }
      q += carry_.price_s[l];
      if (carry_.price_s[l] > carry_.price_s[worst])
        worst = l;
    }
    e.error = q;
    if (q <= 0)
      return;
    const std::string remedy = f.algorithm == "fast" ? f.params.choice("base_rtt_correction") : "none";
    e.notes.push_back(
        fmt::format("started into a standing queue of {:.4g} ms: baseRTT too large by that much", q * 1e3));
    if (remedy == "rodriguez") {
      e.error = 0;
      e.notes.push_back("baseRTT correction (Rodriguez-Perez) removes the error once the flow is stable: fair share");
    } else if (remedy == "rate_reduction") {
      // Eq. (20) on the link where the queue stands: the delay-based flows there.
      int n = 0;
      double d = INFINITY;
      for (size_t i = 0; i < s_.flows.size(); ++i) {
        const auto& g = s_.flows[i];
        if (i == e.flow || !carry_.predicted_delay_flow[i])
          continue;
        if (std::find(g.data_links.begin(), g.data_links.end(), worst) == g.data_links.end())
          continue;
        ++n;
        d = std::min(d, base_rtt(s_, g));
      }
      const double cap_pps = (s_.links[worst].link.rate.to_double() - udp_load_[worst]) / (f.tcp.packet_size * 8.0);
      const double bound = rate_reduction_min_delay(n, f.params.get("alpha"), cap_pps);
      if (n > 0 && d > bound) {
        e.error = 0;
        e.notes.push_back(fmt::format(
            "rate reduction drains the queue: the {} flows' RTT {:.4g} ms exceeds eq. (20)'s {:.4g} ms: fair share", n,
            d * 1e3, bound * 1e3));
      } else {
        e.notes.push_back(fmt::format(
            "rate reduction cannot drain the queue: RTT {:.4g} ms is at most eq. (20)'s {:.4g} ms ({} flows): "
            "predicted as without a remedy",
            d * 1e3, bound * 1e3, n));
      }
    }
  }

  void classify() {
    for (size_t fi : active_) {
      const auto& f = s_.flows[fi];
      Entry e;
      e.flow = fi;
      e.base = base_rtt(s_, f);
      const double bits = f.tcp.packet_size * 8.0;
      if (f.on_off) {
        e.reason = "an on/off application: not modelled";
      } else if (f.size_bytes) {
        e.reason = "a finite flow: when it ends is not modelled";
      } else if (delay_based(f.algorithm)) {
        e.delay = true;
        if (f.algorithm == "fast") {
          e.low = e.high = f.params.get("alpha");
          e.model = fmt::format("utility maximisation, alpha = {:g} packets", e.low);
        } else {
          e.low = f.params.get("alpha");
          e.high = f.params.get("beta");
          e.model = fmt::format(
              "utility maximisation at the midpoint of the [alpha, beta] = [{:g}, {:g}] band (any backlog in the band "
              "is an equilibrium)",
              e.low, e.high);
        }
        start_error(f, e);
        if (e.low + e.high <= 0)
          e.reason = "alpha = beta = 0: no backlog to hold, so no delay-based equilibrium";
        e.weight = 0.5 * (e.low + e.high) * bits;
        e.offset = e.error;
      } else {
        double keep = 1;
        for (size_t l : f.data_links)
          keep *= 1 - s_.links[l].link.loss_rate;
        const double p = 1 - keep;
        e.loss = p;
        if (p <= 0) {
          e.reason =
              "no random loss on its path: a loss-based flow fills the drop-tail buffer and its rate is not "
              "predicted";
        } else {
          const ResponseWindow r = response_window(f.algorithm, f.params, p, e.base);
          if (!r.window_pkts) {
            e.reason = r.model;
          } else {
            e.model =
                fmt::format("response function {}, window {:.4g} packets at p = {:.3g}", r.model, *r.window_pkts, p);
            e.weight = *r.window_pkts * bits;
            e.offset = -e.base;
          }
        }
      }
      for (size_t l : f.data_links)
        used_[l] = true;
      entries_.push_back(std::move(e));
    }
  }

  /// A flow not covered makes the links it crosses unpredictable, and so every flow on them.
  void propagate_reasons() {
    for (bool changed = true; changed;) {
      changed = false;
      for (auto& e : entries_) {
        const auto& f = s_.flows[e.flow];
        if (!e.reason) {
          for (size_t l : f.data_links) {
            if (link_reason_[l]) {
              e.reason =
                  fmt::format("shares link {} whose queue is not predicted: {}", s_.links[l].link.id, *link_reason_[l]);
              break;
            }
          }
        }
        if (e.reason) {
          for (size_t l : f.data_links) {
            if (!link_reason_[l]) {
              link_reason_[l] = fmt::format("flow {} is not predicted", f.id);
              changed = true;
            }
          }
        }
      }
    }
  }

  EqSolution solve() {
    EqProblem p;
    link_index_.assign(s_.links.size(), UINT32_MAX);
    solved_.clear();
    for (size_t k = 0; k < entries_.size(); ++k) {
      const Entry& e = entries_[k];
      if (e.reason)
        continue;
      EqFlow f;
      f.weight = e.weight;
      f.offset_s = e.offset;
      for (size_t l : s_.flows[e.flow].data_links) {
        if (link_index_[l] == UINT32_MAX) {
          link_index_[l] = static_cast<uint32_t>(p.capacity_bps.size());
          p.capacity_bps.push_back(s_.links[l].link.rate.to_double() - udp_load_[l]);
        }
        f.links.push_back(link_index_[l]);
      }
      p.flows.push_back(std::move(f));
      solved_.push_back(k);
    }
    return solve_equilibrium(p, options_);
  }

  /// Packets per second through each link: the solved flows' and UDP's.
  std::vector<double> link_pps(const EqSolution& sol) const {
    std::vector<double> pps = udp_pps_;
    for (size_t j = 0; j < solved_.size(); ++j) {
      const auto& f = s_.flows[entries_[solved_[j]].flow];
      for (size_t l : f.data_links)
        pps[l] += sol.rate_bps[j] / (f.tcp.packet_size * 8.0);
    }
    return pps;
  }

  double queue_pkts(const EqSolution& sol, const std::vector<double>& pps, size_t l) const {
    const uint32_t li = link_index_[l];
    return li == UINT32_MAX ? 0.0 : sol.price_s[li] * pps[l];
  }

  /// Marks links whose predicted queue overflows the buffer or reaches RED's min_th;
  /// true if any was marked (the interval is solved again without their flows).
  bool refuse_overflows(const EqSolution& sol) {
    bool any = false;
    const std::vector<double> pps = link_pps(sol);
    for (size_t l = 0; l < s_.links.size(); ++l) {
      const uint32_t li = link_index_[l];
      if (li == UINT32_MAX || sol.price_s[li] <= 0 || link_reason_[l])
        continue;
      const auto& c = s_.links[l].link;
      const double pkts = queue_pkts(sol, pps, l);
      const double bytes = sol.price_s[li] * c.rate.to_double() / 8;
      if ((c.buffer.packets > 0 && pkts > static_cast<double>(c.buffer.packets) * (1 + 1e-9)) ||
          (c.buffer.bytes > 0 && bytes > static_cast<double>(c.buffer.bytes) * (1 + 1e-9))) {
        link_reason_[l] = fmt::format(
            "the predicted queue ({:.0f} packets) overflows the buffer of link {}: "
            "drop-tail losses are not modelled",
            pkts, c.id);
        any = true;
      } else if (c.red && pkts >= c.red->min_th) {
        link_reason_[l] = fmt::format(
            "the predicted queue ({:.0f} packets) reaches RED's min_th ({:g}) on link {}: "
            "early drops are not modelled",
            pkts, c.red->min_th, c.id);
        any = true;
      }
    }
    return any;
  }

  void fill(const EqSolution& sol) {
    out_.sweeps = sol.sweeps;
    out_.residual = sol.residual;
    out_.converged = sol.converged;
    std::vector<double> load(s_.links.size(), 0.0);
    const std::vector<double> pps = link_pps(sol);
    std::vector<double> rate(entries_.size(), 0.0);
    for (size_t j = 0; j < solved_.size(); ++j)
      rate[solved_[j]] = sol.rate_bps[j];
    for (size_t k = 0; k < entries_.size(); ++k) {
      Entry& e = entries_[k];
      const auto& f = s_.flows[e.flow];
      FlowPrediction fp;
      fp.id = f.id;
      fp.algorithm = f.algorithm;
      fp.notes = e.notes;
      fp.loss_rate = e.loss;
      fp.target_low_pkts = e.low;
      fp.target_high_pkts = e.high;
      if (e.reason) {
        fp.reason = e.reason;
        out_.flows.push_back(std::move(fp));
        continue;
      }
      if (!sol.converged)
        fp.notes.push_back(fmt::format("the solver stopped at residual {:.3g}", sol.residual));
      fp.model = e.model;
      fp.rate_bps = rate[k];
      fp.goodput_bps = rate[k] * f.tcp.mss / f.tcp.packet_size;
      double q = 0, worst = 0;
      for (size_t l : f.data_links) {
        const double pl = sol.price_s[link_index_[l]];
        q += pl;
        load[l] += rate[k];
        if (pl > worst) {
          worst = pl;
          fp.bottleneck = s_.links[l].link.id;
        }
      }
      fp.queueing_delay_s = q;
      fp.rtt_s = e.base + q;
      const double bits = f.tcp.packet_size * 8.0;
      fp.window_pkts = rate[k] * fp.rtt_s / bits;
      fp.queued_pkts = rate[k] * q / bits;
      fp.base_rtt_error_s = e.error;
      if (!e.delay && q > 0)
        fp.notes.push_back("the response window is spread over base RTT + queueing delay");
      for (size_t l : f.data_links) {
        if (bursty_[l]) {
          fp.notes.push_back(fmt::format(
              "approximate: Pareto on/off traffic on link {} is counted at its mean rate; its bursts build queues the "
              "mean-rate model does not see",
              s_.links[l].link.id));
          break;
        }
      }
      if (e.delay && e.loss.value_or(0) > 0)
        fp.notes.push_back("random loss on its path: each loss halves the window, which the model ignores");
      out_.flows.push_back(std::move(fp));
    }
    rate_bands(sol);
    for (size_t l = 0; l < s_.links.size(); ++l) {
      if (!used_[l])
        continue;
      const auto& c = s_.links[l].link;
      LinkPrediction lp;
      lp.id = c.id;
      lp.capacity_bps = c.rate.to_double();
      lp.reason = link_reason_[l];
      if (!lp.reason) {
        const uint32_t li = link_index_[l];
        lp.load_bps = load[l] + udp_load_[l];
        lp.utilization = lp.load_bps / lp.capacity_bps;
        lp.queueing_delay_s = li == UINT32_MAX ? 0.0 : sol.price_s[li];
        lp.queue_pkts = queue_pkts(sol, pps, l);
        lp.queue_bytes = lp.queueing_delay_s * (lp.queueing_delay_s > 0 ? lp.capacity_bps / 8 : 0.0);
      }
      out_.links.push_back(std::move(lp));
    }
    // What the next interval inherits.
    for (const auto& e : entries_) {
      if (e.delay)
        carry_.error_s[e.flow] = e.error_unknown ? std::nullopt : std::optional<double>(e.error);
      carry_.predicted_delay_flow[e.flow] = e.delay && !e.reason;
      if (e.delay)
        carry_.notes[e.flow] = e.notes;
    }
    for (size_t l = 0; l < s_.links.size(); ++l) {
      carry_.link_reason[l] = link_reason_[l];
      const uint32_t li = link_index_[l];
      carry_.price_s[l] = li == UINT32_MAX ? 0.0 : sol.price_s[li];
    }
    carry_.first = false;
  }

  /// The single priced link of an entry's path, if it has exactly one.
  std::optional<size_t> only_priced_link(const EqSolution& sol, const Entry& e) const {
    std::optional<size_t> found;
    for (size_t l : s_.flows[e.flow].data_links) {
      if (sol.price_s[link_index_[l]] > 0) {
        if (found)
          return std::nullopt;
        found = l;
      }
    }
    return found;
  }

  /// Vegas bands: on a link that is the only priced link of every flow crossing it, all
  /// of them delay-based with correct baseRTTs, a Vegas flow i may hold any backlog b_i
  /// in [alpha_i, beta_i] packets; its rate b_i s_i / (sum_j b_j s_j / C) is lowest with
  /// the other Vegas flows at beta and highest with them at alpha (s: bits per packet, C:
  /// capacity left). FAST and Quick Vegas flows hold their target (Quick Vegas steers to
  /// the band's midpoint).
  void rate_bands(const EqSolution& sol) {
    std::vector<std::vector<size_t>> on_link(s_.links.size());
    for (size_t k : solved_) {
      for (size_t l : s_.flows[entries_[k].flow].data_links)
        on_link[l].push_back(k);
    }
    for (size_t n = 0; n < out_.flows.size(); ++n) {
      const Entry& e = entries_[n];
      if (e.reason || s_.flows[e.flow].algorithm != "vegas" || e.low == e.high)
        continue;
      const auto l = only_priced_link(sol, e);
      if (!l)
        continue;
      double sum_low = 0, sum_high = 0;
      bool ok = true;
      for (size_t k : on_link[*l]) {
        const Entry& g = entries_[k];
        if (!g.delay || g.error != 0 || only_priced_link(sol, g) != l) {
          ok = false;
          break;
        }
        const double bits = s_.flows[g.flow].tcp.packet_size * 8.0;
        const bool band = s_.flows[g.flow].algorithm == "vegas";
        sum_low += (band ? g.low : 0.5 * (g.low + g.high)) * bits;
        sum_high += (band ? g.high : 0.5 * (g.low + g.high)) * bits;
      }
      if (!ok || e.error != 0)
        continue;
      const double bits = s_.flows[e.flow].tcp.packet_size * 8.0;
      const double cap = s_.links[*l].link.rate.to_double() - udp_load_[*l];
      const double lo = e.low * bits, hi = e.high * bits;
      out_.flows[n].rate_band_bps = std::make_pair(lo * cap / (lo + sum_high - hi), hi * cap / (hi + sum_low - lo));
    }
  }

  const config::Scenario& s_;
  const EqOptions& options_;
  Carry& carry_;
  double t0_;
  std::vector<size_t> active_;
  std::vector<double> udp_load_, udp_pps_;
  std::vector<std::optional<std::string>> link_reason_;
  std::vector<bool> used_;
  std::vector<bool> bursty_;  ///< carries a Pareto on/off source (counted at its mean rate)
  std::vector<Entry> entries_;
  std::vector<uint32_t> link_index_;
  std::vector<size_t> solved_;  ///< entries_ index of each solver flow
  IntervalPrediction out_;
};

}  // namespace

Prediction predict(const config::Scenario& s, const EqOptions& options) {
  Prediction out;
  out.tolerance = options.tolerance;
  const double duration = s.duration.to_seconds();
  std::vector<double> cuts{0.0};
  for (const auto& f : s.flows) {
    cuts.push_back(f.start.to_seconds());
    cuts.push_back(end_of(f.stop, duration));
  }
  for (const auto& u : s.udp) {
    cuts.push_back(u.start.to_seconds());
    cuts.push_back(end_of(u.stop, duration));
  }
  for (const auto& a : s.arrivals) {
    cuts.push_back(a.start.to_seconds());
    cuts.push_back(end_of(a.stop, duration));
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  while (!cuts.empty() && cuts.back() >= duration)
    cuts.pop_back();
  cuts.push_back(duration);

  Carry carry;
  carry.error_s.assign(s.flows.size(), 0.0);
  carry.price_s.assign(s.links.size(), 0.0);
  carry.link_reason.assign(s.links.size(), std::nullopt);
  carry.predicted_delay_flow.assign(s.flows.size(), false);
  carry.notes.assign(s.flows.size(), {});
  size_t entries = 0;
  bool exhausted = false;
  for (size_t k = 0; k + 1 < cuts.size(); ++k) {
    const double t0 = cuts[k], t1 = cuts[k + 1];
    std::vector<size_t> active;
    for (size_t i = 0; i < s.flows.size(); ++i) {
      if (s.flows[i].start.to_seconds() <= t0 && t0 < end_of(s.flows[i].stop, duration))
        active.push_back(i);
    }
    if (active.empty()) {  // no TCP flow: the queues the flows built drain
      std::fill(carry.price_s.begin(), carry.price_s.end(), 0.0);
      std::fill(carry.link_reason.begin(), carry.link_reason.end(), std::nullopt);
      continue;
    }
    if (exhausted || entries + active.size() > s.limits.interval_flow_entries) {
      exhausted = true;  // this one and every later one with a flow
      ++out.intervals_omitted;
      continue;
    }
    entries += active.size();
    out.intervals.push_back(IntervalSolver(s, options, carry, t0, t1).run(active));
  }
  return out;
}

}  // namespace fastsim::predict
