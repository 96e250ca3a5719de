// The scenario's "flows" array: TCP flows, bulk or finite, each with its algorithm and
// TCP settings, its timing (optionally jittered per replica), an optional on/off
// application and a socket-buffer cap, placed like every traffic source and replicated
// by `count`.
#include <algorithm>

#include <fmt/format.h>

#include "fastsim/core/rng.hpp"
#include "parse_parts.hpp"

namespace fastsim::config::detail {

using nlohmann::json;

namespace {

std::optional<OnOffPeriods> read_on_off(Reader& flow) {
  const json* j = flow.get("on_off");
  if (j == nullptr)
    return std::nullopt;
  Reader r(*j, flow.path_of("on_off"), flow.issues(), "on_off");
  auto on = r.duration("on", true, true);
  auto off = r.duration("off", true, true);
  r.finish();
  if (!on || !off)
    return std::nullopt;
  return OnOffPeriods{*on, *off};
}

/// A cap on the data in flight: the smaller of it and the receive window applies.
void cap_window(tcp::TcpConfig& tcp, uint64_t max_window_bytes) {
  const uint64_t segs = std::max<uint64_t>(1, max_window_bytes / tcp.mss);
  tcp.receive_window = tcp.receive_window == 0 ? segs : std::min(tcp.receive_window, segs);
}

/// Flow "/flows/i": its `count` replicas go into s.flows, its algorithm and parameters
/// into resolved["flows"][i].
void read_flow(Reader& fr, size_t i, Scenario& s, TrafficContext& ctx, json& resolved) {
  FlowSpec f;
  f.id = fr.id("id", true).value_or("");
  f.json_index = i;
  json params_echo;
  const std::optional<tcp::Stack> own_stack = read_stack(fr);
  const tcp::Stack stack = effective_stack(own_stack, ctx.defaults);
  const cc::AlgorithmInfo* algo = read_algorithm(fr, f, params_echo, stack);
  Timing timing = read_timing(fr);
  f.size_bytes = fr.size("size");
  const std::optional<int64_t> count = read_count(fr);
  timing.start_jitter = fr.duration("start_jitter");
  const std::optional<uint64_t> max_window = fr.size("max_window");
  f.on_off = read_on_off(fr);
  const std::optional<Placement> placement = read_placement(fr, ctx.topology, ctx.node_ids, "flow");
  f.tcp = read_sender_tcp(fr, ctx.defaults, own_stack).resolved();
  if (max_window)
    cap_window(f.tcp, *max_window);
  fr.finish();
  if (!fr.is_object())
    return;
  check_timing(fr, timing, ctx.duration);
  f.start = timing.start;
  f.stop = timing.stop;

  json& echo = resolved["flows"][i];
  echo["algorithm"] = f.algorithm;
  echo["stack"] = tcp::stack_name(stack);
  if (algo != nullptr)
    echo["params"] = params_echo;

  const std::optional<Duration> jitter = timing.start_jitter;
  for (std::string& id : replica_ids(fr, f.id, count, ctx)) {
    FlowSpec copy = f;
    copy.id = std::move(id);
    if (jitter && *jitter > Duration::zero()) {  // seeded per flow id: replicas differ, reruns do not
      RandomStream rng(ctx.seed, "start_jitter/" + copy.id);
      copy.start += Duration::picoseconds(static_cast<int64_t>(rng.uniform() * static_cast<double>(jitter->ps())));
    }
    if (placement)
      place(s, ctx.topology, *placement, copy);
    s.flows.push_back(std::move(copy));
  }
}

}  // namespace

void read_flows(Reader& top, Scenario& s, TrafficContext& ctx, json& resolved) {
  const json* flows = top.get("flows");
  // Flows may be left out when other traffic (UDP sources, arrivals) is given.
  const bool other_traffic = top.get("arrivals") != nullptr || top.get("udp") != nullptr;
  if (flows == nullptr) {
    if (!other_traffic)
      top.error("flows", "missing required key (expected a non-empty array of flows, \"udp\" or \"arrivals\")");
    return;
  }
  if (!flows->is_array() || (flows->empty() && !other_traffic)) {
    top.error("flows", fmt::format("expected a non-empty array of flows, got {}", flows->dump()));
    return;
  }
  for (size_t i = 0; i < flows->size(); ++i) {
    Reader fr((*flows)[i], fmt::format("/flows/{}", i), top.issues(), "flow");
    read_flow(fr, i, s, ctx, resolved);
  }
}

}  // namespace fastsim::config::detail
