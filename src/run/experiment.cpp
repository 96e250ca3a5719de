// One simulation run (see experiment.hpp): network and flow construction, the
// sampler that writes traces, and the computation of results.
#include "fastsim/run/experiment.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "fastsim/cc/registry.hpp"
#include "fastsim/core/rng.hpp"
#include "fastsim/trace/atomic_file.hpp"
#include "fastsim/trace/metrics.hpp"

namespace fastsim::run {

namespace {

const char* state_name(cc::CaState s) {
  switch (s) {
    case cc::CaState::kOpen:
      return "open";
    case cc::CaState::kRecovery:
      return "recovery";
    case cc::CaState::kLoss:
      return "loss";
  }
  return "?";
}

uint64_t bytes_delivered(const FlowRuntime& f) {
  const uint64_t b = f.receiver->counters().segments_delivered * f.spec->tcp.mss;
  return f.spec->size_bytes ? std::min(b, *f.spec->size_bytes) : b;
}

double peak_rss_mb() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) / 1024.0;
}

}  // namespace

/// One event per sample period: goodput samples of every flow, link samples of
/// monitored links, and the trace rows when writing outputs.
class Experiment::Sampler final : public Event {
 public:
  Sampler(Experiment& e, const std::string& out_dir) : e_(e) {
    for (const auto& l : e_.scenario_.links) {
      if (l.monitor)
        monitored_.emplace_back(l.link.id, e_.links_.at(l.link.id).get());
    }
    if (out_dir.empty())
      return;
    size_t files = e_.flows_.size() + monitored_.size();
    for (const auto& a : e_.arrivals_)
      files += a->spec().traces ? 2 : 1;
    const size_t buffer = trace::shared_buffer_size(files);
    for (const auto& f : e_.flows_) {
      auto file = std::make_unique<trace::AtomicFile>(fmt::format("{}/flows/{}.csv", out_dir, f->spec->id), buffer);
      file->print(
          "time_s,cwnd_pkts,ssthresh_pkts,srtt_s,base_rtt_s,goodput_bps,qdelay_s,bytes_acked,retransmits,state");
      for (const cc::TraceColumn& c : f->sender->algorithm().trace_columns())
        file->print(",{}", c.name);
      file->print("\n");
      flow_files_.push_back(std::move(file));
    }
    for (const auto& a : e_.arrivals_) {
      auto file = std::make_unique<trace::AtomicFile>(fmt::format("{}/arrivals/{}.csv", out_dir, a->spec().id), buffer);
      file->print("time_s,active,started,completed,mean_fct_s,mean_slowdown\n");
      arrival_files_.push_back(std::move(file));
      if (a->spec().traces) {
        auto flows =
            std::make_unique<trace::AtomicFile>(fmt::format("{}/arrivals/{}-flows.csv", out_dir, a->spec().id), buffer);
        flows->print("time_s,flow,cwnd_pkts,srtt_s,bytes_acked,retransmits\n");
        arrival_flow_files_.push_back(std::move(flows));
      } else {
        arrival_flow_files_.push_back(nullptr);
      }
    }
    for (const auto& [id, link] : monitored_) {
      auto file = std::make_unique<trace::AtomicFile>(fmt::format("{}/links/{}.csv", out_dir, id), buffer);
      file->print("time_s,queue_pkts,queue_bytes,drops,utilization\n");
      link_files_.emplace(id, std::move(file));
    }
  }

  [[nodiscard]] bool monitored(const std::string& id) const {
    return std::any_of(monitored_.begin(), monitored_.end(), [&](const auto& m) { return m.first == id; });
  }

