// summary.json written as a stream: the document without its per-flow arrays (a
// skeleton) and those arrays produced one element at a time, so that at 10 000 flows the
// whole document is never held in memory. The bytes are those of summary_json() dumped
// with an indent of 2 and a final newline.
#pragma once

#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "fastsim/run/results.hpp"

namespace fastsim::run {

/// Receives one element of a summary array.
using SummaryElement = std::function<void(const nlohmann::json&)>;
/// The summary's per-flow arrays ("flows", "intervals", "completed_flows"), by key: each
/// produces its elements in order, one at a time.
using SummaryArrays = std::map<std::string, std::function<void(const SummaryElement&)>>;

/// summary_json() with the arrays named in `arrays` left empty in the document and
/// produced by `arrays` instead (they refer to `result`, which must outlive them).
nlohmann::json summary_skeleton(const config::Scenario& scenario, const RunResult& result, std::string_view version,
                                SummaryArrays& arrays);

/// Writes the bytes of `std::setw(2) << summary_json(...) << '\n'` from a skeleton and its
/// arrays, holding one array element at a time.
void write_summary(std::ostream& out, const nlohmann::json& skeleton, const SummaryArrays& arrays);

}  // namespace fastsim::run
