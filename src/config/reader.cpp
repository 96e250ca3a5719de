// JSON object reader with path-tagged issues (see reader.hpp).
#include "reader.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "fastsim/config/suggest.hpp"
#include "fastsim/tcp/tcp_settings.hpp"

namespace fastsim::config {

Reader::Reader(const nlohmann::json& j, std::string path, Issues& issues)
    : j_(j), path_(std::move(path)), issues_(issues), object_(j.is_object()) {
  if (!object_)
    issues_.push_back({path_, fmt::format("expected an object, got {}", j.dump())});
}

Reader::Reader(const nlohmann::json& j, std::string path, Issues& issues, const ObjectSpec& spec)
    : Reader(j, std::move(path), issues) {
  spec_ = &spec;
}

const KeySpec* Reader::spec_of(const std::string& key) const {
  if (spec_ == nullptr)
    return nullptr;
  if (const KeySpec* k = find_key(*spec_, key))
    return k;
  if (takes_tcp_settings(*spec_)) {
    for (const auto& s : tcp::tcp_settings()) {
      if (s.name == key)
        return nullptr;
    }
  }
  throw std::logic_error(fmt::format("the parser reads \"{}\" of {}, which the table of \"{}\" does not list", key,
                                     path_.empty() ? "the scenario" : path_, spec_->name));
}

const KeySpec& Reader::table_key(const std::string& key, ValueKind kind) const {
  const KeySpec* k = spec_of(key);
  if (k == nullptr || k->kind != kind)
    throw std::logic_error(fmt::format("\"{}\" of \"{}\" is read by its table entry, which has another kind", key,
                                       spec_ == nullptr ? "(no table)" : spec_->name));
  return *k;
}

void Reader::untabled(const std::string& key) const {
  if (spec_of(key) != nullptr)
    throw std::logic_error(
        fmt::format("\"{}\" of \"{}\" has its range in the table: read it from there", key, spec_->name));
}

bool Reader::required_here(const std::string& key, bool required) const {
  const KeySpec* k = spec_of(key);
  return required || (k != nullptr && k->required);
}

std::string Reader::path_of(const std::string& key) const {
  return path_ + "/" + escape_pointer_token(key);
}

std::optional<std::string> Reader::id(const std::string& key, bool required) {
  auto v = string(key, required);
  if (v && !valid_id(*v)) {
    error(key,
          fmt::format("invalid id \"{}\": use 1 to 128 letters, digits, '-', '_' or '.' (not \".\" or \"..\")", *v));
    return std::nullopt;
  }
  return v;
}

bool valid_id(const std::string& s) {
  if (s.empty() || s.size() > 128 || s == "." || s == "..")
    return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
  });
}

void Reader::error(const std::string& key, const std::string& message) {
  issues_.push_back({key.empty() ? path_ : path_of(key), message});
}

const nlohmann::json* Reader::get(const std::string& key) {
  (void)spec_of(key);  // a key the table does not list: a programming error
  known_.push_back(key);
  if (!object_)
    return nullptr;
  auto it = j_.find(key);
  return it == j_.end() ? nullptr : &*it;
}

void Reader::missing(const std::string& key, const std::string& what) {
  if (object_)
    error(key, fmt::format("missing required key (expected {})", what));
}

std::optional<std::string> Reader::string(const std::string& key, bool required) {
  const auto* v = get(key);
  if (v == nullptr) {
    if (required_here(key, required))
      missing(key, "a string");
    return std::nullopt;
  }
  if (!v->is_string()) {
    error(key, fmt::format("expected a string, got {}", v->dump()));
    return std::nullopt;
  }
  return v->get<std::string>();
}

std::optional<size_t> Reader::choice(const std::string& key) {
  return choice_of(key, table_key(key, ValueKind::kChoice).choices);
}

std::optional<size_t> Reader::choice(const std::string& key, const std::vector<std::string>& choices) {
  untabled(key);
  return choice_of(key, choices);
}

std::optional<size_t> Reader::choice_of(const std::string& key, const std::vector<std::string>& choices) {
  const auto* v = get(key);
  if (v == nullptr)
    return std::nullopt;
  if (v->is_string()) {
    for (size_t i = 0; i < choices.size(); ++i) {
      if (choices[i] == v->get<std::string>())
        return i;
    }
  }
  std::string allowed;
  for (const auto& c : choices)
    allowed += (allowed.empty() ? "\"" : ", \"") + c + "\"";
  error(key, fmt::format("expected one of {}, got {}{}", allowed, v->dump(),
                         v->is_string() ? did_you_mean(v->get<std::string>(), choices) : ""));
  return std::nullopt;
}

std::optional<bool> Reader::boolean(const std::string& key) {
  const auto* v = get(key);
  if (v == nullptr)
    return std::nullopt;
  if (!v->is_boolean()) {
    error(key, fmt::format("expected true or false, got {}", v->dump()));
    return std::nullopt;
  }
  return v->get<bool>();
}