  void fire() override {
    Simulator& sim = e_.sim_;
    const double tau = e_.scenario_.sample_interval.to_seconds();
    const double t = sim.now().to_seconds();
    e_.result_.sample_times_s.push_back(t);
    for (size_t i = 0; i < e_.flows_.size(); ++i) {
      FlowRuntime& f = *e_.flows_[i];
      if (f.started && !f.ended && f.sender->complete())
        e_.finish_flow(f, f.sender->completion_time());
      const uint64_t bytes = bytes_delivered(f);
      const double goodput = static_cast<double>(bytes - f.delivered_at_last_sample) * 8.0 / tau;
      f.delivered_at_last_sample = bytes;
      f.goodput_samples_bps.push_back(goodput);
      if (flow_files_.empty())
        continue;
      // a row per period that overlaps the flow's activity: (start, end + tau]
      const bool active = Time::at(f.spec->start) < sim.now() && (!f.ended || f.ended->to_seconds() > t - tau);
      if (!active)
        continue;
      const auto& w = f.sender->window();
      const auto& rtt = f.sender->rtt().view();
      const double srtt = rtt.srtt ? rtt.srtt->to_seconds() : 0.0;
      const double base = rtt.min_rtt ? rtt.min_rtt->to_seconds() : 0.0;
      trace::AtomicFile& out = *flow_files_[i];
      out.print("{:.6f},{:.6g},", t, w.cwnd_pkts);
      if (cc::is_infinite_ssthresh(w.ssthresh_pkts)) {
        out.print("inf,");
      } else {
        out.print("{:.6g},", w.ssthresh_pkts);
      }
      out.print("{:.9f},{:.9f},{:.6g},{:.9f},{},{},{}", srtt, base, goodput, srtt > 0 ? srtt - base : 0.0,
                f.sender->counters().segments_acked * f.spec->tcp.mss, f.sender->counters().retransmits,
                f.ended ? "done" : state_name(f.sender->state()));
      for (const cc::TraceColumn& c : f.sender->algorithm().trace_columns())
        out.print(",{:.6g}", c.value(f.sender->algorithm()));
      out.print("\n");
    }
    for (auto& [id, link] : monitored_) {
      const auto& c = link->counters();
      LinkResult& lr = link_samples_[id];
      const double util = (c.busy - last_busy_[id]).to_seconds() / tau;
      const double queue = (c.queue_area - last_area_[id]) / tau;
      last_busy_[id] = c.busy;
      last_area_[id] = c.queue_area;
      lr.utilization_samples.push_back(util);
      lr.queue_samples.push_back(queue);
      lr.max_queue_samples.push_back(static_cast<double>(link->take_period_max_queue()));
      auto it = link_files_.find(id);
      if (it != link_files_.end()) {
        it->second->print("{:.6f},{},{},{},{:.6g}\n", t, link->queue_packets(), link->queue_bytes(),
                          c.drops + c.random_losses, util);
      }
    }
    for (size_t i = 0; i < e_.arrivals_.size(); ++i) {
      const FlowArrivals& a = *e_.arrivals_[i];
      const ArrivalPeriod p = e_.arrivals_[i]->take_period();
      if (arrival_files_.empty())
        continue;
      const double n = static_cast<double>(p.completed);
      arrival_files_[i]->print("{:.6f},{},{},{},", t, a.active(), p.started, p.completed);
      if (p.completed > 0) {
        arrival_files_[i]->print("{:.9g},{:.6g}\n", p.fct_sum_s / n, p.slowdown_sum / n);
      } else {
        arrival_files_[i]->print(",\n");
      }
      if (trace::AtomicFile* out = arrival_flow_files_[i].get()) {
        active_.clear();
        a.active_flows(active_);
        const uint64_t mss = a.spec().paths.front().tcp.mss;
        for (const auto& f : active_) {
          out->print("{:.6f},{},{:.6g},{:.9f},{},{}\n", t, *f.id, f.cwnd_pkts, f.srtt_s, f.segments_acked * mss,
                     f.retransmits);
        }
      }
    }
    const Time next = sim.now() + e_.scenario_.sample_interval;
    if (next <= Time::at(e_.scenario_.duration))
      sim.schedule_at(*this, next);
  }

  void commit() {
    for (auto& f : flow_files_)
      f->commit();
    for (auto& [id, f] : link_files_)
      f->commit();
    for (auto& f : arrival_files_)
      f->commit();
    for (auto& f : arrival_flow_files_) {
      if (f)
        f->commit();
    }
  }

  std::map<std::string, LinkResult> link_samples_;

 private:
  Experiment& e_;
  std::vector<std::unique_ptr<trace::AtomicFile>> flow_files_;
  std::map<std::string, std::unique_ptr<trace::AtomicFile>> link_files_;
  std::vector<std::unique_ptr<trace::AtomicFile>> arrival_files_;
  std::vector<std::unique_ptr<trace::AtomicFile>> arrival_flow_files_;  // null unless "traces": true
  std::vector<ActiveFlowSample> active_;
  std::map<std::string, Duration> last_busy_;
  std::map<std::string, double> last_area_;
  std::vector<std::pair<std::string, net::Link*>> monitored_;
};

