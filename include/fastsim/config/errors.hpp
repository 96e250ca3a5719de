// Scenario problems, each tied to the JSON pointer of the value at fault.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace fastsim::config {

struct Issue {
  std::string path;     ///< JSON pointer, e.g. "/flows/2/rtt" ("" for the whole document)
  std::string message;  ///< what is wrong and what is allowed
  [[nodiscard]] std::string to_string() const { return (path.empty() ? "(document)" : path) + ": " + message; }
};

using Issues = std::vector<Issue>;

/// One reference token of a JSON pointer, escaped as RFC 6901 says ('~' -> "~0", '/' -> "~1").
inline std::string escape_pointer_token(const std::string& token) {
  std::string out;
  for (char c : token) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

/// Thrown when a scenario cannot be used; carries every problem found.
class ScenarioError : public std::runtime_error {
 public:
  explicit ScenarioError(Issues issues);
  [[nodiscard]] const Issues& issues() const { return issues_; }

 private:
  Issues issues_;
};

}  // namespace fastsim::config