std::optional<bool> Reader::switch_value(const std::string& key) {
  untabled(key);
  const auto* v = get(key);
  if (v == nullptr)
    return std::nullopt;
  if (v->is_boolean())
    return v->get<bool>();
  // One convention: 0 and 1 are refused too (is 1 "on" or a count?), like every other value.
  error(key, fmt::format("expected true or false (JSON booleans, as every switch of a scenario; 0 and 1 are not "
                         "switches), got {}",
                         v->dump()));
  return std::nullopt;
}

std::optional<double> Reader::seconds(const std::string& key, double min, double max) {
  untabled(key);
  const auto* v = get(key);
  if (v == nullptr)
    return std::nullopt;
  const auto parsed = parse_duration(*v);
  const Duration* d = std::get_if<Duration>(&parsed);
  const double s = v->is_number() ? v->get<double>() : d != nullptr ? d->to_seconds() : -1;
  if ((!v->is_number() && d == nullptr) || !std::isfinite(s) || s < min || s > max) {
    error(key, fmt::format("expected a duration in [{}, {}] seconds, like \"10ms\" or a number of seconds, got {}", min,
                           max, v->dump()));
    return std::nullopt;
  }
  return s;
}

std::optional<double> Reader::number(const std::string& key) {
  const KeySpec& k = table_key(key, ValueKind::kNumber);
  return number_in(key, k.min, k.max);
}

std::optional<double> Reader::number(const std::string& key, double min, double max) {
  untabled(key);
  return number_in(key, min, max);
}

std::optional<double> Reader::number_in(const std::string& key, double min, double max) {
  const auto* v = get(key);
  if (v == nullptr)
    return std::nullopt;
  if (!v->is_number() || !std::isfinite(v->get<double>()) || v->get<double>() < min || v->get<double>() > max) {
    error(key, fmt::format("expected a number in [{}, {}], got {}", min, max, v->dump()));
    return std::nullopt;
  }
  return v->get<double>();
}

std::optional<int64_t> Reader::integer(const std::string& key, bool required) {
  const KeySpec& k = table_key(key, ValueKind::kInteger);
  return integer_in(key, static_cast<int64_t>(k.min), k.max >= 9.2e18 ? INT64_MAX : static_cast<int64_t>(k.max),
                    required_here(key, required));
}

std::optional<int64_t> Reader::integer(const std::string& key, int64_t min, int64_t max) {
  untabled(key);
  return integer_in(key, min, max, false);
}

std::optional<int64_t> Reader::integer_in(const std::string& key, int64_t min, int64_t max, bool required) {
  const auto* v = get(key);
  if (v == nullptr) {
    if (required)
      missing(key, "an integer");
    return std::nullopt;
  }
  auto parsed = parse_integer(*v, min, max);
  if (auto* err = std::get_if<std::string>(&parsed)) {
    error(key, *err);
    return std::nullopt;
  }
  return std::get<int64_t>(parsed);
}

template <class T>
std::optional<T> Reader::unit_value(const std::string& key, bool required, const char* what,
                                    Parsed<T> (*parse)(const nlohmann::json&)) {
  const auto* v = get(key);
  if (v == nullptr) {
    if (required_here(key, required))
      missing(key, what);
    return std::nullopt;
  }
  auto parsed = parse(*v);
  if (auto* err = std::get_if<std::string>(&parsed)) {
    error(key, *err);
    return std::nullopt;
  }
  return std::get<T>(parsed);
}

std::optional<Duration> Reader::duration(const std::string& key, bool required, bool positive) {
  auto d = unit_value<Duration>(key, required, "a duration like \"100ms\"", &parse_duration);
  const KeySpec* k = spec_of(key);
  if (d && (positive || (k != nullptr && k->positive)) && *d <= Duration::zero()) {
    error(key, fmt::format("expected a positive duration like \"100ms\", got {}", get(key)->dump()));
    return std::nullopt;
  }
  return d;
}

std::optional<Rate> Reader::rate(const std::string& key, bool required) {
  return unit_value<Rate>(key, required, "a rate like \"100Mbps\"", &parse_rate);
}

std::optional<uint64_t> Reader::size(const std::string& key, bool required) {
  return unit_value<uint64_t>(key, required, "a size like \"1.5MB\"", &parse_size);
}

std::optional<net::BufferLimit> Reader::buffer(const std::string& key, bool required) {
  return unit_value<net::BufferLimit>(key, required, "a buffer like \"2000pkt\" or \"1.5MB\"", &parse_buffer);
}

void Reader::finish() {
  if (!object_)
    return;
  for (const auto& [key, value] : j_.items()) {
    if (std::find(known_.begin(), known_.end(), key) != known_.end())
      continue;
    std::vector<std::string> allowed = known_;
    std::sort(allowed.begin(), allowed.end());
    allowed.erase(std::unique(allowed.begin(), allowed.end()), allowed.end());
    error(key, fmt::format("unknown key \"{}\"{}; allowed keys here: {}", key, did_you_mean(key, allowed),
                           fmt::join(allowed, ", ")));
  }
}

}  // namespace fastsim::config