Experiment::Experiment(const config::Scenario& scenario, std::string version)
    : scenario_(scenario), version_(std::move(version)) {
  build_network();
  build_flows();
  build_udp_sources();
  build_arrivals();
  std::vector<const net::Route*> routes;
  for (const auto& f : flows_) {
    routes.push_back(&f->data_route);
    routes.push_back(&f->ack_route);
  }
  for (const auto& u : udp_)
    routes.push_back(&u->route);
  for (const auto& a : arrivals_) {
    for (const net::Route* r : a->path_routes())
      routes.push_back(r);
  }
  net::wire_single_fed_links(routes);
}

namespace {
std::vector<net::Link*> links_by_index(const config::Scenario& s,
                                       const std::map<std::string, std::unique_ptr<net::Link>>& links,
                                       const std::vector<size_t>& indices) {
  std::vector<net::Link*> out;
  for (size_t i : indices)
    out.push_back(links.at(s.links[i].link.id).get());
  return out;
}
}  // namespace

void Experiment::build_flows() {
  for (const auto& spec : scenario_.flows) {
    auto f = std::make_unique<FlowRuntime>();
    f->spec = &spec;
    const uint64_t segments = spec.size_bytes ? (*spec.size_bytes + spec.tcp.mss - 1) / spec.tcp.mss : 0;
    f->connect(sim_, pool_, spec, links_by_index(scenario_, links_, spec.data_links),
               links_by_index(scenario_, links_, spec.ack_links), segments);
    FlowRuntime* raw = f.get();
    const net::Link* bottleneck = links_.at(scenario_.bottleneck).get();
    f->crosses_bottleneck =
        std::find(f->data_route.links.begin(), f->data_route.links.end(), bottleneck) != f->data_route.links.end();
    sim_.call_at(Time::at(spec.start), [this, raw] {
      raw->started = true;
      if (raw->crosses_bottleneck)
        clock_.change(+1);
      raw->sender->start();
    });
    if (spec.on_off) {  // off at start + on, on again at start + on + off, ...
      const Time end = spec.stop ? Time::at(*spec.stop) : Time::at(scenario_.duration);
      for (Time t = Time::at(spec.start) + spec.on_off->on; t < end; t += spec.on_off->on + spec.on_off->off) {
        sim_.call_at(t, [raw] { raw->sender->pause(); });
        if (t + spec.on_off->off < end)
          sim_.call_at(t + spec.on_off->off, [raw] { raw->sender->resume(); });
      }
    }
    if (spec.stop) {
      sim_.call_at(Time::at(*spec.stop), [this, raw] {
        raw->sender->stop_new_data();
        if (!raw->ended)
          finish_flow(*raw, sim_.now());
      });
    }
    flows_.push_back(std::move(f));
  }
}

void Experiment::build_udp_sources() {
  for (const auto& spec : scenario_.udp) {
    auto u = std::make_unique<UdpRuntime>();
    u->spec = &spec;
    u->route.links = links_by_index(scenario_, links_, spec.path.data_links);
    u->route.counters = &u->counters;
    u->sink = std::make_unique<net::CountingSink>(pool_);
    u->route.sink = u->sink.get();
    const Time start = Time::at(spec.start);
    const Time stop = spec.stop ? Time::at(*spec.stop) : Time::at(scenario_.duration);
    if (spec.type == config::UdpSpec::Type::kParetoOnOff) {
      const net::ParetoOnOffSource::Params p{spec.rate, spec.packet_size, spec.shape, spec.mean_on, spec.mean_off};
      u->pareto = std::make_unique<net::ParetoOnOffSource>(sim_, pool_, &u->route, p, start, stop, scenario_.seed,
                                                           spec.path.id);
    } else {
      // A burst without a rate goes at the line rate of its first link.
      const Rate rate = spec.rate.bps > 0 ? spec.rate : u->route.links.front()->config().rate;
      u->cbr = std::make_unique<net::CbrSource>(sim_, pool_, &u->route, rate, spec.packet_size, start, stop);
    }
    udp_.push_back(std::move(u));
  }
}

void Experiment::build_arrivals() {
  const net::Link& bottleneck = *links_.at(scenario_.bottleneck);
  for (const auto& spec : scenario_.arrivals) {
    std::vector<std::pair<std::vector<net::Link*>, std::vector<net::Link*>>> paths;
    for (const auto& p : spec.paths)
      paths.emplace_back(links_by_index(scenario_, links_, p.data_links),
                         links_by_index(scenario_, links_, p.ack_links));
    // "load": the fraction of the bottleneck's rate the arriving bytes offer.
    const double rate = spec.flows_per_s
                            ? *spec.flows_per_s
                            : *spec.load * bottleneck.config().rate.to_double() / (8.0 * spec.size.mean_bytes());
    const Time stop = spec.stop ? Time::at(*spec.stop) : Time::at(scenario_.duration);
    arrivals_.push_back(std::make_unique<FlowArrivals>(sim_, pool_, spec, std::move(paths), rate, stop, scenario_.seed,
                                                       clock_, bottleneck));
  }
}

