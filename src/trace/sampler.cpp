// The sampler's event and the probes' shared buffer budget (see sampler.hpp).
#include "fastsim/trace/sampler.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "fastsim/trace/atomic_file.hpp"

namespace fastsim::trace {

void Sampler::open(const std::string& out_dir) {
  size_t files = 0;
  for (const auto& p : probes_)
    files += p->files();
  const TraceFileOptions options = trace_file_options(files);
  for (auto& p : probes_)
    p->open(out_dir, options);
  // Two traces with one name would share a temporary, and the second rename would fail
  // after the previous result is gone: validation keeps names apart, this makes sure.
  std::vector<std::string> paths;
  for (const auto& p : probes_)
    p->file_paths(paths);
  std::sort(paths.begin(), paths.end());
  if (const auto twice = std::adjacent_find(paths.begin(), paths.end()); twice != paths.end())
    throw std::logic_error("two traces of this run would be written to " + *twice);
}

void Sampler::start() {
  const Time now = sim_.now();
  const size_t n = end_ < now + interval_ ? 0 : static_cast<size_t>((end_ - now).ps() / interval_.ps());
  for (auto& p : probes_)
    p->expect_samples(n);
  sim_.schedule_at(*this, sim_.now() + interval_);
}

void Sampler::fire() {
  sample_times_s_.push_back(sim_.now().to_seconds());
  for (auto& p : probes_)
    p->sample(sim_.now(), interval_);
  const Time next = sim_.now() + interval_;
  if (next <= end_)
    sim_.schedule_at(*this, next);
}

void Sampler::close() {
  for (auto& p : probes_)
    p->close();
}

std::vector<std::string> Sampler::commit() {
  std::vector<std::string> written;
  for (auto& p : probes_)
    p->commit(written);
  return written;
}

}  // namespace fastsim::trace
