// Start, on/off, stop and completion of the scenario's flows (see flow_lifecycle.hpp).
#include "fastsim/run/flow_lifecycle.hpp"

namespace fastsim::run {

/// Pauses an on/off flow at start + on, resumes it `off` later, pauses it `on` after
/// that, ... while before `end`: the same instants as scheduling every period up front.
class FlowLifecycle::OnOffToggle final : public Event {
 public:
  OnOffToggle(Simulator& sim, tcp::TcpSender& sender, const config::OnOffPeriods& periods, Time first_pause, Time end)
      : sim_(sim), sender_(sender), periods_(periods), end_(end) {
    if (first_pause < end_)
      sim_.schedule_at(*this, first_pause);
  }
  void fire() override {
    paused_ = !paused_;
    if (paused_) {
      sender_.pause();
    } else {
      sender_.resume();
    }
    const Time next = sim_.now() + (paused_ ? periods_.off : periods_.on);
    if (next < end_)
      sim_.schedule_at(*this, next);
  }

 private:
  Simulator& sim_;
  tcp::TcpSender& sender_;
  config::OnOffPeriods periods_;
  Time end_;
  bool paused_ = false;
};

FlowLifecycle::FlowLifecycle(Simulator& sim, traffic::ActiveFlowClock& clock, Time run_end)
    : sim_(sim), clock_(clock), run_end_(run_end) {}

FlowLifecycle::~FlowLifecycle() = default;

void FlowLifecycle::manage(FlowRuntime& f) {
  const config::FlowSpec& spec = *f.spec;
  FlowRuntime* raw = &f;
  f.sender->on_complete([this, raw] { end(*raw); });
  sim_.call_at(Time::at(spec.start), [this, raw] { start(*raw); });
  if (spec.on_off) {  // off at start + on, on again at start + on + off, ...
    const Time end = spec.stop ? Time::at(*spec.stop) : run_end_;
    toggles_.push_back(
        std::make_unique<OnOffToggle>(sim_, *f.sender, *spec.on_off, Time::at(spec.start) + spec.on_off->on, end));
  }
  if (spec.stop) {
    sim_.call_at(Time::at(*spec.stop), [this, raw] {
      raw->sender->stop_new_data();
      end(*raw);
    });
  }
}

void FlowLifecycle::start(FlowRuntime& f) {
  f.activity.started = true;
  if (f.crosses_bottleneck)
    clock_.change(+1);
  f.sender->start();
}

void FlowLifecycle::end(FlowRuntime& f) {
  if (f.activity.ended)
    return;
  f.activity.ended = sim_.now();
  f.activity.segments_delivered_at_end = f.receiver->counters().segments_delivered;
  if (f.activity.started && f.crosses_bottleneck)
    clock_.change(-1);
}

}  // namespace fastsim::run
