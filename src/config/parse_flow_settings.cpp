// Settings every TCP sender of a scenario takes (flows and arrival processes): the
// congestion-control algorithm with its parameters checked against their specs, and
// the TCP settings ("defaults" and per-flow overrides) read, checked and echoed from
// the table in tcp/tcp_settings.hpp.
#include <algorithm>
#include <variant>

#include <fmt/format.h>

#include "fastsim/config/suggest.hpp"
#include "fastsim/tcp/tcp_settings.hpp"
#include "parse_parts.hpp"

namespace fastsim::config::detail {

using nlohmann::json;

namespace {

template <class... Fns>
struct Overloaded : Fns... {
  using Fns::operator()...;
};
template <class... Fns>
Overloaded(Fns...) -> Overloaded<Fns...>;

/// Checks "params" against the algorithm's specs, defaults taken under `stack`; `echo`
/// receives every value.
cc::ParamValues read_params(Reader& flow, const cc::AlgorithmInfo* algo, json& echo, tcp::Stack stack) {
  if (algo == nullptr) {
    flow.allow("params");
    return {};
  }
  cc::ParamValues values = cc::ParamValues::defaults(algo->params);
  tcp::apply_stack_params(stack, algo->name, values);
  const json* p = flow.get("params");
  if (p != nullptr) {
    Reader pr(*p, flow.path_of("params"), flow.issues());
    for (const auto& spec : algo->params) {
      if (!spec.choices.empty()) {
        if (auto v = pr.choice(spec.name, spec.choices))
          values.set_choice(spec.name, spec.choices.at(*v));
      } else if (cc::is_duration_param(spec)) {
        if (auto v = pr.seconds(spec.name, spec.min, spec.max))
          values.set(spec.name, *v);
      } else if (cc::is_switch_param(spec)) {
        if (auto v = pr.switch_value(spec.name))
          values.set(spec.name, *v ? 1 : 0);
      } else if (auto v = pr.number(spec.name, spec.min, spec.max)) {
        values.set(spec.name, *v);
      }
    }
    if (pr.is_object()) {
      for (const auto& [key, value] : p->items()) {
        const bool known = std::any_of(algo->params.begin(), algo->params.end(),
                                       [&key = key](const cc::ParamSpec& s) { return s.name == key; });  // clang 14
        if (!known) {
          std::vector<std::string> names;
          for (const auto& s : algo->params)
            names.push_back(s.name);
          pr.error(key, fmt::format("unknown parameter \"{}\"{} for algorithm \"{}\"; allowed: {}", key,
                                    did_you_mean(key, names), algo->name,
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
    if (cc::is_switch_param(spec)) {
      e[spec.name] = values.get(spec.name) != 0;  // as a switch is given: the echo reads back
    } else if (spec.choices.empty()) {
      e[spec.name] = values.get(spec.name);
    } else {
      e[spec.name] = values.choice(spec.name);
    }
  }
  echo = e;
  return values;
}

}  // namespace

tcp::TcpConfig TcpSettings::resolved() const {
  tcp::TcpConfig c = cfg;
  if (receive_window_bytes)
    c.receive_window = std::max<uint64_t>(1, *receive_window_bytes / c.mss);
  return c;
}

std::optional<tcp::Stack> read_stack(Reader& r) {
  if (auto v = r.choice("stack"))
    return tcp::kStacks[*v];
  return std::nullopt;
}

tcp::Stack effective_stack(std::optional<tcp::Stack> own, const TcpSettings& defaults) {
  return own.value_or(defaults.stack.value_or(tcp::kDefaultStack));
}

void read_tcp(Reader& r, TcpSettings& s) {
  tcp::TcpConfig& cfg = s.cfg;
  for (const tcp::TcpSetting& setting : tcp::tcp_settings()) {
    const std::string key(setting.name);
    const bool set = std::visit(
        Overloaded{[&](uint32_t tcp::TcpConfig::*m) {
                     auto v = r.integer(key, static_cast<int64_t>(setting.min), static_cast<int64_t>(setting.max));
                     if (v)
                       cfg.*m = static_cast<uint32_t>(*v);
                     return v.has_value();
                   },
                   [&](bool tcp::TcpConfig::*m) {
                     auto v = r.boolean(key);
                     if (v)
                       cfg.*m = *v;
                     return v.has_value();
                   },
                   [&](Duration tcp::TcpConfig::*m) {
                     auto v = r.duration(key, false, !setting.zero_ok);
                     if (v)
                       cfg.*m = *v;
                     return v.has_value();
                   },
                   [&](double tcp::TcpConfig::*m) {
                     auto v = r.number(key, setting.min, setting.max);
                     if (v)
                       cfg.*m = *v;
                     return v.has_value();
                   },
                   [&](uint64_t tcp::TcpConfig::*) {  // bytes until the mss is known (resolved())
                     auto v = r.size(key);
                     if (v)
                       s.receive_window_bytes = *v;
                     return false;  // carried by receive_window_bytes
                   }},
        setting.member);
    if (set)
      s.given.push_back(&setting);
  }
}

TcpSettings resolve_tcp(const TcpSettings& defaults, const TcpSettings& own) {
  TcpSettings out;
  out.stack = effective_stack(own.stack, defaults);
  out.cfg = tcp::stack_config(*out.stack);
  for (const TcpSettings* layer : {&defaults, &own}) {
    for (const tcp::TcpSetting* setting : layer->given)
      std::visit([&](auto m) { out.cfg.*m = layer->cfg.*m; }, setting->member);
    if (layer->receive_window_bytes)
      out.receive_window_bytes = layer->receive_window_bytes;
  }
  return out;
}

TcpSettings read_sender_tcp(Reader& r, const TcpSettings& defaults, std::optional<tcp::Stack> own_stack) {
  TcpSettings own;
  own.stack = own_stack;
  read_tcp(r, own);
  TcpSettings out = resolve_tcp(defaults, own);
  // Without own settings or stack the sender has the defaults' settings, checked there.
  if (own.stack || !own.given.empty())
    check_tcp(r, out);
  return out;
}

void check_tcp(Reader& r, const TcpSettings& s) {
  const tcp::TcpConfig& cfg = s.cfg;
  // A value the scenario did not give comes from the stack profile: say so.
  const std::string from = s.stack ? fmt::format(" (stack {})", tcp::stack_name(*s.stack)) : "";
  if (cfg.packet_size < cfg.mss) {
    r.error("packet_size", fmt::format("packet_size ({}) must be at least mss ({})", cfg.packet_size, cfg.mss));
  }
  if (cfg.max_rto < cfg.min_rto) {
    r.error("max_rto", fmt::format("max_rto ({}) must be at least min_rto ({}){}", format_duration(cfg.max_rto),
                                   format_duration(cfg.min_rto), from));
  }
  if (cfg.initial_rto > cfg.max_rto) {
    r.error("initial_rto", fmt::format("initial_rto ({}) must not exceed max_rto ({}){}",
                                       format_duration(cfg.initial_rto), format_duration(cfg.max_rto), from));
  }
  // ns-2's RTO is at least two ticks: a tick past max_rto / 2 would exceed the cap.
  if (cfg.rto_granularity.ps() > cfg.max_rto.ps() / 2) {
    r.error("rto_granularity", fmt::format("rto_granularity ({}) must be at most half of max_rto ({}){}",
                                           format_duration(cfg.rto_granularity), format_duration(cfg.max_rto), from));
  }
}

json tcp_to_json(const TcpSettings& s) {
  json j = json::object();
  for (const tcp::TcpSetting& setting : tcp::tcp_settings()) {
    const std::string key(setting.name);
    std::visit(Overloaded{[&](Duration tcp::TcpConfig::*m) { j[key] = format_duration(s.cfg.*m); },
                          [&](double tcp::TcpConfig::*m) {
                            if (setting.unlimited_from == 0 || s.cfg.*m < setting.unlimited_from)
                              j[key] = s.cfg.*m;
                          },
                          [&](uint64_t tcp::TcpConfig::*) {
                            if (s.receive_window_bytes)
                              j[key] = *s.receive_window_bytes;
                          },
                          [&](auto m) { j[key] = s.cfg.*m; }},
               setting.member);
  }
  if (s.stack)
    j["stack"] = tcp::stack_name(*s.stack);
  return j;
}

const cc::AlgorithmInfo* read_algorithm(Reader& r, FlowSpec& f, json& params_echo, tcp::Stack stack) {
  f.algorithm = r.string("algorithm").value_or("reno");
  const cc::AlgorithmInfo* algo = cc::find_algorithm(f.algorithm);
  if (algo == nullptr) {
    std::vector<std::string> names;
    for (const auto& a : cc::algorithms())
      names.push_back(a.name);
    r.error("algorithm", fmt::format("unknown algorithm \"{}\"{}; allowed: {}", f.algorithm,
                                     did_you_mean(f.algorithm, names), cc::algorithm_names()));
  }
  f.params = read_params(r, algo, params_echo, stack);
  return algo;
}

}  // namespace fastsim::config::detail
