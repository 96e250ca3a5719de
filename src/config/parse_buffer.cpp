// Buffers given as a fraction of a bandwidth-delay product:
//   "buffer": {"bdp_fraction": F, "of": R}
// BDP = the link's own rate x a round-trip time R, which is either a duration ("80ms")
// or the id of a TCP flow of "/flows", whose base RTT is the sum of the propagation
// delays ("delay") of every link on its data route and on its ACK route (no
// serialization, queueing or host delays). The buffer is F x BDP in bytes, rounded to
// the nearest byte; the resolved scenario shows that byte count in place of the object.
// A duration is resolved when the link is read, a flow once routes are known.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "parse_parts.hpp"

namespace fastsim::config::detail {

using nlohmann::json;

namespace {

/// F x rate x rtt in bytes; nullopt (reported at `key` of `r`) below one byte.
std::optional<uint64_t> bdp_bytes(double fraction, Rate rate, Duration rtt, Issues& issues, const std::string& path) {
  const double bytes = std::round(fraction * static_cast<double>(rate.bps) * rtt.to_seconds() / 8);
  if (!(bytes >= 1) || bytes > static_cast<double>(kMaxSizeBytes)) {
    issues.push_back({path, fmt::format("{} x BDP ({} x {}) is {} bytes: expected 1 byte to {} bytes", fraction,
                                        format_rate(rate), format_duration(rtt), bytes, kMaxSizeBytes)});
    return std::nullopt;
  }
  return static_cast<uint64_t>(bytes);
}

}  // namespace

std::optional<net::BufferLimit> read_link_buffer(Reader& r, std::optional<Rate> rate, std::vector<BdpBuffer>* pending) {
  const json* b = r.get("buffer");
  if (b == nullptr || !b->is_object())
    return r.buffer("buffer", true);
  Reader br(*b, r.path_of("buffer"), r.issues(), "bdp_buffer");
  double f = 0;  // the fraction, > 0 when read
  if (auto v = br.number("bdp_fraction")) {
    if (*v > 0) {
      f = *v;
    } else {
      br.error("bdp_fraction", fmt::format("expected a number > 0 (a fraction of the BDP), got {}", *v));
    }
  }
  auto of = br.string("of");
  br.finish();
  if (f <= 0 || !of || !rate)
    return std::nullopt;
  BdpBuffer request{.path = br.path(), .fraction = f, .of = *of, .rate = *rate, .links = {}, .bytes = 0};
  const auto as_duration = parse_duration(json(*of));
  if (const Duration* rtt = std::get_if<Duration>(&as_duration); rtt != nullptr && *rtt > Duration::zero()) {
    auto bytes = bdp_bytes(f, *rate, *rtt, r.issues(), br.path_of("of"));
    if (!bytes)
      return std::nullopt;
    request.bytes = *bytes;
    if (pending != nullptr)
      pending->push_back(request);  // for the echo
    return net::BufferLimit{0, *bytes};
  }
  if (!valid_id(*of)) {
    br.error("of",
             fmt::format("expected the id of a flow in /flows or a round-trip time like \"80ms\", got \"{}\"", *of));
    return std::nullopt;
  }
  if (pending == nullptr) {  // a caller that cannot resolve a flow's BDP later
    br.error("of", fmt::format("expected a round-trip time like \"80ms\" here, got \"{}\"", *of));
    return std::nullopt;
  }
  pending->push_back(request);
  return net::BufferLimit{0, 1};  // until resolve_bdp_buffers knows the flow's route
}

void resolve_bdp_buffers(Scenario& s, const std::vector<BdpBuffer>& pending, Issues& issues, json& resolved) {
  for (const BdpBuffer& b : pending) {
    uint64_t bytes = b.bytes;
    if (bytes == 0) {  // a flow's base RTT
      const FlowSpec* flow = nullptr;
      std::vector<std::string> ids;
      for (const auto& f : s.flows) {
        ids.push_back(f.id);
        if (f.id == b.of)
          flow = &f;
      }
      if (flow == nullptr) {
        issues.push_back(
            {b.path + "/of", fmt::format("no flow \"{}\": expected a round-trip time like \"80ms\" or one "
                                         "of the flows: {}",
                                         b.of, ids.empty() ? "(none)" : fmt::format("{}", fmt::join(ids, ", ")))});
        continue;
      }
      Duration rtt = Duration::zero();
      for (size_t li : flow->data_links)
        rtt += s.links[li].link.delay;
      for (size_t li : flow->ack_links)
        rtt += s.links[li].link.delay;
      auto v = bdp_bytes(b.fraction, b.rate, rtt, issues, b.path);
      if (!v)
        continue;
      bytes = *v;
      for (auto& l : s.links) {
        if (std::find(b.links.begin(), b.links.end(), l.link.id) != b.links.end())
          l.link.buffer = net::BufferLimit{0, bytes};
      }
    }
    resolved[json::json_pointer(b.path)] = bytes;
  }
}

}  // namespace fastsim::config::detail
