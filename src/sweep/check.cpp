// Baseline files and metric bands (see check.hpp).
#include "fastsim/sweep/check.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <variant>

#include <fmt/format.h>

#include "fastsim/config/errors.hpp"
#include "fastsim/config/units.hpp"
#include "fastsim/sweep/collect.hpp"

namespace fastsim::sweep {

namespace fs = std::filesystem;
using nlohmann::json;

Baseline parse_baseline(const json& doc, const std::string& baseline_dir) {
  config::Issues issues;
  Baseline b;
  b.doc = doc;
  const json* list = doc.is_object() && doc.contains("scenarios") ? &doc["scenarios"] : nullptr;
  if (list == nullptr || !list->is_array() || list->empty()) {
    throw config::ScenarioError(config::Issues{{"/scenarios", "expected a non-empty array of scenarios"}});
  }
  for (const auto& [key, value] : doc.items()) {
    if (key != "scenarios" && key != "description" && key != "replications")
      issues.push_back(
          {"/" + key, fmt::format("unknown key \"{}\"; allowed: scenarios, description, replications", key)});
  }
  auto read_replications = [&](const json& v, const std::string& path) -> std::optional<uint64_t> {
    auto n = config::parse_integer(v, 1, static_cast<int64_t>(kMaxCheckReplications));
    if (auto* err = std::get_if<std::string>(&n)) {
      issues.push_back({path, *err});
      return std::nullopt;
    }
    return static_cast<uint64_t>(std::get<int64_t>(n));
  };
  if (doc.contains("replications")) {
    if (auto n = read_replications(doc["replications"], "/replications"))
      b.replications = *n;
  }
  std::set<std::string> names;
  for (size_t i = 0; i < list->size(); ++i) {
    const json& s = (*list)[i];
    const std::string path = fmt::format("/scenarios/{}", i);
    if (!s.is_object()) {
      issues.push_back({path, "expected an object"});
      continue;
    }
    BaselineScenario bs;
    for (const auto& [key, value] : s.items()) {
      if (key != "name" && key != "file" && key != "set" && key != "seed" && key != "metrics" && key != "replications")
        issues.push_back(
            {path + "/" + key,
             fmt::format("unknown key \"{}\"; allowed: name, file, set, seed, replications, metrics", key)});
    }
    if (!s.contains("name") || !s["name"].is_string()) {
      issues.push_back({path + "/name", "missing required string"});
    } else {
      bs.name = s["name"].get<std::string>();
      // The name is also the results folder: an id, unique in the baseline.
      const bool id_like =
          !bs.name.empty() && bs.name.size() <= 128 && bs.name != "." && bs.name != ".." &&
          bs.name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") ==
              std::string::npos;
      if (!id_like) {
        issues.push_back({path + "/name", fmt::format("invalid name \"{}\": use 1 to 128 letters, digits, '-', '_' or "
                                                      "'.' (not \".\" or \"..\")",
                                                      bs.name)});
      } else if (!names.insert(bs.name).second) {
        issues.push_back({path + "/name", fmt::format("duplicate scenario name \"{}\"", bs.name)});
      }
    }
    if (!s.contains("file") || !s["file"].is_string()) {
      issues.push_back({path + "/file", "missing required string (a scenario file)"});
    } else {
      fs::path f = s["file"].get<std::string>();
      if (f.is_relative())  // relative to the baseline's folder
        f = fs::path(baseline_dir) / f;
      bs.file = f.string();
    }
    if (s.contains("set")) {
      if (!s["set"].is_object()) {
        issues.push_back({path + "/set", "expected an object {\"/json/pointer\": value}"});
      } else {
        for (const auto& [pointer, value] : s["set"].items())
          bs.sets.push_back(pointer + "=" + value.dump());
      }
    }
    if (s.contains("seed")) {
      auto seed = config::parse_integer(s["seed"], 0, INT64_MAX);  // as `fastsim run` reads a seed
      if (auto* err = std::get_if<std::string>(&seed)) {
        issues.push_back({path + "/seed", *err});
      } else {
        bs.seed = static_cast<uint64_t>(std::get<int64_t>(seed));
      }
    }
    if (s.contains("replications"))
      bs.replications = read_replications(s["replications"], path + "/replications");
    const json* metrics = s.contains("metrics") ? &s["metrics"] : nullptr;
    if (metrics == nullptr || !metrics->is_array() || metrics->empty()) {
      issues.push_back({path + "/metrics", "expected a non-empty array of metrics"});
    } else {
      for (size_t k = 0; k < metrics->size(); ++k) {
        const json& m = (*metrics)[k];
        const std::string mp = fmt::format("{}/metrics/{}", path, k);
        MetricCheck mc;
        if (!m.is_object() || !m.contains("metric") || !m["metric"].is_string()) {
          issues.push_back({mp + "/metric", "expected a JSON pointer into summary.json, like \"/intervals/0/jain\""});
          continue;
        }
        if (auto error = metric_pointer_error(m["metric"].get<std::string>())) {
          issues.push_back({mp + "/metric", *error});
          continue;
        }
        for (const auto& [key, value] : m.items()) {
          if (key != "metric" && key != "expected" && key != "tolerance" && key != "relative" && key != "direction")
            issues.push_back(
                {mp + "/" + key,
                 fmt::format("unknown key \"{}\"; allowed: metric, expected, tolerance, relative, direction", key)});
        }
        mc.metric = m["metric"].get<std::string>();
        if (!m.contains("expected") || !m["expected"].is_number()) {
          issues.push_back({mp + "/expected", "expected a number"});
        } else {
          mc.expected = m["expected"].get<double>();
        }
        if (!m.contains("tolerance") || !m["tolerance"].is_number() || m["tolerance"].get<double>() < 0) {
          issues.push_back({mp + "/tolerance", "expected a number >= 0"});
        } else {
          mc.tolerance = m["tolerance"].get<double>();
        }
        if (m.contains("relative")) {
          if (!m["relative"].is_boolean()) {
            issues.push_back({mp + "/relative", "expected true or false"});
          } else {
            mc.relative = m["relative"].get<bool>();
          }
        }
        if (m.contains("direction")) {
          const std::string d = m["direction"].is_string() ? m["direction"].get<std::string>() : "";
          if (d != ">=" && d != "<=" && d != "~") {
            issues.push_back(
                {mp + "/direction", fmt::format("expected \">=\", \"<=\" or \"~\", got {}", m["direction"].dump())});
          } else {
            mc.direction = d;
          }
        }
        bs.metrics.push_back(mc);
      }
    }
    b.scenarios.push_back(std::move(bs));
  }
  if (!issues.empty())
    throw config::ScenarioError(issues);
  return b;
}

std::optional<uint64_t> array_index(const std::string& token) {
  if (token.empty() || token.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  uint64_t idx = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), idx);
  if (ec != std::errc() || end != token.data() + token.size())
    return std::nullopt;  // past 2^64 - 1: no array has such an element
  return idx;
}

