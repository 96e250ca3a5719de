// "/output": optional outputs. "/output/packet_trace" names the flows and links whose
// per-packet events are traced and the links captured as pcap (trace/packet_trace.hpp);
// an id that is not there is an issue at its JSON path listing the ids there are.
#include <algorithm>

#include <fmt/format.h>

#include "fastsim/config/suggest.hpp"
#include "parse_parts.hpp"

namespace fastsim::config::detail {

using nlohmann::json;

/// The allowed ids for a message: all of them, or the first 20 and how many more.
std::string id_list(const std::vector<std::string>& ids) {
  constexpr size_t kShown = 20;
  std::string out;
  for (size_t i = 0; i < std::min(ids.size(), kShown); ++i)
    out += (i == 0 ? "" : ", ") + ids[i];
  if (ids.size() > kShown)
    out += fmt::format(", ... ({} in all)", ids.size());
  return ids.empty() ? "none" : out;
}

/// Reads `key` of `r` (an array of ids among `ids`) into indices of `ids`, in the order
/// given, without repeats.
std::vector<size_t> read_ids(Reader& r, const std::string& key, const std::vector<std::string>& ids, const char* what) {
  std::vector<size_t> out;
  const json* v = r.get(key);
  if (v == nullptr)
    return out;
  if (!v->is_array() || !std::all_of(v->begin(), v->end(), [](const json& x) { return x.is_string(); })) {
    r.error(key, fmt::format("expected an array of {} ids, got {}", what, v->dump()));
    return out;
  }
  for (size_t i = 0; i < v->size(); ++i) {
    const auto id = (*v)[i].get<std::string>();
    const auto it = std::find(ids.begin(), ids.end(), id);
    if (it == ids.end()) {
      r.issues().push_back(
          {fmt::format("{}/{}", r.path_of(key), i),
           fmt::format("no {} \"{}\"{}; the {}s are: {}", what, id, did_you_mean(id, ids), what, id_list(ids))});
      continue;
    }
    const auto index = static_cast<size_t>(it - ids.begin());
    if (std::find(out.begin(), out.end(), index) == out.end())
      out.push_back(index);
  }
  return out;
}

void read_output(Reader& top, Scenario& s) {
  const json* o = top.get("output");
  if (o == nullptr)
    return;
  Reader out(*o, top.path_of("output"), top.issues(), "output");
  if (!out.is_object())
    return;
  if (const json* pt = out.get("packet_trace")) {
    Reader r(*pt, out.path_of("packet_trace"), top.issues(), "packet_trace");
    if (r.is_object()) {
      std::vector<std::string> flow_ids, link_ids;
      for (const auto& f : s.flows)
        flow_ids.push_back(f.id);
      for (const auto& l : s.links)
        link_ids.push_back(l.link.id);
      s.packet_trace.flows = read_ids(r, "flows", flow_ids, "flow");
      s.packet_trace.links = read_ids(r, "links", link_ids, "link");
      s.packet_trace.pcap = read_ids(r, "pcap", link_ids, "link");
      r.finish();
    }
  }
  out.finish();
}

}  // namespace fastsim::config::detail
