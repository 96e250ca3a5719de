// Hostile input: JSON nested far too deep (every JSON input: scenario, sweep spec and its
// base, baseline, --set values and paths, summaries read back by collect), --set values
// that are not UTF-8, and a --set aimed at the root. Each fails cleanly (exit 1, the file
// or option named) instead of crashing or running to a useless end.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "../support/helpers.hpp"
#include "fastsim/sweep/check.hpp"

namespace fs = std::filesystem;
using fastsim::config::kMaxJsonDepth;
using fastsim::config::ScenarioError;
using fastsim::testing::run_command;
using fastsim::testing::temp_dir;
using nlohmann::json;

namespace {

const std::string kBinary = FASTSIM_BINARY;
const std::string kSource = FASTSIM_SOURCE_DIR;
const std::string kDemo = kSource + "/configs/demo.json";

/// `levels` arrays (or objects {"a": ...}) inside each other: 100 000 levels is a 200 KB
/// (600 KB) file whose recursive copy or print overflows the stack.
std::string nested(int levels, bool objects) {
  std::string s;
  for (int i = 0; i < levels; ++i)
    s += objects ? "{\"a\":" : "[";
  s += objects ? "1" : "";
  for (int i = 0; i < levels; ++i)
    s += objects ? "}" : "]";
  return s;
}

fs::path write(const fs::path& p, const std::string& text) {
  std::ofstream(p) << text;
  return p;
}

const char* kShort = R"({"name": "h", "duration": "1s", "seed": 1,
  "topology": {"dumbbell": {"bottleneck": {"rate": "10Mbps", "delay": "1ms", "buffer": "100pkt"},
                            "access": {"rate": "1Gbps", "buffer": "1000pkt"}}},
  "flows": [{"id": "a", "rtt": "20ms"}]})";

}  // namespace

TEST_CASE("JSON nests at most 64 levels: 64 parse, 65 are rejected", "[unit][hostile]") {
  REQUIRE(kMaxJsonDepth == 64);
  for (bool objects : {false, true}) {
    const json ok = fastsim::config::parse_json_text(nested(kMaxJsonDepth, objects), "t.json");
    CHECK(fastsim::config::json_depth(ok) == kMaxJsonDepth);
    try {
      (void)fastsim::config::parse_json_text(nested(kMaxJsonDepth + 1, objects), "t.json");
      FAIL("65 levels were accepted");
    } catch (const ScenarioError& e) {
      CHECK_THAT(e.what(), Catch::Contains("\"t.json\" nests arrays and objects more than 64 levels deep"));
    }
  }
  // Inside a scenario-like document the limit counts from the top.
  CHECK_THROWS_AS(fastsim::config::parse_json_text("{\"flows\": " + nested(kMaxJsonDepth, false) + "}", "t"),
                  ScenarioError);
}