std::optional<std::string> metric_pointer_error(const std::string& pointer) {
  if (pointer.empty() || pointer[0] != '/')
    return std::string("expected a JSON pointer into summary.json, like \"/intervals/0/jain\"");
  for (size_t i = 0; i < pointer.size(); ++i) {
    if (pointer[i] == '~' && (i + 1 == pointer.size() || (pointer[i + 1] != '0' && pointer[i + 1] != '1')))
      return fmt::format("\"{}\": '~' must be followed by 0 or 1 (RFC 6901)", pointer);
  }
  size_t pos = 1;
  for (;;) {
    const size_t next = pointer.find('/', pos);
    const std::string token = pointer.substr(pos, next == std::string::npos ? std::string::npos : next - pos);
    if (!token.empty() && token.find_first_not_of("0123456789") == std::string::npos && !array_index(token)) {
      return fmt::format("\"{}\": array index {} is out of range (at most 18446744073709551615)", pointer, token);
    }
    if (next == std::string::npos)
      return std::nullopt;
    pos = next + 1;
  }
}

std::optional<double> metric_value(const json& summary, const std::string& pointer) {
  const json* at = &summary;
  size_t pos = 1;
  while (pos <= pointer.size()) {
    const size_t next = pointer.find('/', pos);
    std::string token = pointer.substr(pos, next == std::string::npos ? std::string::npos : next - pos);
    for (size_t i; (i = token.find("~1")) != std::string::npos;)
      token.replace(i, 2, "/");
    for (size_t i; (i = token.find("~0")) != std::string::npos;)
      token.replace(i, 2, "~");
    if (at->is_object()) {
      auto it = at->find(token);
      if (it == at->end())
        return std::nullopt;
      at = &*it;
    } else if (at->is_array()) {
      const json* found = nullptr;
      for (const auto& e : *at) {
        if (e.is_object() && e.contains("id") && e["id"] == token)
          found = &e;
      }
      if (found == nullptr) {
        if (const auto idx = array_index(token); idx && *idx < at->size())
          found = &(*at)[*idx];
      }
      if (found == nullptr)
        return std::nullopt;
      at = found;
    } else {
      return std::nullopt;
    }
    if (next == std::string::npos)
      break;
    pos = next + 1;
  }
  if (!at->is_number())
    return std::nullopt;
  return at->get<double>();
}

