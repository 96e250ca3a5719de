// Integer command-line options with an allowed range. Boost.Program_options reads "-1"
// into an unsigned variable as 2^64 - 1, so every integer option is read as text here
// and checked against [lo, hi]: a value outside (or not an integer) is a usage error
// that names the option and the range.
#pragma once

#include <cstdint>
#include <string>

#include <boost/program_options.hpp>

namespace fastsim::cli {

/// The value of `text` if it is an integer in [lo, hi]; otherwise throws
/// boost::program_options::error "--OPTION must be an integer in [lo, hi], got "text"".
int64_t parse_int_in_range(const std::string& option, const std::string& text, int64_t lo, int64_t hi);

/// An option value for po::options_description::add_options(): stores the checked value
/// into *target when the options are notified (parse_options reports the error).
template <class T>
boost::program_options::typed_value<std::string>* int_in_range(T* target, const std::string& option, int64_t lo,
                                                               int64_t hi) {
  return boost::program_options::value<std::string>()->notifier(
      [=](const std::string& text) { *target = static_cast<T>(parse_int_in_range(option, text, lo, hi)); });
}

}  // namespace fastsim::cli