TEST_CASE("the bounded parser builds the document nlohmann's parser builds", "[unit][hostile]") {
  // Every kind of value, nested arrays and objects, empty ones, a value after a closed
  // container, escapes, large and negative numbers; and 100 000 objects in one array (the
  // callback parser used before rescanned the array at every closing object: 19 s for 320 000).
  const std::string text = R"({"a": [1, -2, 3.5, 1e300, 18446744073709551615, true, false, null, "s\u00e9\n"],
    "b": {"c": {}, "d": [], "e": [[1, 2], {"f": [3]}, 4], "g": "after"}, "h": [{"i": 1}, {"j": [{}]}], "": 0})";
  CHECK(fastsim::config::parse_json_text(text, "t") == json::parse(text));
  std::string many = "[";
  for (int i = 0; i < 100000; ++i)
    many += i == 0 ? "{\"k\": 0}" : ", {\"k\": " + std::to_string(i) + "}";
  many += "]";
  const json doc = fastsim::config::parse_json_text(many, "t");
  REQUIRE(doc.size() == 100000);
  CHECK(doc[99999]["k"] == 99999);
  CHECK(doc == json::parse(many));
  CHECK_THROWS_WITH(fastsim::config::parse_json_text(R"({"a": 1, "b": {"a": 1, "a": 2}})", "t"),
                    Catch::Contains("the key \"a\" appears twice in one object"));
  CHECK_THROWS_WITH(fastsim::config::parse_json_text("[1, 2", "t"), Catch::Contains("is not valid JSON"));
  CHECK_THROWS_WITH(fastsim::config::parse_json_text("[1e400]", "t"), Catch::Contains("past the range of a double"));
  // On the command line a number out of range is refused too, not taken as the string "1e400".
  json scenario = json::parse(kShort);
  CHECK_THROWS_WITH(fastsim::config::apply_overrides(scenario, {"/duration=1e400"}),
                    Catch::Contains("1e400 is a number past the range of a double"));
  CHECK_THROWS_WITH(fastsim::config::apply_overrides(scenario, {"/duration=-1e400"}),
                    Catch::Contains("past the range of a double"));
  CHECK_THROWS_WITH(fastsim::config::parse_json_text("{} x", "t"), Catch::Contains("is not valid JSON"));
}

TEST_CASE("flows made by count are counted against the memory limit before any is made", "[unit][hostile]") {
  // A 700-byte file of 10 x 100 000 flows took 2.8 GB and 10 s to be refused by the
  // resource estimate; 100 such entries grew past 4 GB. Now: refused before replication.
  using fastsim::config::Limits;
  using fastsim::config::parse_scenario;
  json doc = json::parse(kShort);
  doc["flows"] = json::array();
  for (int k = 0; k < 10; ++k)
    doc["flows"].push_back({{"id", "f" + std::to_string(k)}, {"count", 100000}, {"rtt", "20ms"}});
  doc["udp"] = json::array({{{"id", "u"}, {"rate", "1Mbps"}, {"count", 5.0}}});
  CHECK(fastsim::config::traffic_replicas(doc) == 1000005);
  CHECK_THROWS_WITH(parse_scenario(doc),
                    Catch::Contains("the scenario has 1000005 TCP flows and UDP sources (with their counts)") &&
                        Catch::Contains("memory limit of 4.0 GiB") && Catch::Contains("--limit memory=none"));
  // At the limit (16 KiB each): 64 replicas in 1 MiB pass, 65 do not.
  Limits small;
  small.memory_bytes = 1 << 20;
  doc["flows"] = json::array({{{"id", "f"}, {"count", 64}, {"rtt", "20ms"}}});
  doc.erase("udp");
  const auto s = parse_scenario(doc, small);
  CHECK(s.flows.size() == 64);
  CHECK(s.limits.memory_bytes == small.memory_bytes);
  doc["flows"][0]["count"] = 65;
  CHECK_THROWS_WITH(parse_scenario(doc, small), Catch::Contains("the scenario has 65 TCP flows"));
}

TEST_CASE("--set paths that cannot be set say why in words, not in the JSON library's", "[unit][hostile]") {
  // They gave "[json.exception.out_of_range.404] unresolved reference token 'x'" and the like.
  using fastsim::config::set_at_pointer;
  json doc = json::parse(kShort);
  const json before = doc;
  CHECK(set_at_pointer(doc, "/name/x", 1) == "/name is string (\"h\"), not an object or an array: nothing can be set "
                                            "inside it");
  CHECK(set_at_pointer(doc, "/flows/-1/rtt", "1s") == "/flows is an array: \"-1\" is not an index (0 to 0, or 1 to "
                                                      "append)");
  CHECK(set_at_pointer(doc, "/flows/x", 1) == "/flows is an array: \"x\" is not an index (0 to 0, or 1 to append)");
  CHECK(set_at_pointer(doc, "/flows/0/rtt~2x", 1) ==
        "\"/flows/0/rtt~2x\": '~' must be followed by 0 or 1 in a JSON pointer (~0 stands for '~', ~1 for '/')");
  CHECK(set_at_pointer(doc, "/a~", 1).has_value());
  CHECK(doc == before);  // nothing was set
  CHECK_FALSE(set_at_pointer(doc, "/flows/0/a~1b~0c", 1).has_value());  // escapes are fine
  CHECK(doc["flows"][0]["a/b~c"] == 1);
}

