// Integer command-line options with an allowed range (see int_option.hpp).
#include "int_option.hpp"

#include <charconv>

#include <fmt/format.h>

namespace fastsim::cli {

int64_t parse_int_in_range(const std::string& option, const std::string& text, int64_t lo, int64_t hi) {
  int64_t v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || ptr != end || v < lo || v > hi)
    throw boost::program_options::error(
        fmt::format("--{} must be an integer in [{}, {}], got \"{}\"", option, lo, hi, text));
  return v;
}

}  // namespace fastsim::cli
