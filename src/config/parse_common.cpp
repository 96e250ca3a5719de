// What flows, UDP sources and arrival processes read alike: when they are active
// ("start", "stop", a flow's "start_jitter") checked against the run's length, their
// `count` replicas, and their ids, taken from one namespace with one duplicate check.
#include <fmt/format.h>

#include "parse_parts.hpp"

namespace fastsim::config::detail {

using nlohmann::json;

Timing read_timing(Reader& r) {
  Timing t;
  t.start = r.duration("start").value_or(Duration::zero());
  t.stop = r.duration("stop");
  return t;
}

void check_timing(Reader& r, const Timing& t, std::optional<Duration> duration) {
  if (duration && t.start >= *duration) {
    r.error("start", fmt::format("start {} is not before the end of the run ({})", format_duration(t.start),
                                 format_duration(*duration)));
  }
  if (t.stop && *t.stop <= t.start) {
    r.error("stop", fmt::format("stop {} must be after start {}", format_duration(*t.stop), format_duration(t.start)));
  }
  if (!t.start_jitter)
    return;
  const Duration latest = t.start + *t.start_jitter;
  if (duration && latest >= *duration) {
    r.error("start_jitter",
            fmt::format("start {} + start_jitter {} reaches the end of the run ({})", format_duration(t.start),
                        format_duration(*t.start_jitter), format_duration(*duration)));
  }
  if (t.stop && *t.stop <= latest) {
    r.error("start_jitter", fmt::format("start {} + start_jitter {} reaches stop {}", format_duration(t.start),
                                        format_duration(*t.start_jitter), format_duration(*t.stop)));
  }
}

std::optional<int64_t> read_count(Reader& r) {
  return r.integer("count");
}

bool claim_id(Reader& r, const std::string& id, TrafficContext& ctx) {
  if (id.empty() || ctx.ids.insert(id).second)
    return true;  // (a missing or invalid id is reported where it is read)
  r.error("id", fmt::format("duplicate id \"{}\" (flows, UDP sources and arrivals share one namespace)", id));
  return false;
}

std::vector<std::string> replica_ids(Reader& r, const std::string& id, std::optional<int64_t> count,
                                     TrafficContext& ctx) {
  std::vector<std::string> ids;
  for (int64_t k = 0; k < count.value_or(1); ++k) {
    std::string replica = count ? fmt::format("{}-{}", id, k) : id;
    if (!claim_id(r, replica, ctx))
      break;
    ids.push_back(std::move(replica));
  }
  return ids;
}

const json* read_list(Reader& top, const std::string& key, const char* what) {
  const json* list = top.get(key);
  if (list != nullptr && !list->is_array()) {
    top.error(key, fmt::format("expected an array of {}, got {}", what, list->dump()));
    return nullptr;
  }
  return list;
}

}  // namespace fastsim::config::detail