TEST_CASE("a NUL byte in JSON input is an error, not the end of the input", "[unit][hostile]") {
  // nlohmann's lexer stops at a NUL byte: what followed was ignored and the file validated.
  const std::string text = std::string(R"({"a": 1})") + '\0' + "garbage {{{";
  CHECK_THROWS_WITH(fastsim::config::parse_json_text(text, "t.json"),
                    Catch::Contains("\"t.json\" is not valid JSON: byte 9 is a NUL byte"));
  CHECK_THROWS_AS(fastsim::config::parse_json_text(std::string("[1,") + '\0' + "2]", "t"), ScenarioError);
}

TEST_CASE("an endless JSON input (/dev/zero) is refused after the size limit, never read to exhaustion",
          "[cli][hostile]") {
  const auto r = run_command(kBinary + " validate /dev/zero");
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Catch::Contains("is larger than 256 MiB, the limit for every JSON input"));
}

TEST_CASE("a directory or a missing file is named as such, whatever kind of JSON input was expected",
          "[cli][hostile]") {
  const auto dir = temp_dir("json-input");
  auto r = run_command(kBinary + " validate " + dir.string());
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Catch::Contains("is a directory, not a JSON file"));
  const std::string missing = (dir / "missing.json").string();
  for (const std::string& command :
       {"validate " + missing, "check " + missing, "sweep " + missing + " --out " + (dir / "out").string()}) {
    r = run_command(kBinary + " " + command);
    INFO(command << ": " << r.output);
    CHECK(r.exit_code != 0);
    CHECK_THAT(r.output, Catch::Contains("cannot open \"" + missing + "\": no such file"));
    CHECK_THAT(r.output, !Catch::Contains("scenario file"));  // a spec or a baseline is not a scenario
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("destroying a 100000-level json does not overflow the stack", "[unit][hostile]") {
  // nlohmann >= 3.10 destroys iteratively; only copy, compare and dump recurse, and the
  // depth limit keeps those away from such documents.
  json deep = json::array();
  json* at = &deep;
  for (int i = 0; i < 100000; ++i) {
    at->push_back(json::array());
    at = &at->back();
  }
  deep = nullptr;
  CHECK(deep.is_null());
}

TEST_CASE("a 100000-level scenario, spec, base or baseline fails with exit 1, never a crash", "[cli][hostile]") {
  const fs::path dir = temp_dir("deep");
  for (bool objects : {false, true}) {
    const fs::path deep = write(dir / (objects ? "deep-obj.json" : "deep-arr.json"), nested(100000, objects));
    INFO(deep.string());
    const auto v = run_command(kBinary + " validate " + deep.string());
    CHECK(v.exit_code == 1);
    CHECK_THAT(v.output, Catch::Contains(deep.string()) && Catch::Contains("more than 64 levels deep"));
    const auto r = run_command(kBinary + " run " + deep.string() + " --quiet --out " + (dir / "out").string());
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.output, Catch::Contains("more than 64 levels deep"));
    const auto s = run_command(kBinary + " sweep " + deep.string() + " --quiet --out " + (dir / "sw").string());
    CHECK(s.exit_code == 1);
    CHECK_THAT(s.output, Catch::Contains("more than 64 levels deep"));
    const auto c = run_command(kBinary + " check " + deep.string() + " --quiet");
    CHECK(c.exit_code == 1);
    CHECK_THAT(c.output, Catch::Contains("more than 64 levels deep"));
  }
  // A spec whose base file is the deep one, and a baseline whose scenario is.
  const fs::path spec = write(dir / "spec.json", R"({"base": "deep-arr.json", "grid": {"/seed2": [1, 2]}})");
  const auto s = run_command(kBinary + " sweep " + spec.string() + " --quiet --dry-run --out " + (dir / "sw").string());
  CHECK(s.exit_code == 1);
  CHECK_THAT(s.output, Catch::Contains("/base") && Catch::Contains("more than 64 levels deep"));
  const fs::path baseline = write(
      dir / "baseline.json",
      R"({"scenarios": [{"name": "d", "file": "deep-obj.json", "metrics": [{"metric": "/x", "expected": 1, "tolerance": 0}]}]})");
  const auto c = run_command(kBinary + " check " + baseline.string() + " --quiet");
  CHECK(c.exit_code == 1);
  CHECK_THAT(c.output, Catch::Contains("more than 64 levels deep"));
  fs::remove_all(dir);
}

