// Robustness: random mutations of valid scenarios either parse or fail with a
// ScenarioError naming a JSON path, and whatever parses runs; nothing else may be thrown,
// and the sanitizer build runs this too.
#include <catch2/catch.hpp>

#include <fstream>
#include <random>
#include <sstream>

#include "../support/helpers.hpp"

using nlohmann::json;

namespace {

json load(const std::string& name) {
  std::ifstream in(std::string(FASTSIM_SOURCE_DIR) + "/configs/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return json::parse(ss.str());
}

/// Every JSON pointer in a document.
void pointers(const json& j, const std::string& at, std::vector<std::string>& out) {
  out.push_back(at);
  if (j.is_object()) {
    for (const auto& [k, v] : j.items())
      pointers(v, at + "/" + k, out);
  } else if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i)
      pointers(j[i], at + "/" + std::to_string(i), out);
  }
}

json random_value(std::mt19937_64& rng) {
  static const std::vector<json> values = {json(nullptr),  json(true),          json(0),          json(-1),
                                           json(1e300),    json(-1e-300),       json(0.5),        json(""),
                                           json("0s"),     json("-5ms"),        json("1e9Gbps"),  json("100pkt"),
                                           json("0pkt"),   json("abc"),         json("."),        json::array(),
                                           json::object(), json::array({1, 2}), json({{"x", 1}}), json(4294967296ULL),
                                           json("1.5MB"),  json("100ms"),       json("reno"),     json("r1")};
  return values[rng() % values.size()];
}

}  // namespace

TEST_CASE("mutated scenarios parse or fail cleanly, and what parses runs", "[scenario][robustness]") {
  std::mt19937_64 rng(12345);
  size_t parsed = 0, rejected = 0;
  for (const char* name : {"demo.json", "explicit-path.json"}) {
    const json base = load(name);
    std::vector<std::string> ptrs;
    pointers(base, "", ptrs);
    for (int trial = 0; trial < 300; ++trial) {
      json doc = base;
      const int edits = 1 + static_cast<int>(rng() % 3);
      for (int e = 0; e < edits; ++e) {
        const std::string& p = ptrs[rng() % ptrs.size()];
        if (p.empty())
          continue;
        try {
          if (rng() % 5 == 0) {
            doc.at(json::json_pointer(p).parent_pointer()).erase(json::json_pointer(p).back());
          } else {
            doc[json::json_pointer(p)] = random_value(rng);
          }
        } catch (const json::exception&) {  // the path vanished with an earlier edit
        }
      }
      INFO("scenario: " << doc.dump());
      try {
        fastsim::config::Scenario s = fastsim::config::parse_scenario(doc);
        ++parsed;
        s.duration = std::min(s.duration, fastsim::Duration::milliseconds(50));
        fastsim::run::Experiment exp(s);
        exp.run();
        fastsim::testing::check_conservation(exp);
      } catch (const fastsim::config::ScenarioError& err) {
        ++rejected;
        REQUIRE_FALSE(err.issues().empty());
        for (const auto& issue : err.issues())
          CHECK_FALSE(issue.message.empty());
      }
    }
  }
  INFO("parsed " << parsed << ", rejected " << rejected);
  CHECK(parsed > 20);
  CHECK(rejected > 200);
}