std::pair<double, double> band(const MetricCheck& m) {
  const double tol = m.relative ? m.tolerance * std::fabs(m.expected) : m.tolerance;
  constexpr double inf = std::numeric_limits<double>::infinity();
  if (m.direction == ">=")
    return {m.expected - tol, inf};
  if (m.direction == "<=")
    return {-inf, m.expected + tol};
  return {m.expected - tol, m.expected + tol};
}

bool passes(const MetricCheck& m, std::optional<double> measured) {
  if (!measured || !std::isfinite(*measured))
    return false;
  const auto [lo, hi] = band(m);
  return *measured >= lo && *measured <= hi;
}

uint64_t replications_of(const Baseline& b, const BaselineScenario& s, std::optional<uint64_t> forced) {
  return forced.value_or(s.replications.value_or(b.replications));
}

std::string replication_id(const std::string& name, uint64_t r) {
  return r == 0 ? name : fmt::format("{}~r{}", name, r);
}

MetricOutcome evaluate(const MetricCheck& m, const std::vector<std::optional<double>>& values) {
  MetricOutcome out;
  std::vector<double> x;
  for (const auto& v : values) {
    if (v && std::isfinite(*v))
      x.push_back(*v);
  }
  out.n = x.size();
  out.complete = !values.empty() && x.size() == values.size();
  if (x.empty())
    return out;
  const Aggregate a = aggregate(x);
  out.mean = a.mean;
  if (a.ci_low && a.ci_high)
    out.half_width = *a.ci_high - a.mean;
  const auto [lo, hi] = band(m);
  const double low = a.ci_low.value_or(a.mean), high = a.ci_high.value_or(a.mean);
  out.pass = out.complete && high >= lo && low <= hi;  // the interval meets the band
  return out;
}

std::string update_expected(const std::string& text, const std::vector<ExpectedUpdate>& updates) {
  nlohmann::ordered_json doc = nlohmann::ordered_json::parse(text);
  for (const auto& u : updates)
    doc["scenarios"][u.scenario]["metrics"][u.metric]["expected"] = u.value;
  // The indentation: the leading spaces or tabs of the first indented line with content
  // (2 spaces if none); the line ends: CRLF if the file has them.
  int indent = 2;
  char indent_char = ' ';
  for (size_t pos = text.find('\n'); pos != std::string::npos; pos = text.find('\n', pos + 1)) {
    if (pos + 1 >= text.size() || (text[pos + 1] != ' ' && text[pos + 1] != '\t'))
      continue;
    const char c = text[pos + 1];
    const size_t first = text.find_first_not_of(c, pos + 1);
    if (first != std::string::npos && text[first] != '\n' && text[first] != '\r' && text[first] != ' ' &&
        text[first] != '\t') {
      indent = static_cast<int>(first - pos - 1);
      indent_char = c;
      break;
    }
  }
  std::string out = doc.dump(indent, indent_char) + "\n";
  if (text.find("\r\n") == std::string::npos)
    return out;
  std::string crlf;
  crlf.reserve(out.size() + out.size() / 16);
  for (const char ch : out) {
    if (ch == '\n')
      crlf += '\r';
    crlf += ch;
  }
  return crlf;
}

}  // namespace fastsim::sweep
