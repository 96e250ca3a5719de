// A JSON object reader that tracks its JSON pointer, records every key it is asked
// for, and reports bad values and unknown keys as Issues instead of throwing.
// Internal to the config parser.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fastsim/config/errors.hpp"
#include "fastsim/config/units.hpp"

namespace fastsim::config {

/// Letters, digits, '-', '_', '.'; 1 to 128 characters; not "." or "..".
bool valid_id(const std::string& s);

class Reader {
 public:
  Reader(const nlohmann::json& j, std::string path, Issues& issues);

  [[nodiscard]] bool is_object() const { return object_; }
  [[nodiscard]] const std::string& path() const { return path_; }
  /// JSON pointer of `key` in this object ('~' and '/' escaped as RFC 6901 says).
  [[nodiscard]] std::string path_of(const std::string& key) const;
  void error(const std::string& key, const std::string& message);
  [[nodiscard]] Issues& issues() { return issues_; }

  /// The raw value of `key` (registers the key as known); nullptr if absent.
  const nlohmann::json* get(const std::string& key);
  /// Registers `key` as known without reading it.
  void allow(const std::string& key) { known_.push_back(key); }

  std::optional<std::string> string(const std::string& key, bool required = false);
  /// One of `choices` (a string); returns its index.
  std::optional<size_t> choice(const std::string& key, const std::vector<std::string>& choices);
  /// An identifier (node, link or flow id): letters, digits, '-', '_', '.'; not "." or "..".
  std::optional<std::string> id(const std::string& key, bool required = false);
  std::optional<bool> boolean(const std::string& key);
  std::optional<double> number(const std::string& key, double min, double max);
  std::optional<int64_t> integer(const std::string& key, int64_t min, int64_t max, bool required = false);
  std::optional<Duration> duration(const std::string& key, bool required = false, bool positive = false);
  std::optional<Rate> rate(const std::string& key, bool required = false);
  std::optional<uint64_t> size(const std::string& key, bool required = false);
  std::optional<net::BufferLimit> buffer(const std::string& key, bool required = false);

  /// Reports every key of the object that was never asked for.
  void finish();

 private:
  void missing(const std::string& key, const std::string& what);
  template <class T>
  std::optional<T> unit_value(const std::string& key, bool required, const char* what,
                              Parsed<T> (*parse)(const nlohmann::json&));

  const nlohmann::json& j_;
  std::string path_;
  Issues& issues_;
  bool object_;
  std::vector<std::string> known_;
};

}  // namespace fastsim::config