TEST_CASE("--set values and paths are bounded too", "[cli][hostile]") {
  const auto value = run_command(kBinary + " validate " + kDemo + " --set '/name=" + nested(1000, false) + "'");
  CHECK(value.exit_code == 1);
  CHECK_THAT(value.output, Catch::Contains("--set \"/name=[[[") && Catch::Contains("more than 64 levels deep"));
  std::string path = "/defaults";
  for (int i = 0; i < 20000; ++i)  // 20 000 objects made by the path alone
    path += "/a";
  const auto deep_path = run_command(kBinary + " validate " + kDemo + " --set " + path + "=1");
  CHECK(deep_path.exit_code == 1);
  CHECK_THAT(deep_path.output, Catch::Contains("levels deep, past the limit of 64"));
  // 63 levels of path and one of value is still fine as far as nesting goes (then an unknown key).
  json doc = json::object();
  std::string ok_path;
  for (int i = 0; i < kMaxJsonDepth - 1; ++i)
    ok_path += "/a";
  CHECK_FALSE(fastsim::config::set_at_pointer(doc, ok_path, json::array()).has_value());
  CHECK(fastsim::config::set_at_pointer(doc, ok_path, json::array({json::array()})).has_value());
}

TEST_CASE("collect survives a hostile summary.json", "[cli][sweep][hostile]") {
  const fs::path dir = temp_dir("deep-collect");
  const fs::path spec = write(
      dir / "spec.json", std::string(R"({"base": )") + kShort + R"(, "grid": {"/flows/0/rtt": ["20ms", "30ms"]}})");
  const auto s = run_command(kBinary + " sweep " + spec.string() + " --quiet --jobs 1 --out " + (dir / "out").string());
  INFO(s.output);
  REQUIRE(s.exit_code == 0);
  size_t replaced = 0;
  for (const auto& e : fs::directory_iterator(dir / "out" / "runs")) {
    write(e.path() / "summary.json", nested(100000, replaced % 2 == 1));
    ++replaced;
  }
  REQUIRE(replaced == 2);
  const auto c = run_command(kBinary + " collect " + (dir / "out").string());
  INFO(c.output);
  CHECK(c.exit_code == 3);  // both runs are unusable: reported, never a crash
  CHECK_THAT(c.output, Catch::Contains("2 unusable"));
  CHECK_THAT(c.output, Catch::Contains("more than 64 levels deep"));
  CHECK(fs::exists(dir / "out" / "runs.csv"));
  fs::remove_all(dir);
}

TEST_CASE("--set rejects a value that is not UTF-8 at parse time", "[cli][hostile]") {
  for (const std::string& cmd : {" validate " + kDemo, " run " + kDemo + " --quiet --out /tmp/fastsim-never"}) {
    const auto r = run_command(kBinary + cmd + " --set \"$(printf '/name=\\377\\376')\"");
    INFO(r.output);
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.output, Catch::Contains("--set \"/name=") && Catch::Contains("not valid UTF-8"));
  }
  CHECK_FALSE(fs::exists("/tmp/fastsim-never/summary.json"));
  // A key that is not UTF-8 too.
  const auto key = run_command(kBinary + " validate " + kDemo + " --set \"$(printf '/na\\303me=x')\"");
  CHECK(key.exit_code == 1);
  CHECK_THAT(key.output, Catch::Contains("not valid UTF-8"));
  // Valid UTF-8 beyond ASCII is fine.
  const auto ok = run_command(kBinary + " validate " + kDemo + " --set '/name=débit'");
  INFO(ok.output);
  CHECK(ok.exit_code == 0);
}

