// One simulation run (see experiment.hpp): the coordinator of builder, lifecycle,
// sampler, results and outputs.
#include "fastsim/run/experiment.hpp"

#include <sys/resource.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>

#include "fastsim/core/huge_pages.hpp"
#include "fastsim/run/packet_traces.hpp"
#include "fastsim/run/summary_writer.hpp"
#include "fastsim/trace/arrival_probe.hpp"
#include "fastsim/trace/atomic_file.hpp"
#include "fastsim/trace/atomic_file_stream.hpp"
#include "fastsim/trace/flow_probe.hpp"
#include "fastsim/trace/link_probe.hpp"
#include "fastsim/trace/run_folder.hpp"
#include "fastsim/trace/udp_probe.hpp"

namespace fastsim::run {

namespace {

/// Peak resident memory of this program image, MB. Linux's getrusage() ru_maxrss keeps
/// the high-water mark of the image that called exec (the kernel folds the old memory
/// map's mark into the process's on exec), so a fastsim started by a large process
/// reported that process's peak. VmHWM in /proc/self/status belongs to the current
/// image only; ru_maxrss remains the fallback where /proc is not available.
double peak_rss_mb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.starts_with("VmHWM:"))
      return std::strtod(line.c_str() + 6, nullptr) / 1024.0;  // "VmHWM:   13312 kB"
  }
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) / 1024.0;
}

}  // namespace

Experiment::Experiment(const config::Scenario& scenario, std::string version)
    : Experiment(nullptr, &scenario, std::move(version)) {}

Experiment::Experiment(config::Scenario&& scenario, std::string version)
    : Experiment(std::make_unique<config::Scenario>(std::move(scenario)), nullptr, std::move(version)) {}

Experiment::Experiment(std::unique_ptr<config::Scenario> owned, const config::Scenario* borrowed, std::string version)
    : owned_(std::move(owned)),
      scenario_(owned_ ? *owned_ : *borrowed),
      version_(std::move(version)),
      network_(std::make_unique<Network>(scenario_, sim_, pool_, clock_)),
      lifecycle_(sim_, clock_, Time::at(scenario_.duration)),
      sampler_(sim_, scenario_.sample_interval, Time::at(scenario_.duration)) {
  // Scheduling order fixes the order of simultaneous events: flows, then UDP sources and
  // arrival processes, then the sampler.
  for (auto& f : network_->flows())
    lifecycle_.manage(*f);
  network_->start_sources();
  add_probes();
  sampler_.start();
}

Experiment::~Experiment() {
  sim_.clear();  // unschedule everything at once (else each destroyed event cancels itself)
}

void Experiment::add_probes() {
  for (auto& f : network_->flows()) {
    probes_.flows.push_back(&sampler_.add(std::make_unique<trace::FlowProbe>(
        f->spec->id, *f->sender, *f->receiver, f->spec->tcp.mss, f->spec->size_bytes, f->activity)));
  }
  for (const auto& l : scenario_.links) {
    if (l.monitor)
      probes_.links[l.link.id] = &sampler_.add(std::make_unique<trace::LinkProbe>(network_->link(l.link.id)));
  }
  // One probe per UDP entry of the scenario: its `count` replicas are consecutive.
  const auto& udp = network_->udp();
  for (size_t i = 0; i < udp.size();) {
    const size_t entry = udp[i]->spec->path.json_index;
    std::vector<trace::UdpProbe::Member> members;
    for (; i < udp.size() && udp[i]->spec->path.json_index == entry; ++i)
      members.push_back({udp[i]->source.get(), udp[i]->sink.get(), &udp[i]->counters});
    sampler_.add(std::make_unique<trace::UdpProbe>(udp[i - 1]->spec->entry_id, std::move(members)));
  }
  for (auto& a : network_->arrivals())
    sampler_.add(std::make_unique<trace::ArrivalProbe>(*a));
}

void Experiment::release_build_specs() {
  if (!owned_)
    return;
  // Built: the links hold their configurations, the routes their links, and the flows'
  // own fields (id, start, TCP settings) stay for the lifecycle, probes and results.
  std::vector<config::LinkSpec>().swap(owned_->links);
  std::vector<std::string>().swap(owned_->nodes);
  for (config::FlowSpec& f : owned_->flows) {
    std::vector<std::string>().swap(f.route);
    std::vector<size_t>().swap(f.data_links);
    std::vector<size_t>().swap(f.ack_links);
  }
}

void Experiment::run_until(Time t) {
  sim_.run_until(t);
}

const RunResult& Experiment::run(const RunOptions& options) {
  // The prediction is a function of the scenario alone: made before the build's specs go
  // (and, as before, outside wall_time_s).
  std::optional<predict::Prediction> prediction;
  if (options.predict)
    prediction = predict::predict(scenario_);
  const auto wall_start = std::chrono::steady_clock::now();
  const bool outputs = !options.out_dir.empty();
  const bool traces = outputs && sampler_.sample_times_s().empty();
  trace::RunFolder folder(options.out_dir);
  if (outputs)
    folder.prepare();
  if (traces)
    sampler_.open(options.out_dir);
  if (outputs)
    packet_trace_ = attach_packet_traces(scenario_, *network_, options.out_dir);
  release_build_specs();
  std::function<void()> progress;
  if (options.on_progress)
    progress = [&] { options.on_progress(sim_.now().to_seconds(), sim_.events_processed()); };
  sim_.run_until(Time::at(scenario_.duration), progress);
  RunFacts facts;
  facts.sim_time_s = sim_.now().to_seconds();
  facts.wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  facts.events = sim_.events_processed();
  // The trace files are written out (and their write buffers freed) before the results are
  // made: at 10 000 traced flows the buffers are about 5 MB the results can reuse.
  if (traces)
    sampler_.close();
  // Give the pages those buffers and the run's other freed blocks left back to the system:
  // the results (one block per table, 2.6 MB for 10 000 flows) and the summary's arrays are
  // made in fresh pages, which would otherwise come on top of them in the peak RSS.
  // (The heap's huge-page reserve is made again: a packed SLURM task runs on in this process.)
  release_free_heap_memory();
  result_ = collect_results(scenario_, *network_, probes_, sampler_.sample_times_s(), facts);
  result_.prediction = std::move(prediction);
  if (!outputs) {
    result_.peak_rss_mb = peak_rss_mb();
  } else {  // every write first (a full disk fails here), then only renames
    if (packet_trace_)
      packet_trace_->finish(sim_.now());
    // The per-flow arrays of the summary are written one element at a time (at 10 000
    // flows the whole document would be the run's largest allocation); the peak is read
    // last, when the results and the rest of the document exist.
    SummaryArrays arrays;
    nlohmann::json skeleton = summary_skeleton(scenario_, result_, version_, arrays);
    result_.peak_rss_mb = peak_rss_mb();
    skeleton["peak_rss_mb"] = result_.peak_rss_mb;
    trace::AtomicFile summary(folder.summary_path());
    trace::write_stream(summary, [&](std::ostream& out) { write_summary(out, skeleton, arrays); });
    summary.close();
    folder.replace(summary, [&] {
      std::vector<std::string> written = traces ? sampler_.commit() : std::vector<std::string>{};
      if (packet_trace_) {
        for (auto& path : packet_trace_->commit())
          written.push_back(std::move(path));
      }
      return written;
    });
  }
  return result_;
}

}  // namespace fastsim::run
