// "Did you mean" suggestions (config/suggest.hpp): edit distance with swaps, case
// ignored, and a budget that keeps unrelated words from being suggested.
#include <catch2/catch.hpp>

#include "fastsim/config/suggest.hpp"

using fastsim::config::closest;
using fastsim::config::did_you_mean;
using fastsim::config::edit_distance;

TEST_CASE("edit distance counts insertions, deletions, substitutions and swaps", "[suggest]") {
  CHECK(edit_distance("", "") == 0);
  CHECK(edit_distance("abc", "") == 3);
  CHECK(edit_distance("bufer", "buffer") == 1);  // insertion
  CHECK(edit_distance("rtts", "rtt") == 1);      // deletion
  CHECK(edit_distance("cubix", "cubic") == 1);   // substitution
  CHECK(edit_distance("delya", "delay") == 1);   // swap of neighbours
  CHECK(edit_distance("alogrithm", "algorithm") == 1);
  CHECK(edit_distance("Cubic", "cubic") == 0);  // case ignored
  CHECK(edit_distance("kitten", "sitting") == 3);
}

TEST_CASE("the closest candidate is suggested only when it is a likely typo", "[suggest]") {
  const std::vector<std::string> keys = {"rate", "delay", "buffer", "loss_rate", "dummynet", "red"};
  CHECK(closest("bufer", keys) == "buffer");
  CHECK(closest("lossrate", keys) == "loss_rate");
  CHECK(closest("dely", keys) == "delay");
  CHECK_FALSE(closest("queue", keys));    // nothing close
  CHECK_FALSE(closest("buffer", keys));   // an exact match needs no suggestion
  CHECK_FALSE(closest("xyz", {"abc"}));   // 3 edits on a 3-letter word: unrelated
  CHECK(closest("rat", keys) == "rate");  // ties go to the first candidate ("rate", "red")
  CHECK(did_you_mean("algoritm", {"algorithm", "params"}) == " (did you mean \"algorithm\"?)");
  CHECK(did_you_mean("zzzz", {"algorithm"}).empty());
}
