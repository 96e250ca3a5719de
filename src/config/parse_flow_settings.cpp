// Flow-level settings of the scenario parser: TCP settings (defaults and per-flow
// overrides) and congestion-control parameters checked against their specs.
#include <algorithm>

#include <fmt/format.h>

#include "parse_parts.hpp"

namespace fastsim::config::detail {

using nlohmann::json;

void read_tcp(Reader& r, tcp::TcpConfig& cfg, std::optional<uint64_t>& rwnd_bytes) {
  if (auto v = r.integer("mss", 1, 65535))
    cfg.mss = static_cast<uint32_t>(*v);
  if (auto v = r.integer("packet_size", 1, 65535))
    cfg.packet_size = static_cast<uint32_t>(*v);
  if (auto v = r.integer("ack_size", 1, 65535))
    cfg.ack_size = static_cast<uint32_t>(*v);
  if (auto v = r.boolean("delayed_ack"))
    cfg.delayed_ack = *v;
  if (auto v = r.duration("delayed_ack_timeout", false, true))
    cfg.delayed_ack_timeout = *v;
  if (auto v = r.boolean("sack"))
    cfg.sack = *v;
  if (auto v = r.boolean("newreno_impatient"))
    cfg.newreno_impatient = *v;
  if (auto v = r.integer("dupack_threshold", 1, 1000))
    cfg.dupack_threshold = static_cast<uint32_t>(*v);
  if (auto v = r.duration("min_rto", false, true))
    cfg.min_rto = *v;
  if (auto v = r.duration("initial_rto", false, true))
    cfg.initial_rto = *v;
  if (auto v = r.duration("max_rto", false, true))
    cfg.max_rto = *v;
  if (auto v = r.number("initial_window", 1, 1e7))
    cfg.initial_window = *v;
  if (auto v = r.number("initial_ssthresh", 2, cc::kInfiniteSsthresh))
    cfg.initial_ssthresh = *v;
  if (auto v = r.size("receive_window"))
    rwnd_bytes = *v;
}

void check_tcp(Reader& r, const tcp::TcpConfig& cfg) {
  if (cfg.packet_size < cfg.mss) {
    r.error("packet_size", fmt::format("packet_size ({}) must be at least mss ({})", cfg.packet_size, cfg.mss));
  }
  if (cfg.max_rto < cfg.min_rto)
    r.error("max_rto", "max_rto must be at least min_rto");
  if (cfg.initial_rto > cfg.max_rto)
    r.error("initial_rto", "initial_rto must not exceed max_rto");
}

json tcp_to_json(const tcp::TcpConfig& c, std::optional<uint64_t> rwnd_bytes) {
  json j = {{"mss", c.mss},
            {"packet_size", c.packet_size},
            {"ack_size", c.ack_size},
            {"delayed_ack", c.delayed_ack},
            {"delayed_ack_timeout", format_duration(c.delayed_ack_timeout)},
            {"sack", c.sack},
            {"newreno_impatient", c.newreno_impatient},
            {"dupack_threshold", c.dupack_threshold},
            {"min_rto", format_duration(c.min_rto)},
            {"initial_rto", format_duration(c.initial_rto)},
            {"max_rto", format_duration(c.max_rto)},
            {"initial_window", c.initial_window}};
  if (!cc::is_infinite_ssthresh(c.initial_ssthresh))
    j["initial_ssthresh"] = c.initial_ssthresh;
  if (rwnd_bytes)
    j["receive_window"] = *rwnd_bytes;
  return j;
}

cc::ParamValues read_params(Reader& flow, const cc::AlgorithmInfo* algo, json& echo) {
  if (algo == nullptr) {
    flow.allow("params");
    return {};
  }
  cc::ParamValues values = cc::ParamValues::defaults(algo->params);
  const json* p = flow.get("params");
  if (p != nullptr) {
    Reader pr(*p, flow.path_of("params"), flow.issues());
    for (const auto& spec : algo->params) {
      if (!spec.choices.empty()) {
        if (auto v = pr.choice(spec.name, spec.choices))
          values.set_choice(spec.name, spec.choices.at(*v));
      } else if (auto v = pr.number(spec.name, spec.min, spec.max)) {
        values.set(spec.name, *v);
      }
    }
    if (pr.is_object()) {
      for (const auto& [key, value] : p->items()) {
        const bool known = std::any_of(algo->params.begin(), algo->params.end(),
                                       [&](const cc::ParamSpec& s) { return s.name == key; });
        if (!known) {
          std::vector<std::string> names;
          for (const auto& s : algo->params)
            names.push_back(s.name);
          pr.error(key, fmt::format("unknown parameter \"{}\" for algorithm \"{}\"; allowed: {}", key, algo->name,
                                    names.empty() ? "(none)" : fmt::format("{}", fmt::join(names, ", "))));
        }
      }
      if (algo->check) {
        for (const auto& [name, message] : algo->check(values))
          pr.error(name, message);
      }
    }
  }
  json e = json::object();
  for (const auto& spec : algo->params) {
    if (spec.choices.empty()) {
      e[spec.name] = values.get(spec.name);
    } else {
      e[spec.name] = values.choice(spec.name);
    }
  }
  echo = e;
  return values;
}

}  // namespace fastsim::config::detail
