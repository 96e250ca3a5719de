// A JSON object reader that tracks its JSON pointer, records every key it is asked
// for, and reports bad values and unknown keys as Issues instead of throwing.
// A reader of a scenario object reads by that object's table (scenario_keys.hpp): the
// ranges and choices of its keys come from there, and asking for a key the table does
// not list is a programming error (std::logic_error), so the table cannot fall behind
// the parser. A reader without a table (algorithm parameters) takes ranges from its
// caller. Internal to the config parser.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fastsim/config/errors.hpp"
#include "fastsim/config/scenario_keys.hpp"
#include "fastsim/config/units.hpp"

namespace fastsim::config {

/// Letters, digits, '-', '_', '.'; 1 to 128 characters; not "." or "..".
bool valid_id(const std::string& s);

class Reader {
 public:
  /// A reader of the scenario object `spec` (scenario_keys.hpp).
  Reader(const nlohmann::json& j, std::string path, Issues& issues, const ObjectSpec& spec);
  /// A reader of the scenario object named `spec`.
  Reader(const nlohmann::json& j, std::string path, Issues& issues, std::string_view spec)
      : Reader(j, std::move(path), issues, object_spec(spec)) {}
  /// A reader without a table: any key, ranges and choices from the caller.
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
  void allow(const std::string& key) {
    (void)spec_of(key);
    known_.push_back(key);
  }

  // The typed readers: a key is required if the table says so or `required` is true (a
  // duration must be positive if the table says so or `positive` is true).
  std::optional<std::string> string(const std::string& key, bool required = false);
  /// One of `choices` (a string); returns its index. Only for a key no table lists.
  std::optional<size_t> choice(const std::string& key, const std::vector<std::string>& choices);
  /// One of the key's choices in the table; returns its index.
  std::optional<size_t> choice(const std::string& key);
  /// An identifier (node, link or flow id): letters, digits, '-', '_', '.'; not "." or "..".
  std::optional<std::string> id(const std::string& key, bool required = false);
  std::optional<bool> boolean(const std::string& key);
  /// A switch of an algorithm: true or false (JSON booleans only; 0 and 1 are errors).
  /// Only for a key no table lists.
  std::optional<bool> switch_value(const std::string& key);
  /// Seconds in [min, max], given as a duration ("10ms") or a number of seconds. Only for
  /// a key no table lists.
  std::optional<double> seconds(const std::string& key, double min, double max);
  /// A number in [min, max]. Only for a key no table lists.
  std::optional<double> number(const std::string& key, double min, double max);
  /// A number in the key's range in the table.
  std::optional<double> number(const std::string& key);
  /// An integer in [min, max]. Only for a key no table lists.
  std::optional<int64_t> integer(const std::string& key, int64_t min, int64_t max);
  /// An integer in the key's range in the table.
  std::optional<int64_t> integer(const std::string& key, bool required = false);
  std::optional<Duration> duration(const std::string& key, bool required = false, bool positive = false);
  std::optional<Rate> rate(const std::string& key, bool required = false);
  std::optional<uint64_t> size(const std::string& key, bool required = false);
  std::optional<net::BufferLimit> buffer(const std::string& key, bool required = false);

  /// Reports every key of the object that was never asked for.
  void finish();

 private:
  void missing(const std::string& key, const std::string& what);
  /// The table's entry for `key`: nullptr for a reader without a table or a TCP setting;
  /// throws std::logic_error for a key the table does not list.
  const KeySpec* spec_of(const std::string& key) const;
  /// The table's entry for `key`, which must be there with kind `kind`.
  const KeySpec& table_key(const std::string& key, ValueKind kind) const;
  /// Throws std::logic_error if the table lists `key` (its range must come from there).
  void untabled(const std::string& key) const;
  [[nodiscard]] bool required_here(const std::string& key, bool required) const;
  std::optional<size_t> choice_of(const std::string& key, const std::vector<std::string>& choices);
  std::optional<double> number_in(const std::string& key, double min, double max);
  std::optional<int64_t> integer_in(const std::string& key, int64_t min, int64_t max, bool required);
  template <class T>
  std::optional<T> unit_value(const std::string& key, bool required, const char* what,
                              Parsed<T> (*parse)(const nlohmann::json&));

  const nlohmann::json& j_;
  std::string path_;
  Issues& issues_;
  bool object_;
  const ObjectSpec* spec_ = nullptr;
  std::vector<std::string> known_;
};

}  // namespace fastsim::config