Experiment::~Experiment() {
  sim_.clear();  // components cancel their own timers when destroyed: leave none in the queue
}

void Experiment::build_network() {
  for (const auto& l : scenario_.links) {
    links_.emplace(l.link.id, std::make_unique<net::Link>(sim_, pool_, l.link, scenario_.seed));
    link_order_.push_back(l.link.id);
  }
}

namespace {
/// Creates the output folders and removes a previous run's outputs (only the files
/// fastsim writes: summary.json and the CSVs of flows/, links/ and arrivals/), so that no stale
/// trace of a flow that no longer exists survives.
void prepare_out_dir(const std::string& dir) {
  namespace fs = std::filesystem;
  fs::create_directories(dir + "/flows");
  fs::create_directories(dir + "/links");
  fs::create_directories(dir + "/arrivals");
  fs::remove(dir + "/summary.json");
  for (const char* sub : {"/flows", "/links", "/arrivals"}) {
    for (const auto& e : fs::directory_iterator(dir + sub)) {
      if (e.is_regular_file() && e.path().extension() == ".csv")
        fs::remove(e.path());
    }
  }
}
}  // namespace

void Experiment::finish_flow(FlowRuntime& f, Time t) {
  f.ended = t;
  if (f.started && f.crosses_bottleneck)
    clock_.change(-1);
}

void Experiment::run_until(Time t) {
  if (!sampler_) {
    sampler_ = std::make_unique<Sampler>(*this, "");
    sim_.schedule_at(*sampler_, Time::at(scenario_.sample_interval));
  }
  sim_.run_until(t);
}

