// The one table of congestion-control algorithms (see registry.hpp).
#include "fastsim/cc/registry.hpp"

#include "fastsim/cc/reno.hpp"

namespace fastsim::cc {

namespace {
template <class Algo>
std::unique_ptr<CongestionControl> make(const ParamValues& p) {
  return std::make_unique<Algo>(p);
}
}  // namespace

const std::vector<AlgorithmInfo>& algorithms() {
  static const std::vector<AlgorithmInfo> table = {
      {"reno", "Reno/NewReno AIMD: +1 packet per RTT, halve on loss (RFC 5681)", Reno::param_specs(), make<Reno>},
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
