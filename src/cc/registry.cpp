// The one table of congestion-control algorithms (see registry.hpp).
#include "fastsim/cc/registry.hpp"

#include "fastsim/cc/bbr.hpp"
#include "fastsim/cc/ctcp.hpp"
#include "fastsim/cc/cubic.hpp"
#include "fastsim/cc/dctcp.hpp"
#include "fastsim/cc/fast.hpp"
#include "fastsim/cc/hstcp.hpp"
#include "fastsim/cc/illinois.hpp"
#include "fastsim/cc/quick_vegas.hpp"
#include "fastsim/cc/reno.hpp"
#include "fastsim/cc/stcp.hpp"
#include "fastsim/cc/vegas.hpp"

namespace fastsim::cc {

namespace {
template <class Algo>
std::unique_ptr<CongestionControl> make(const ParamValues& p) {
  return std::make_unique<Algo>(p);
}
}  // namespace

const std::vector<AlgorithmInfo>& algorithms() {
  static const std::vector<AlgorithmInfo> table = {
      {"reno", "Reno/NewReno AIMD: +1 packet per RTT, halve on loss (RFC 5681)", Reno::param_specs(), make<Reno>, {}},
      {"hstcp", "HighSpeed TCP: a(w) per RTT, cut b(w), response 0.12/p^0.835 (RFC 3649)", HighSpeed::param_specs(),
       make<HighSpeed>, HighSpeed::check},
      {"stcp", "Scalable TCP: MIMD, +1% per RTT, cut 12.5% (Kelly 2003)", Scalable::param_specs(), make<Scalable>, {}},
      {"illinois", "TCP Illinois: AIMD with alpha, beta set by queueing delay (Liu, Basar, Srikant)",
       Illinois::param_specs(), make<Illinois>, Illinois::check},
      {"ctcp",
       "Compound TCP: Reno window plus a delay-based dwnd (Tan et al. 2006)",
       Compound::param_specs(),
       make<Compound>,
       {}},
      {"cubic", "CUBIC: cubic growth around the last maximum, TCP-friendly region (RFC 8312)", Cubic::param_specs(),
       make<Cubic>, Cubic::check},
      {"vegas", "TCP Vegas: +/-1 packet per RTT to keep alpha..beta packets queued (Brakmo & Peterson 1995)",
       Vegas::param_specs(), make<Vegas>, Vegas::check},
      {"quick-vegas",
       "Quick Vegas: Vegas with history-based per-ACK increments, adjusting every other RTT (Chan et al.)",
       QuickVegas::param_specs(), make<QuickVegas>, Vegas::check},
      {"fast",
       "FAST TCP: w <- min(2w, (1-gamma)w + gamma(baseRTT/avgRTT w + alpha)) every other RTT (Jin, Wei, Low 2004); "
       "persistent-congestion remedies",
       Fast::param_specs(), make<Fast>, Fast::check},
      {"bbr",
       "BBR v1: paces at the estimated bottleneck bandwidth, cwnd 2 BDP; Startup, Drain, ProbeBW, ProbeRTT "
       "(Cardwell et al. 2016; Linux tcp_bbr.c)",
       Bbr::param_specs(), make<Bbr>, Bbr::check},
      {"dctcp",
       "DCTCP: Reno growth, cwnd (1 - alpha/2) once per window with ECN marks, alpha the marked fraction "
       "(RFC 8257); turns ECN on",
       Dctcp::param_specs(),
       make<Dctcp>,
       {}},
  };
  return table;
}

const AlgorithmInfo* find_algorithm(const std::string& name) {
  for (const auto& a : algorithms()) {
    if (a.name == name)
      return &a;
  }
  return nullptr;
}

std::string algorithm_names() {
  std::string out;
  for (const auto& a : algorithms()) {
    if (!out.empty())
      out += ", ";
    out += a.name;
  }
  return out;
}

}  // namespace fastsim::cc
