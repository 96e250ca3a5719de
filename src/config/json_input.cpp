// JSON input (see parse.hpp): every JSON file and --set value fastsim reads is parsed by
// parse_json_text, which bounds the nesting depth before the document exists (nlohmann's
// parser is iterative, but copying, comparing and printing a document recurse per level),
// rejects a key given twice and a NUL byte, and takes time linear in the text (its own SAX
// builder); and the --set overrides applied to a scenario.
#include <algorithm>
#include <array>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "fastsim/config/parse.hpp"
#include "fastsim/config/suggest.hpp"

namespace fastsim::config {

using nlohmann::json;

namespace {

/// `text` quoted for a message, invalid UTF-8 bytes shown as U+FFFD.
std::string quoted(const std::string& text) {
  return json(text).dump(-1, ' ', false, json::error_handler_t::replace);
}

bool valid_utf8(const std::string& text) {
  try {
    (void)json(text).dump();
    return true;
  } catch (const json::type_error&) {  // 316: invalid UTF-8 byte
    return false;
  }
}

/// The outcome of a bounded parse: the document, or what stopped it.
struct Parsed {
  enum class Problem { kNone, kSyntax, kNumberOverflow, kTooDeep, kDuplicateKey };
  json doc;
  Problem problem = Problem::kNone;
  std::string detail;  ///< the parser's message, or the repeated key
};

/// Builds the document from nlohmann's SAX events (its callback parser rescans the enclosing
/// array at every closing object: quadratic, 19 s for 320 000 objects in one array), stopping
/// at the first array or object that opens past kMaxJsonDepth, so that at most that many
/// levels are ever built, and noting the first key given twice in one object.
class BoundedDomBuilder final : public json::json_sax_t {
 public:
  explicit BoundedDomBuilder(Parsed& out) : out_(out) {}

  bool null() override { return add(json(nullptr)); }
  bool boolean(bool v) override { return add(json(v)); }
  bool number_integer(json::number_integer_t v) override { return add(json(v)); }
  bool number_unsigned(json::number_unsigned_t v) override { return add(json(v)); }
  bool number_float(json::number_float_t v, const json::string_t&) override { return add(json(v)); }
  bool string(json::string_t& v) override { return add(json(std::move(v))); }
  bool binary(json::binary_t& v) override { return add(json::binary(std::move(v))); }
  bool start_object(std::size_t) override { return open(json::object(), true); }
  bool key(json::string_t& k) override {
    if (!keys_.back().insert(k).second && out_.problem == Parsed::Problem::kNone) {
      out_.problem = Parsed::Problem::kDuplicateKey;
      out_.detail = k;
    }
    key_ = std::move(k);
    return true;
  }
  bool end_object() override {
    keys_.pop_back();
    open_.pop_back();
    return true;
  }
  bool start_array(std::size_t) override { return open(json::array(), false); }
  bool end_array() override {
    open_.pop_back();
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    // nlohmann's out_of_range.406: a number past the range of a double (1e400)
    out_.problem = e.id == 406 ? Parsed::Problem::kNumberOverflow : Parsed::Problem::kSyntax;
    out_.detail = e.what();
    return false;
  }

 private:
  /// Puts `v` where the parse is (the root, the open array's end or the open object's key);
  /// the address of the value put.
  json* place(json&& v) {
    if (open_.empty()) {
      out_.doc = std::move(v);
      return &out_.doc;
    }
    json& parent = *open_.back();
    if (parent.is_array()) {
      parent.push_back(std::move(v));  // may move the parent's elements: none of them is open
      return &parent.back();
    }
    json& slot = parent[key_];  // the last value of a repeated key wins, as nlohmann's own parser
    slot = std::move(v);
    return &slot;
  }
  bool add(json&& v) {
    place(std::move(v));
    return true;
  }
  bool open(json&& container, bool object) {
    if (open_.size() >= static_cast<size_t>(kMaxJsonDepth)) {
      out_.problem = Parsed::Problem::kTooDeep;
      return false;
    }
    open_.push_back(place(std::move(container)));
    if (object)
      keys_.emplace_back();
    return true;
  }

