// JSON object reader with path-tagged issues (see reader.hpp).
#include "reader.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

namespace fastsim::config {

Reader::Reader(const nlohmann::json& j, std::string path, Issues& issues)
    : j_(j), path_(std::move(path)), issues_(issues), object_(j.is_object()) {
  if (!object_)
    issues_.push_back({path_, fmt::format("expected an object, got {}", j.dump())});
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
    if (required)
      missing(key, "a string");
    return std::nullopt;
  }
  if (!v->is_string()) {
    error(key, fmt::format("expected a string, got {}", v->dump()));
    return std::nullopt;
  }
  return v->get<std::string>();
}

std::optional<size_t> Reader::choice(const std::string& key, const std::vector<std::string>& choices) {
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
  error(key, fmt::format("expected one of {}, got {}", allowed, v->dump()));
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

std::optional<double> Reader::number(const std::string& key, double min, double max) {
  const auto* v = get(key);
  if (v == nullptr)
    return std::nullopt;
  if (!v->is_number() || !std::isfinite(v->get<double>()) || v->get<double>() < min || v->get<double>() > max) {
    error(key, fmt::format("expected a number in [{}, {}], got {}", min, max, v->dump()));
    return std::nullopt;
  }
  return v->get<double>();
}

std::optional<int64_t> Reader::integer(const std::string& key, int64_t min, int64_t max, bool required) {
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
    if (required)
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
  if (d && positive && *d <= Duration::zero()) {
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
    error(key, fmt::format("unknown key \"{}\"; allowed keys here: {}", key, fmt::join(allowed, ", ")));
  }
}

}  // namespace fastsim::config
