// The queue and service model of a link, shared by every place a link is described
// (explicit links, the dumbbell's bottleneck and access links, parking-lot hops):
// rate, delay, buffer, random loss, and the optional "dummynet", "red" and "marking" blocks.
#include <fmt/format.h>

#include "parse_parts.hpp"

namespace fastsim::config::detail {

using nlohmann::json;

namespace {

std::optional<net::RedParams> read_red(Reader& link) {
  const json* j = link.get("red");
  if (j == nullptr)
    return std::nullopt;
  Reader r(*j, link.path_of("red"), link.issues(), "red");
  net::RedParams p;
  auto min_th = r.number("min_th");
  auto max_th = r.number("max_th");
  if (!min_th && r.is_object() && r.get("min_th") == nullptr)
    r.error("min_th", "missing required key (RED's lower threshold, packets)");
  if (!max_th && r.is_object() && r.get("max_th") == nullptr)
    r.error("max_th", "missing required key (RED's upper threshold, packets)");
  p.min_th = min_th.value_or(p.min_th);
  p.max_th = max_th.value_or(p.max_th);
  if (auto v = r.number("max_p"))
    p.max_p = *v;
  if (auto v = r.number("weight"))
    p.weight = *v;
  if (auto v = r.boolean("gentle"))
    p.gentle = *v;
  if (auto v = r.integer("mean_packet_size"))
    p.mean_packet_size = static_cast<uint32_t>(*v);
  if (auto v = r.boolean("ecn"))
    p.ecn = *v;
  r.finish();
  if (min_th && max_th && *max_th <= *min_th) {
    r.error("max_th", fmt::format("max_th ({}) must be above min_th ({})", *max_th, *min_th));
    return std::nullopt;
  }
  if (!r.is_object() || !min_th || !max_th)
    return std::nullopt;
  return p;
}

std::optional<net::MarkingParams> read_marking(Reader& link) {
  Reader r(*link.get("marking"), link.path_of("marking"), link.issues(), "marking");
  const auto k = r.integer("threshold_pkts");  // required: the reader reports it missing
  r.finish();
  if (!k)
    return std::nullopt;
  return net::MarkingParams{static_cast<uint64_t>(*k)};
}

}  // namespace

std::optional<net::LinkConfig> read_link_model(Reader& r, const std::string& id, DelayKey delay_key) {
  auto rate = r.rate("rate", true);
  const bool delay_required = delay_key == DelayKey::kRequired;
  std::optional<Duration> delay;
  if (delay_key != DelayKey::kAbsent)
    delay = r.duration("delay", delay_required);
  auto buf = r.buffer("buffer", true);
  auto loss = r.number("loss_rate");
  net::LinkConfig c;
  c.id = id;
  c.rate = rate.value_or(Rate{});
  c.delay = delay.value_or(Duration::zero());
  c.buffer = buf.value_or(net::BufferLimit{});
  c.loss_rate = loss.value_or(0);
  bool ok = rate && (delay || !delay_required) && buf;
  if (const json* d = r.get("dummynet")) {
    Reader dr(*d, r.path_of("dummynet"), r.issues(), "dummynet");
    auto tick = dr.duration("tick", true, true);
    dr.finish();
    if (tick && *tick > Duration::seconds_int(1)) {
      dr.error("tick",
               fmt::format("tick {} is longer than 1s (dummynet ticks are 1/HZ: 1ms, 0.1ms)", format_duration(*tick)));
      tick.reset();
    }
    if (tick) {
      c.tick = *tick;
    } else {
      ok = false;
    }
  }
  if (r.get("red") != nullptr) {
    c.red = read_red(r);
    ok = ok && c.red.has_value();
  }
  if (r.get("marking") != nullptr) {
    c.marking = read_marking(r);
    ok = ok && c.marking.has_value();
  }
  if (!ok)
    return std::nullopt;
  return c;
}

}  // namespace fastsim::config::detail