  Parsed& out_;
  std::vector<json*> open_;                  // the arrays and objects open, outermost first
  std::vector<std::set<std::string>> keys_;  // the keys of every open object
  std::string key_;                          // the key of the value that comes next
};

Parsed parse_bounded(const std::string& text) {
  Parsed out;
  // nlohmann's lexer takes a NUL byte for the end of the input and would ignore what follows;
  // JSON has no place for one (a control character even inside a string).
  if (const size_t nul = text.find('\0'); nul != std::string::npos) {
    out.problem = Parsed::Problem::kSyntax;
    out.detail = fmt::format("byte {} is a NUL byte, which JSON text cannot contain", nul + 1);
    return out;
  }
  BoundedDomBuilder builder(out);
  const bool complete = json::sax_parse(text, &builder, json::input_format_t::json, true);
  if (!complete && out.problem == Parsed::Problem::kNone)
    out.problem = Parsed::Problem::kSyntax;  // (every stop names its reason: not reached)
  if (out.problem != Parsed::Problem::kNone)
    out.doc = json();
  return out;
}

/// The message for a parse that failed.
std::string problem_message(const Parsed& p, const std::string& source) {
  switch (p.problem) {
    case Parsed::Problem::kTooDeep:
      return fmt::format("{} nests arrays and objects more than {} levels deep (the limit for every JSON input)",
                         quoted(source), kMaxJsonDepth);
    case Parsed::Problem::kDuplicateKey:
      return fmt::format("the key {} appears twice in one object", quoted(p.detail));
    case Parsed::Problem::kNumberOverflow:
      return fmt::format("{} has a number past the range of a double (about 1.8e308): {}", quoted(source), p.detail);
    default:
      return fmt::format("{} is not valid JSON: {}", quoted(source), p.detail);
  }
}

}  // namespace

json parse_json_text(const std::string& text, const std::string& source) {
  Parsed p = parse_bounded(text);
  if (p.problem != Parsed::Problem::kNone)
    throw ScenarioError({{"", problem_message(p, source)}});
  return std::move(p.doc);
}

json load_json_file(const std::string& path) {
  // The messages name the file only: it may be a scenario, a sweep spec, a baseline or a summary.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw ScenarioError({{"", fmt::format("{} is a directory, not a JSON file", quoted(path))}});
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const bool exists = std::filesystem::exists(path, ec);
    throw ScenarioError({{"", fmt::format("cannot open {}: {}", quoted(path),
                                          exists ? "permission denied or unreadable" : "no such file")}});
  }
  std::string text;  // read in chunks, bounded even for /dev/zero or a FIFO
  std::array<char, 65536> chunk{};
  while (text.size() <= kMaxJsonFileBytes && in.read(chunk.data(), chunk.size()).gcount() > 0)
    text.append(chunk.data(), static_cast<size_t>(in.gcount()));
  if (text.size() > kMaxJsonFileBytes) {
    throw ScenarioError({{"", fmt::format("{} is larger than {} MiB, the limit for every JSON input of fastsim",
                                          quoted(path), kMaxJsonFileBytes >> 20)}});
  }
  return parse_json_text(text, path);
}

int json_depth(const json& j) {
  int deepest = 0;
  if (j.is_structured()) {
    for (const auto& v : j)
      deepest = std::max(deepest, json_depth(v));
    return deepest + 1;
  }
  return 0;
}

std::optional<std::string> set_at_pointer(json& doc, const std::string& pointer, const json& value) {
  if (pointer == "/") {
    return "\"/\" names the key \"\" of the top-level object, not the whole document (which cannot be replaced): "
           "give the path of a value inside it, like /duration or /flows/0/rtt";
  }
  if (pointer.find("//") != std::string::npos || (!pointer.empty() && pointer.back() == '/'))
    return fmt::format("{} has an empty key (\"//\" or a trailing '/'): no key of a scenario is empty",
                       quoted(pointer));
  const auto levels = static_cast<int>(std::count(pointer.begin(), pointer.end(), '/'));
  if (levels + json_depth(value) > kMaxJsonDepth) {
    return fmt::format("the value would sit {} levels deep, past the limit of {}", levels + json_depth(value),
                       kMaxJsonDepth);
  }
  for (size_t tilde = pointer.find('~'); tilde != std::string::npos; tilde = pointer.find('~', tilde + 1)) {
    if (tilde + 1 == pointer.size() || (pointer[tilde + 1] != '0' && pointer[tilde + 1] != '1'))
      return fmt::format("{}: '~' must be followed by 0 or 1 in a JSON pointer (~0 stands for '~', ~1 for '/')",
                         quoted(pointer));
  }
  try {
    const json::json_pointer ptr(pointer);
    // Walk the path: an array index past the end would pad with nulls, and so would an
    // index into a missing (or null) value, which nlohmann creates as an array.
    const json* node = &doc;  // nullptr once the path leaves the document
    std::string walked;
    size_t pos = 1;
    while (pos <= pointer.size()) {
      const size_t next = pointer.find('/', pos);
      const std::string token = pointer.substr(pos, next == std::string::npos ? std::string::npos : next - pos);
      const bool digits = !token.empty() && token.find_first_not_of("0123456789") == std::string::npos;
      const std::string at = walked.empty() ? "/" : walked;
      if (node != nullptr && node->is_array() && !digits && token != "-") {
        return fmt::format("{} is an array: {} is not an index (0 to {}, or {} to append)", at, quoted(token),
                           node->empty() ? 0 : node->size() - 1, node->size());
      }
      if (node != nullptr && node->is_primitive() && !node->is_null()) {
        return fmt::format("{} is {} ({}), not an object or an array: nothing can be set inside it", at,
                           node->type_name(), node->dump());
      }
      if (node != nullptr && node->is_array()) {
        uint64_t index = UINT64_MAX;  // too large for uint64_t: past the end too
        std::from_chars(token.data(), token.data() + token.size(), index);
        if (digits && index > node->size()) {
          return fmt::format("{} has {} elements: index {} is past the end (use {} to append)", at, node->size(), token,
                             node->size());
        }
        node = digits && index < node->size() ? &(*node)[index] : nullptr;
      } else if (node != nullptr && node->is_object()) {
        auto it = node->find(json::json_pointer("/" + token).back());
        node = it == node->end() ? nullptr : &*it;
      } else {
        if (digits && token != "0" && (node == nullptr || node->is_null())) {
          return fmt::format("{} does not exist: index {} would create an array of {} nulls (index 0 creates one)", at,
                             token, token);
        }
        node = nullptr;
      }
      walked += "/" + token;
      if (next == std::string::npos)
        break;
      pos = next + 1;
    }
    doc[ptr] = value;
  } catch (const json::exception& e) {
    return fmt::format("cannot set this path: {}", e.what());
  } catch (const std::exception& e) {
    return fmt::format("cannot set this path: {}", e.what());
  }
  return std::nullopt;
}

