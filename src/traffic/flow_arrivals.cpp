// Poisson arrivals of finite flows (see flow_arrivals.hpp).
#include "fastsim/traffic/flow_arrivals.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>
#include <boost/random/discrete_distribution.hpp>
#include <boost/random/exponential_distribution.hpp>

#include "fastsim/cc/registry.hpp"

namespace fastsim::traffic {

struct FlowArrivals::Flow : TcpConnection {
  CompletedFlow record;
  double area_at_start = 0;
  bool done = false;
  std::list<std::unique_ptr<Flow>>::iterator self;

  /// Packets of this flow still somewhere on a link (data and ACKs).
  [[nodiscard]] uint64_t in_network() const {
    const uint64_t data_out = sender->counters().data_sent;
    const uint64_t data_gone =
        receiver->counters().data_arrivals + data_counters.queue_drops + data_counters.random_losses;
    const uint64_t acks_out = receiver->counters().acks_sent;
    const uint64_t acks_gone = sender->counters().acks_received + ack_counters.queue_drops + ack_counters.random_losses;
    return (data_out - data_gone) + (acks_out - acks_gone);
  }
};

FlowArrivals::FlowArrivals(Simulator& sim, net::PacketPool& pool, const config::ArrivalSpec& spec,
                           std::vector<std::pair<std::vector<net::Link*>, std::vector<net::Link*>>> paths,
                           double flows_per_s, Time stop, uint64_t seed, ActiveFlowClock& clock,
                           const net::Link& bottleneck)
    : sim_(sim),
      pool_(pool),
      spec_(spec),
      flows_per_s_(flows_per_s),
      stop_(stop),
      rng_(seed, "arrivals/" + spec.id),
      seed_(seed),
      clock_(clock),
      bottleneck_bps_(bottleneck.config().rate.to_double()) {
  for (auto& [data, ack] : paths) {
    Duration rtt;
    for (const net::Link* l : data)
      rtt += l->wire_delay();
    for (const net::Link* l : ack)
      rtt += l->wire_delay();
    base_rtt_.push_back(rtt);
    crosses_bottleneck_.push_back(std::find(data.begin(), data.end(), &bottleneck) != data.end());
    data_routes_.push_back({std::move(data), nullptr, nullptr});
    ack_routes_.push_back({std::move(ack), nullptr, nullptr});
  }
}

FlowArrivals::~FlowArrivals() = default;

void FlowArrivals::start() {
  schedule_next(Time::at(spec_.start));
}

std::vector<const net::Route*> FlowArrivals::path_routes() const {
  std::vector<const net::Route*> out;
  for (size_t k = 0; k < data_routes_.size(); ++k) {
    out.push_back(&data_routes_[k]);
    out.push_back(&ack_routes_[k]);
  }
  return out;
}

void FlowArrivals::fire() {
  reap();
  const uint64_t size = spec_.size.sample(rng_);
  boost::random::discrete_distribution<size_t> pick(spec_.weights.begin(), spec_.weights.end());
  const size_t k = spec_.weights.size() == 1 ? 0 : pick(rng_.engine());
  const config::FlowSpec& path = spec_.paths[k];

  auto f = std::make_unique<Flow>();
  Flow* raw = f.get();
  f->record.id = fmt::format("{}#{}", spec_.id, started_);
  f->record.path = k;
  f->record.size_bytes = size;
  f->record.start_s = sim_.now().to_seconds();
  f->connect(sim_, pool_, path, data_routes_[k].links, ack_routes_[k].links, (size + path.tcp.mss - 1) / path.tcp.mss,
             seed_, f->record.id, tcp_configs_);
  f->sender->on_complete([this, raw] { complete(*raw); });
  if (crosses_bottleneck_[k]) {
    clock_.change(+1);
    f->area_at_start = clock_.integral();
  }
  ++started_;
  ++period_.started;
  flows_.push_back(std::move(f));
  raw->self = std::prev(flows_.end());
  raw->sender->start();

  schedule_next(sim_.now());
}

void FlowArrivals::schedule_next(Time after) {
  // Compared in seconds first: a rare long gap must not overflow the picosecond clock.
  const double gap = boost::random::exponential_distribution<double>(flows_per_s_)(rng_.engine());
  if (after >= stop_ || gap >= (stop_ - after).to_seconds())
    return;
  sim_.schedule_at(*this, after + Duration::seconds(gap));
}

void FlowArrivals::complete(Flow& f) {
  const size_t k = f.record.path;
  const config::FlowSpec& path = spec_.paths[k];
  const double now = sim_.now().to_seconds();
  f.record.fct_s = now - f.record.start_s;
  const double wire_bits =
      static_cast<double>((f.record.size_bytes + path.tcp.mss - 1) / path.tcp.mss) * path.tcp.packet_size * 8.0;
  double share = 1.0;  // flows sharing the bottleneck on average
  if (crosses_bottleneck_[k]) {
    if (f.record.fct_s > 0)
      share = std::max(1.0, (clock_.integral() - f.area_at_start) / f.record.fct_s);
    clock_.change(-1);
  }
  f.record.fair_fct_s = base_rtt_[k].to_seconds() + wire_bits * share / bottleneck_bps_;
  f.done = true;
  finished_.push_back(&f);
  ++period_.completed;
  period_.fct_sum_s += f.record.fct_s;
  period_.slowdown_sum += f.record.fct_s / f.record.fair_fct_s;
  completed_.push_back(f.record);
}

void FlowArrivals::reap() {
  // Destroyed only from the arrival event: no event of a finished flow is running now.
  // Finished flows wait until their last packet has left the network.
  std::erase_if(finished_, [this](Flow* f) {
    if (f->in_network() != 0)
      return false;
    reaped_delivered_ += f->receiver->counters().segments_delivered;
    flows_.erase(f->self);
    return true;
  });
}

uint64_t FlowArrivals::delivered_packets() const {
  uint64_t n = reaped_delivered_;
  for (const auto& f : flows_)
    n += f->receiver->counters().segments_delivered;
  return n;
}

void FlowArrivals::active_flows(std::vector<ActiveFlowSample>& out) const {
  for (const auto& f : flows_) {
    if (f->done)
      continue;
    const auto& srtt = f->sender->rtt().view().srtt;
    out.push_back({&f->record.id, f->sender->window().cwnd_pkts, srtt ? srtt->to_seconds() : 0.0,
                   f->sender->counters().segments_acked, f->sender->counters().retransmits});
  }
}

ArrivalPeriod FlowArrivals::take_period() {
  const ArrivalPeriod p = period_;
  period_ = {};
  return p;
}

}  // namespace fastsim::traffic
