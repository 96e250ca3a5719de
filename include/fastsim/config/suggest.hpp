// "Did you mean" suggestions for misspelt keys, choice values, algorithm names, options
// and commands: the closest candidate by edit distance (optimal string alignment:
// insertions, deletions, substitutions and swaps of neighbours cost 1, letter case is
// ignored), if it is close enough to be a likely typo.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fastsim::config {

/// Edit distance between `a` and `b`, ignoring case; a swap of two neighbours costs 1.
size_t edit_distance(std::string_view a, std::string_view b);

/// The candidate closest to `word` if within the typo budget (1 edit for words up to 4
/// characters, 2 up to 8, 3 beyond); ties go to the first in `candidates`. Nothing for an
/// exact match.
std::optional<std::string> closest(std::string_view word, const std::vector<std::string>& candidates);

/// " (did you mean \"x\"?)" for the closest candidate, "" if there is none.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace fastsim::config
