// RFC 4180 fields and rows (see csv.hpp).
#include "fastsim/sweep/csv.hpp"

namespace fastsim::sweep {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos)
    return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"')
      out += '"';
    out += c;
  }
  return out + "\"";
}

void append_csv_row(std::string& out, const std::vector<std::string>& fields) {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0)
      out += ',';
    out += csv_field(fields[i]);
  }
  out += '\n';
}

}  // namespace fastsim::sweep
