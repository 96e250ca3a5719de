// Start, on/off, stop and completion of the scenario's flows (see flow_lifecycle.hpp).
#include "fastsim/run/flow_lifecycle.hpp"

namespace fastsim::run {

void FlowLifecycle::manage(FlowRuntime& f) {
  const config::FlowSpec& spec = *f.spec;
  FlowRuntime* raw = &f;
  f.sender->on_complete([this, raw] { end(*raw); });
  sim_.call_at(Time::at(spec.start), [this, raw] { start(*raw); });
  if (spec.on_off) {  // off at start + on, on again at start + on + off, ...
    const Time end = spec.stop ? Time::at(*spec.stop) : run_end_;
    for (Time t = Time::at(spec.start) + spec.on_off->on; t < end; t += spec.on_off->on + spec.on_off->off) {
      sim_.call_at(t, [raw] { raw->sender->pause(); });
      if (t + spec.on_off->off < end)
        sim_.call_at(t + spec.on_off->off, [raw] { raw->sender->resume(); });
    }
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
  if (f.activity.started && f.crosses_bottleneck)
    clock_.change(-1);
}

}  // namespace fastsim::run
