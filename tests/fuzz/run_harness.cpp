// Fuzz harness: short runs of valid (mutated) scenarios. The duration is cut to 20 ms and
// a scenario that would still carry many packets or flows is skipped, so each input runs
// in milliseconds; outputs are written (traces, summary.json) to a temporary folder,
// removed after each input.
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "fastsim/config/parse.hpp"
#include "fastsim/run/experiment.hpp"
#include "harness_common.hpp"

namespace fastsim::fuzz {

using nlohmann::json;

namespace {

/// Whether a run of `s` stays small: few flows, few packets the links could carry, few arrivals.
bool small_enough(const config::Scenario& s) {
  if (s.flows.size() + s.udp.size() > 16 || s.links.size() > 64)
    return false;
  uint32_t smallest_packet = 1000;
  for (const auto& u : s.udp)
    smallest_packet = std::min(smallest_packet, u.packet_size);
  double capacity_packets = 0;
  for (const auto& l : s.links)
    capacity_packets +=
        l.link.rate.to_double() * s.duration.to_seconds() / 8.0 / std::max<uint32_t>(smallest_packet, 1);
  if (capacity_packets > 200'000)
    return false;
  double bottleneck_bps = 0;
  for (const auto& l : s.links)
    bottleneck_bps = l.link.id == s.bottleneck ? l.link.rate.to_double() : bottleneck_bps;
  for (const auto& a : s.arrivals) {
    const double per_s =
        a.flows_per_s ? *a.flows_per_s : a.load.value_or(0) * bottleneck_bps / 8.0 / a.size.mean_bytes();
    if (!(per_s * s.duration.to_seconds() <= 200))
      return false;
  }
  return true;
}

}  // namespace

void run_input(const uint8_t* data, size_t size) {
  const auto doc = to_json(data, size);
  if (!doc)
    return;
  std::optional<config::Scenario> s;
  try {
    s = config::parse_scenario(*doc);
  } catch (const config::ScenarioError& e) {
    check_rejection(e);
    return;
  }
  s->duration = std::min(s->duration, Duration::milliseconds(20));
  s->warmup = std::min(s->warmup, s->duration / 2);
  s->sample_interval = std::min(s->sample_interval, s->duration);
  if (!small_enough(*s))
    return;
  static const std::filesystem::path out =
      std::filesystem::temp_directory_path() / ("fastsim-fuzz-run-" + std::to_string(::getpid()));
  run::Experiment exp(*s);
  run::RunOptions options;
  options.out_dir = out.string();
  const auto& r = exp.run(options);  // any exception is a finding: a valid scenario must run
  require(r.sim_time_s <= s->duration.to_seconds() + 1e-9, "the run went past its duration");
  require(std::filesystem::exists(out / "summary.json"), "no summary.json after a successful run");
  std::filesystem::remove_all(out);
}

}  // namespace fastsim::fuzz
