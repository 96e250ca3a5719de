// The scenario format as data: every object of a scenario file with its keys, each key's
// kind of value (number, integer, duration, rate, size, buffer, choice, object, ...),
// its range or choices and whether it is always required. One description, read twice:
// the scenario parser (src/config/parse*.cpp) takes every range and choice from it and
// refuses to read a key it does not list, and `fastsim schema` (schema.hpp) turns it into
// a JSON Schema. Algorithm parameters come from the algorithm registry
// (cc/registry.hpp) and TCP settings from their table (tcp/tcp_settings.hpp), both
// already tables. What depends on other values (a key required only on a dumbbell,
// cross-field checks like stop after start) stays in the parser's code.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace fastsim::config {

enum class ValueKind {
  kString,     ///< any string
  kId,         ///< an identifier: 1 to 128 letters, digits, '-', '_', '.'; not "." or ".."
  kBoolean,    ///< true or false
  kNumber,     ///< a number in [min, max]
  kInteger,    ///< an integer in [min, max] (5.0 counts as 5)
  kDuration,   ///< "100ms" or seconds (units.hpp); positive if `positive`
  kRate,       ///< "100Mbps" or bits/s
  kSize,       ///< "1.5MB" or bytes
  kBuffer,     ///< a size, or packets "2000pkt"
  kChoice,     ///< one of `choices` (strings)
  kAlgorithm,  ///< a congestion-control algorithm's name (cc/registry.hpp)
  kParams,     ///< the parameters of the object's algorithm (cc/params.hpp)
  kObject,     ///< an object described by `object`
  kArray,      ///< an array of objects described by `object`
  kStrings,    ///< an array of strings (link or node ids)
  kNodes,      ///< a non-empty array of node ids or `object` objects
  kHops,       ///< a hop number, or [first, last] (parking-lot placement)
};

struct KeySpec {
  std::string_view name{};
  ValueKind kind = ValueKind::kString;
  std::string_view help{};
  double min = 0;  ///< kNumber, kInteger
  double max = 0;
  std::vector<std::string> choices{};  ///< kChoice
  std::string_view object{};           ///< kObject, kArray, kNodes: the ObjectSpec of the value or elements
  bool required = false;               ///< required wherever the object appears
  bool positive = false;               ///< kDuration: zero is not allowed
};

struct ObjectSpec {
  std::string_view name{};  ///< "scenario" is the document itself
  std::string_view help{};
  std::vector<KeySpec> keys{};
  std::vector<std::string_view> include{};  ///< objects whose keys this one also takes
  std::vector<std::string_view> exclude{};  ///< keys of the included objects it does not take
  bool tcp_settings = false;                ///< also takes every TCP setting (tcp/tcp_settings.hpp)
};

/// Every object of the scenario format; the first is the scenario itself. The functions
/// below take only objects of this table.
const std::vector<ObjectSpec>& scenario_objects();
/// The object named `name`; throws std::logic_error if there is none.
const ObjectSpec& object_spec(std::string_view name);
/// Every key of `o` with its includes resolved (TCP settings not included), in table order.
const std::vector<const KeySpec*>& object_keys(const ObjectSpec& o);
/// The key `key` of `o` (includes resolved); nullptr if `o` does not list it.
const KeySpec* find_key(const ObjectSpec& o, std::string_view key);
/// Whether `o` (or an object it includes) takes the TCP settings.
bool takes_tcp_settings(const ObjectSpec& o);

}  // namespace fastsim::config
