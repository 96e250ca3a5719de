// The scenario's "arrivals" array: Poisson arrivals of finite TCP flows with a size
// distribution and a mix of paths (RTT classes) with weights (traffic/flow_arrivals.hpp).
#include <algorithm>

#include <map>

#include <fmt/format.h>

#include "parse_parts.hpp"

namespace fastsim::config::detail {

using nlohmann::json;

namespace {

/// The most arrivals per second (the range of an arrival's "rate" in the key table).
double max_arrivals_per_second() {
  return find_key(object_spec("arrival"), "rate")->max;
}

std::optional<SizeDistribution> read_size(Reader& a) {
  const json* j = a.get("size");
  if (j == nullptr) {
    a.error("size",
            "missing required key (expected {\"distribution\": \"fixed\" | \"exponential\" | \"pareto\" | "
            "\"bounded_pareto\", ...})");
    return std::nullopt;
  }
  Reader r(*j, a.path_of("size"), a.issues(), "size_distribution");
  using Kind = SizeDistribution::Kind;
  SizeDistribution d;
  const auto kind = r.choice("distribution");
  if (!kind && r.is_object() && r.get("distribution") == nullptr)
    r.error("distribution", "missing required key (\"fixed\", \"exponential\", \"pareto\" or \"bounded_pareto\")");
  bool ok = kind.has_value();
  d.kind = static_cast<Kind>(kind.value_or(0));
  if (kind && d.kind == Kind::kBoundedPareto) {
    auto min = r.size("min", true);
    auto max = r.size("max", true);
    ok = ok && min && max;
    if (min && max && *max <= *min) {
      r.error("max", fmt::format("max ({} B) must be above min ({} B)", *max, *min));
      ok = false;
    }
    d.min = static_cast<double>(min.value_or(1));
    d.max = static_cast<double>(max.value_or(2));
  } else if (kind) {
    auto mean = r.size("mean", true);  // fixed: the size itself
    ok = ok && mean;
    d.mean = static_cast<double>(mean.value_or(1));
  }
  if (kind && (d.kind == Kind::kPareto || d.kind == Kind::kBoundedPareto)) {
    auto shape = r.number("shape");
    if (!shape && r.get("shape") == nullptr)
      r.error("shape", "missing required key (the Pareto shape)");
    if (shape && d.kind == Kind::kPareto && *shape <= 1) {
      r.error("shape", fmt::format("shape {} gives an infinite mean: a Pareto size needs shape > 1", *shape));
      shape.reset();
    } else if (shape && *shape <= 0) {
      r.error("shape", "shape must be positive");
      shape.reset();
    }
    ok = ok && shape;
    d.shape = shape.value_or(2);
  }
  r.finish();
  if (!ok || !r.is_object())
    return std::nullopt;
  return d;
}

}  // namespace

void read_arrivals(Reader& top, Scenario& s, TrafficContext& ctx) {
  const json* list = read_list(top, "arrivals", "arrival processes");
  for (size_t i = 0; list != nullptr && i < list->size(); ++i) {
    Reader r((*list)[i], fmt::format("/arrivals/{}", i), top.issues(), "arrival");
    ArrivalSpec a;
    a.id = r.id("id", true).value_or("");
    a.json_index = i;
    FlowSpec tmpl;
    tmpl.json_index = i;
    json params_echo;  // (arrival processes echo no parameters)
    const std::optional<tcp::Stack> own_stack = read_stack(r);
    read_algorithm(r, tmpl, params_echo, effective_stack(own_stack, ctx.defaults));
    a.flows_per_s = r.number("rate");
    a.load = r.number("load");
    if ((r.get("rate") != nullptr) == (r.get("load") != nullptr) && r.is_object())  // (bad values: reported above)
      r.error("", "give exactly one of \"rate\" (flows per second) and \"load\" (fraction of the bottleneck rate)");
    auto size = read_size(r);
    const Timing timing = read_timing(r);
    a.start = timing.start;
    a.stop = timing.stop;
    a.traces = r.boolean("traces").value_or(false);
    tmpl.tcp = read_sender_tcp(r, ctx.defaults, own_stack).resolved();

    // Paths: a list of placements with weights, or the placement keys on the process itself.
    std::vector<std::pair<Placement, double>> paths;
    bool paths_ok = true;
    if (const json* pl = r.get("paths")) {
      if (!pl->is_array() || pl->empty()) {
        r.error("paths", fmt::format("expected a non-empty array of paths, got {}", pl->dump()));
        paths_ok = false;
      } else {
        for (size_t k = 0; k < pl->size(); ++k) {
          Reader pr((*pl)[k], fmt::format("/arrivals/{}/paths/{}", i, k), top.issues(), "path");
          const double w = pr.number("weight").value_or(1.0);
          auto p = read_placement(pr, ctx.topology, ctx.node_ids, "path");
          pr.finish();
          if (p) {
            paths.emplace_back(*p, w);
          } else {
            paths_ok = false;
          }
        }
      }
    } else if (auto p = read_placement(r, ctx.topology, ctx.node_ids, "arrival process")) {
      paths.emplace_back(*p, 1.0);
    } else {
      paths_ok = false;
    }
    r.finish();
    if (!r.is_object() || !paths_ok || !size)
      continue;
    a.size = *size;
    check_timing(r, timing, ctx.duration);
    if (!claim_id(r, a.id, ctx))
      continue;
    for (size_t k = 0; k < paths.size(); ++k) {
      FlowSpec p = tmpl;
      p.id = paths.size() == 1 ? a.id : fmt::format("{}.{}", a.id, k);
      // A path's hosts and links are named after it: its id must not be another's.
      if (paths.size() > 1 && !ctx.ids.insert(p.id).second) {
        r.error("paths", fmt::format("path id \"{}\" (named after the process) is already a flow, UDP source or "
                                     "arrival id",
                                     p.id));
        continue;
      }
      place(s, ctx.topology, paths[k].first, p);
      a.paths.push_back(std::move(p));
      a.weights.push_back(paths[k].second);
    }
    s.arrivals.push_back(std::move(a));
  }
  // Both trace files of a process go into arrivals/: <id>.csv and, with traces, <id>-flows.csv.
  std::map<std::string, const ArrivalSpec*> by_id;
  for (const ArrivalSpec& a : s.arrivals)
    by_id.emplace(a.id, &a);
  for (const ArrivalSpec& traced : s.arrivals) {
    if (!traced.traces)
      continue;
    if (const auto it = by_id.find(traced.id + "-flows"); it != by_id.end()) {
      top.issues().push_back(
          {fmt::format("/arrivals/{}/id", it->second->json_index),
           fmt::format("\"{}\" would write arrivals/{}.csv, the flow trace of arrival process \"{}\" (\"traces\": "
                       "true): choose another id",
                       it->first, it->first, traced.id)});
    }
  }
}

void check_arrival_loads(const Scenario& s, Issues& issues) {
  const auto bottleneck =
      std::find_if(s.links.begin(), s.links.end(), [&](const LinkSpec& l) { return l.link.id == s.bottleneck; });
  for (const ArrivalSpec& a : s.arrivals) {
    if (!a.load)
      continue;
    const double rate = *a.load * bottleneck->link.rate.to_double() / (8.0 * a.size.mean_bytes());
    if (rate > max_arrivals_per_second()) {
      issues.push_back({fmt::format("/arrivals/{}/load", a.json_index),
                        fmt::format("load {} of {} with a mean size of {:.6g} B is {:.3g} arrivals per second; at most "
                                    "1e5 are allowed",
                                    *a.load, format_rate(bottleneck->link.rate), a.size.mean_bytes(), rate)});
      return;
    }
  }
}

}  // namespace fastsim::config::detail