TEST_CASE("--set / names the option and says what a valid pointer looks like", "[cli][hostile]") {
  const auto r = run_command(kBinary + " validate " + kDemo + " --set /=5");
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Catch::Contains("--set \"/=5\"") && Catch::Contains("cannot be replaced") &&
                           Catch::Contains("like /duration or /flows/0/rtt"));
  CHECK_THAT(r.output, !Catch::Contains("(document)"));
  const auto empty = run_command(kBinary + " validate " + kDemo + " --set /flows//rtt=5ms");
  CHECK(empty.exit_code == 1);
  CHECK_THAT(empty.output, Catch::Contains("has an empty key"));
}

TEST_CASE("a --set without /pointer=value is a usage error under run and validate alike", "[cli][hostile]") {
  for (const std::string& cmd : {" validate " + kDemo, " run " + kDemo + " --quiet --out /tmp/fastsim-never"}) {
    const auto r = run_command(kBinary + cmd + " --set x=1");
    INFO(cmd << "\n" << r.output);
    CHECK(r.exit_code == 2);  // validate said 1, run 2
    CHECK_THAT(r.output, Catch::Contains("--set expects /json/pointer=value") &&
                             Catch::Contains("/flows/0/algorithm=cubic") && Catch::Contains("\"x=1\""));
  }
}

TEST_CASE("a metric index too large for size_t names no element (check used to abort)", "[unit][hostile]") {
  const json summary = json::parse(R"({"intervals": [{"jain": 0.5}]})");
  CHECK(fastsim::sweep::metric_value(summary, "/intervals/0/jain") == 0.5);
  CHECK_FALSE(fastsim::sweep::metric_value(summary, "/intervals/99999999999999999999999/jain").has_value());
  CHECK_FALSE(fastsim::sweep::metric_value(summary, "/intervals/1/jain").has_value());
}

TEST_CASE("--set never pads a new array with nulls (found by fuzz_scenario)", "[unit][hostile]") {
  // nlohmann creates a missing value indexed by a number as an array of that many nulls:
  // /d/a/33333333333333333 asked for exabytes, /d/100000000 for 1.6 GB, without a word.
  json doc = fastsim::testing::scenario_from(R"({"duration": "1s", "flows": [{"id": "a", "rtt": "20ms"}],
    "topology": {"dumbbell": {"bottleneck": {"rate": "10Mbps", "delay": "1ms", "buffer": "100pkt"},
                              "access": {"rate": "1Gbps", "buffer": "1000pkt"}}}})")
                 .resolved;
  const json before = doc;
  for (const char* p : {"/d/100000000", "/d/a/33333333333333333/x", "/flows/0/none/7", "/new/1"}) {
    INFO(p);
    const auto error = fastsim::config::set_at_pointer(doc, p, 1);
    REQUIRE(error.has_value());
    CHECK_THAT(*error, Catch::Contains("would create an array of") && Catch::Contains("index 0 creates one"));
  }
  CHECK(doc == before);
  CHECK_FALSE(fastsim::config::set_at_pointer(doc, "/new/0", 1).has_value());  // [1]
  CHECK(doc["new"] == json::array({1}));
  const auto past = fastsim::config::set_at_pointer(doc, "/flows/99999999999999999999999", 1);
  REQUIRE(past.has_value());
  CHECK_THAT(*past, Catch::Contains("/flows has 1 elements: index 99999999999999999999999 is past the end"));
}
