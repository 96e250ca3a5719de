// A std::ostream over an AtomicFile (atomic_file.hpp), for writers that stream a text in
// pieces (the summary, run/summary_writer.hpp) instead of building it first.
#pragma once

#include <functional>
#include <ostream>

#include "fastsim/trace/atomic_file.hpp"

namespace fastsim::trace {

/// Calls `write` with a std::ostream that streams into `file`; an error of the file
/// (the path and the OS error) is rethrown from the stream's write.
void write_stream(AtomicFile& file, const std::function<void(std::ostream&)>& write);

}  // namespace fastsim::trace
