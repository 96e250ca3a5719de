// CSV as RFC 4180 writes it, for the sweep tables (runs.csv, flows.csv, aggregate.csv):
// a field holding a comma, a double quote, a line feed or a carriage return is enclosed
// in double quotes, its double quotes doubled; rows end with "\n".
#pragma once

#include <string>
#include <vector>

namespace fastsim::sweep {

/// One field, quoted if it needs to be.
std::string csv_field(const std::string& s);

/// Appends one row (fields joined by commas, each through csv_field) and "\n" to `out`.
void append_csv_row(std::string& out, const std::vector<std::string>& fields);

}  // namespace fastsim::sweep