void apply_overrides(json& doc, const std::vector<std::string>& assignments) {
  Issues issues;
  for (const auto& a : assignments) {
    const std::string option = "--set " + quoted(a);
    if (!valid_utf8(a)) {
      issues.push_back({option, "not valid UTF-8 (JSON text and scenario strings are UTF-8)"});
      continue;
    }
    const auto eq = a.find('=');
    if (eq == std::string::npos || a.empty() || a[0] != '/') {
      issues.push_back({option, "expected /json/pointer=value, like /duration=10s or /flows/0/algorithm=cubic"});
      continue;
    }
    const std::string pointer = a.substr(0, eq);
    const std::string text = a.substr(eq + 1);
    Parsed value = parse_bounded(text);
    if (value.problem == Parsed::Problem::kSyntax) {
      value.doc = text;  // not JSON: taken as a string
    } else if (value.problem == Parsed::Problem::kNumberOverflow) {
      issues.push_back({option, fmt::format("{} is a number past the range of a double (about 1.8e308): no quantity "
                                            "of a scenario is that large",
                                            text)});
      continue;
    } else if (value.problem != Parsed::Problem::kNone) {  // JSON, but too deep or with a key twice
      issues.push_back({option, problem_message(value, "the value")});
      continue;
    }
    // Missing parent objects are created ("/defaults/sack=true" works without "defaults");
    // a key nobody asked for is then reported by the parser like any unknown key.
    if (auto error = set_at_pointer(doc, pointer, value.doc))
      issues.push_back(pointer == "/" ? Issue{option, *error} : Issue{pointer, "--set: " + *error});
  }
  if (!issues.empty())
    throw ScenarioError(issues);
}

namespace {

/// Deletes the value at `pointer`; a message if there is none.
std::optional<std::string> remove_at_pointer(json& doc, const std::string& pointer) {
  if (pointer.empty() || pointer[0] != '/')
    return "expected a JSON pointer like /flows/0/start_jitter";
  if (pointer == "/")
    return "\"/\" names the key \"\" of the top-level object, not the whole document (which cannot be deleted)";
  json::json_pointer ptr;
  try {
    ptr = json::json_pointer(pointer);
  } catch (const json::exception& e) {
    return fmt::format("not a JSON pointer: {}", e.what());
  }
  const std::string last = ptr.back();
  const json::json_pointer parent_ptr = ptr.parent_pointer();
  json* parent = nullptr;
  try {
    parent = doc.contains(parent_ptr) ? &doc.at(parent_ptr) : nullptr;
  } catch (const json::exception&) {  // a non-numeric token into an array
  }
  if (parent != nullptr && parent->is_object()) {
    if (parent->erase(last) == 1)
      return std::nullopt;
    std::vector<std::string> keys;
    for (const auto& [key, value] : parent->items())
      keys.push_back(key);
    return fmt::format("nothing to delete: no key \"{}\"{} in {}", last, did_you_mean(last, keys),
                       parent_ptr.empty() ? std::string("the document") : parent_ptr.to_string());
  }
  if (parent != nullptr && parent->is_array()) {
    const bool digits =
        !last.empty() && last.find_first_not_of("0123456789") == std::string::npos && (last == "0" || last[0] != '0');
    uint64_t index = UINT64_MAX;
    if (digits)
      std::from_chars(last.data(), last.data() + last.size(), index);
    if (index < parent->size()) {
      parent->erase(static_cast<size_t>(index));
      return std::nullopt;
    }
    return fmt::format("nothing to delete: {} has {} elements, no index \"{}\"", parent_ptr.to_string(), parent->size(),
                       last);
  }
  return fmt::format("nothing to delete: {} does not exist", parent_ptr.to_string());
}

}  // namespace

void apply_unsets(json& doc, const std::vector<std::string>& pointers) {
  Issues issues;
  for (const auto& p : pointers) {
    if (!valid_utf8(p)) {
      issues.push_back({"--unset " + quoted(p), "not valid UTF-8"});
      continue;
    }
    if (auto error = remove_at_pointer(doc, p)) {
      const bool located = p.size() > 1 && p[0] == '/';
      issues.push_back(located ? Issue{p, "--unset: " + *error} : Issue{"--unset " + quoted(p), *error});
    }
  }
  if (!issues.empty())
    throw ScenarioError(issues);
}

}  // namespace fastsim::config