const RunResult& Experiment::run(const RunOptions& options) {
  const auto wall_start = std::chrono::steady_clock::now();
  if (!options.out_dir.empty())
    prepare_out_dir(options.out_dir);
  if (!sampler_) {
    sampler_ = std::make_unique<Sampler>(*this, options.out_dir);
    sim_.schedule_at(*sampler_, Time::at(scenario_.sample_interval));
  }
  std::function<void()> progress;
  if (options.on_progress)
    progress = [&] { options.on_progress(sim_.now().to_seconds(), sim_.events_processed()); };
  sim_.run_until(Time::at(scenario_.duration), progress);
  for (auto& f : flows_) {
    if (f->started && !f->ended && f->sender->complete())
      finish_flow(*f, f->sender->completion_time());
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  compute_results(wall);
  if (!options.out_dir.empty()) {
    sampler_->commit();
    write_outputs(options.out_dir);
  }
  return result_;
}

uint64_t Experiment::packets_on_links(const net::Route& r) const {
  uint64_t n = 0;
  for (const auto& [id, link] : links_) {
    link->for_each_packet([&](const net::Packet& p) { n += p.route == &r ? 1 : 0; });
  }
  return n;
}

void Experiment::compute_results(double wall_s) {
  RunResult& r = result_;
  const double duration = sim_.now().to_seconds();
  r.sim_time_s = duration;
  r.wall_time_s = wall_s;
  r.events = sim_.events_processed();
  r.peak_rss_mb = peak_rss_mb();
  r.flows.clear();
  r.links.clear();
  r.intervals.clear();
  r.data_packets_delivered = 0;

  std::vector<trace::Span> spans;
  for (const auto& f : flows_) {
    FlowResult fr;
    fr.id = f->spec->id;
    fr.algorithm = f->spec->algorithm;
    fr.start_s = f->spec->start.to_seconds();
    fr.end_s = f->ended ? f->ended->to_seconds() : duration;
    if (f->sender->complete())
      fr.completion_s = f->sender->completion_time().to_seconds();
    fr.bytes_delivered = bytes_delivered(*f);
    const double active = fr.end_s - fr.start_s;
    fr.goodput_bps = active > 0 ? static_cast<double>(fr.bytes_delivered) * 8.0 / active : 0.0;
    const auto& sc = f->sender->counters();
    const auto& rc = f->receiver->counters();
    fr.data_packets_sent = sc.data_sent;
    fr.data_packets_delivered = rc.segments_delivered;
    fr.retransmits = sc.retransmits;
    fr.timeouts = sc.timeouts;
    fr.fast_recoveries = sc.fast_recoveries;
    fr.drops = f->data_counters.queue_drops + f->data_counters.random_losses;
    fr.acks_sent = rc.acks_sent;
    fr.mean_rtt_s = f->sender->rtt().mean_seconds();
    fr.min_rtt_s = f->sender->rtt().view().min_rtt ? f->sender->rtt().view().min_rtt->to_seconds() : 0.0;
    const auto wi = f->sender->window_integral();
    fr.mean_cwnd_pkts = wi.seconds > 0 ? wi.cwnd_pkt_seconds / wi.seconds : 0.0;
    fr.goodput_samples_bps = f->goodput_samples_bps;
    r.data_packets_delivered += rc.segments_delivered;
    spans.push_back({fr.start_s, fr.end_s});
    r.flows.push_back(std::move(fr));
  }

  r.udp.clear();
  for (const auto& u : udp_) {
    UdpResult ur;
    ur.id = u->spec->path.id;
    ur.type = u->spec->type == config::UdpSpec::Type::kCbr     ? "cbr"
              : u->spec->type == config::UdpSpec::Type::kBurst ? "burst"
                                                               : "pareto";
    ur.rate_bps = u->spec->rate.bps > 0 ? u->spec->rate.to_double() : u->route.links.front()->config().rate.to_double();
    ur.start_s = u->spec->start.to_seconds();
    ur.stop_s = u->spec->stop ? u->spec->stop->to_seconds() : duration;
    ur.packets_sent = u->sent();
    ur.packets_delivered = u->sink->packets();
    ur.drops = u->counters.queue_drops + u->counters.random_losses;
    r.udp.push_back(std::move(ur));
  }

  r.arrivals.clear();
  for (const auto& a : arrivals_) {
    ArrivalResult ar;
    ar.id = a->spec().id;
    ar.flows_per_s = a->flows_per_s();
    ar.started = a->started();
    ar.completed = a->completed().size();
    ar.active_at_end = a->active();
    if (!a->completed().empty()) {
      double fct = 0, slowdown = 0;
      for (const auto& c : a->completed()) {
        fct += c.fct_s;
        slowdown += c.fct_s / c.fair_fct_s;
      }
      ar.mean_fct_s = fct / static_cast<double>(ar.completed);
      ar.mean_slowdown = slowdown / static_cast<double>(ar.completed);
    }
    r.data_packets_delivered += a->delivered_packets();
    r.arrivals.push_back(std::move(ar));
  }

  for (const auto& id : link_order_) {
    net::Link& link = *links_.at(id);
    const auto& c = link.counters();
    LinkResult lr;
    auto it = sampler_->link_samples_.find(id);
    if (it != sampler_->link_samples_.end())
      lr = it->second;
    lr.id = id;
    lr.rate_bps = link.config().rate.to_double();
    lr.monitored = sampler_->monitored(id);
    lr.utilization = duration > 0 ? c.busy.to_seconds() / duration : 0.0;
    lr.mean_queue_pkts = duration > 0 ? c.queue_area / duration : 0.0;
    lr.max_queue_pkts = c.max_queue_pkts;
    lr.arrivals = c.arrivals;
    lr.drops = c.drops;
    lr.early_drops = c.early_drops;
    lr.random_losses = c.random_losses;
    lr.departures = c.departures;
    r.links.push_back(std::move(lr));
  }

  const LinkResult* bottleneck = nullptr;
  for (const auto& l : r.links) {
    if (l.id == scenario_.bottleneck)
      bottleneck = &l;
  }
  const double tau = scenario_.sample_interval.to_seconds();
  // UDP sources and arrival processes starting or stopping change the capacity left to
  // the flows: they split intervals (and start convergence clocks) without being flows.
  std::vector<double> events;
  for (const auto& u : r.udp) {
    events.push_back(u.start_s);
    events.push_back(u.stop_s);
  }
  for (const auto& a : scenario_.arrivals) {
    events.push_back(a.start.to_seconds());
    events.push_back(a.stop ? a.stop->to_seconds() : duration);
  }
  for (const auto& plan : trace::plan_intervals(spans, duration, tau, scenario_.warmup.to_seconds(), events)) {
    IntervalResult ir;
    ir.start_s = plan.start;
    ir.end_s = plan.end;
    const size_t end = std::min(plan.end_period, r.sample_times_s.size());
    ir.periods = end > plan.first_period ? end - plan.first_period : 0;
    for (size_t fi : plan.flows)
      ir.flows.push_back(r.flows[fi].id);
    if (ir.periods > 0) {
      std::vector<double> means;
      double stability_sum = 0;
      size_t stability_n = 0;
      size_t resp = 0;
      for (size_t fi : plan.flows) {
        const auto& s = r.flows[fi].goodput_samples_bps;
        const std::vector<double> window(s.begin() + static_cast<long>(plan.first_period),
                                         s.begin() + static_cast<long>(end));
        double mean = 0;
        for (double x : window)
          mean += x;
        mean /= static_cast<double>(window.size());
        means.push_back(mean);
        if (auto cv = trace::coefficient_of_variation(window)) {
          stability_sum += *cv;
          ++stability_n;
        }
        resp = std::max(resp, trace::responsiveness_periods(window));
      }
      double total = 0;
      for (double m : means)
        total += m;
      ir.flow_throughput_bps = means;
      ir.throughput_bps = total;
      ir.jain = trace::jain_index(means);
      if (stability_n > 0)
        ir.stability = stability_sum / static_cast<double>(stability_n);
      ir.responsiveness_periods = resp;
      ir.responsiveness_s = static_cast<double>(resp) * tau;
      interval_dynamics(plan, means, ir);
      if (bottleneck != nullptr && bottleneck->utilization_samples.size() >= end) {
        double u = 0, q = 0, qmax = 0;
        for (size_t k = plan.first_period; k < end; ++k) {
          u += bottleneck->utilization_samples[k];
          q += bottleneck->queue_samples[k];
          qmax = std::max(qmax, bottleneck->max_queue_samples[k]);
        }
        ir.utilization = u / static_cast<double>(ir.periods);
        ir.mean_queue_pkts = q / static_cast<double>(ir.periods);
        ir.max_queue_pkts = qmax;
      }
    }
    r.intervals.push_back(std::move(ir));
  }
}

void Experiment::interval_dynamics(const trace::IntervalPlan& plan, const std::vector<double>& means,
                                   IntervalResult& ir) const {
  const RunResult& r = result_;
  const double tau = scenario_.sample_interval.to_seconds();
  constexpr double kEps = 1e-9;
  // Fairness ratio: exactly one flow started when the interval began, and others exist.
  std::vector<size_t> newest;
  for (size_t k = 0; k < plan.flows.size(); ++k) {
    if (std::fabs(r.flows[plan.flows[k]].start_s - plan.start) < kEps)
      newest.push_back(k);
  }
  if (newest.size() == 1 && plan.flows.size() > 1) {
    ir.newest_flow = r.flows[plan.flows[newest[0]]].id;
    std::vector<double> others;
    for (size_t k = 0; k < means.size(); ++k) {
      if (k != newest[0])
        others.push_back(means[k]);
    }
    ir.fairness_ratio = trace::fairness_ratio(means[newest[0]], others);
  }
  // Convergence time from the interval start (no warm-up cut), per flow.
  const auto first = static_cast<size_t>(std::ceil(plan.start / tau - kEps));
  const size_t end = std::min(plan.end_period, r.sample_times_s.size());
  if (end <= first)
    return;
  bool all_settled = true;
  double slowest = 0, slowest_rtts = 0;
  for (size_t fi : plan.flows) {
    const auto& s = r.flows[fi].goodput_samples_bps;
    const std::vector<double> window(s.begin() + static_cast<long>(first), s.begin() + static_cast<long>(end));
    const auto k = trace::convergence_periods(window, scenario_.convergence_tolerance);
    if (!k) {
      ir.flow_convergence_s.emplace_back();
      all_settled = false;
      continue;
    }
    const double t = static_cast<double>(first + *k) * tau - plan.start;
    ir.flow_convergence_s.emplace_back(t);
    slowest = std::max(slowest, t);
    if (r.flows[fi].min_rtt_s > 0)
      slowest_rtts = std::max(slowest_rtts, t / r.flows[fi].min_rtt_s);
  }
  if (all_settled) {
    ir.convergence_s = slowest;
    ir.convergence_base_rtts = slowest_rtts;
  }
}

void Experiment::write_outputs(const std::string& dir) const {
  trace::write_json_atomically(dir + "/summary.json", summary_json());
}

}  // namespace fastsim::run
