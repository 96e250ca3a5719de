// DCTCP (cc/dctcp.hpp, RFC 8257): alpha tracks the fraction of ECE-acknowledged packets
// per window with gain g, the ECN response is cwnd (1 - alpha/2), the loss response Reno's.
#include <catch2/catch.hpp>

#include <cmath>

#include "fastsim/cc/dctcp.hpp"
#include "fastsim/cc/registry.hpp"

using namespace fastsim;
using namespace fastsim::cc;

namespace {

Dctcp make_dctcp(double initial_alpha = 1.0) {
  ParamValues v = ParamValues::defaults(Dctcp::param_specs());
  v.set("initial_alpha", initial_alpha);
  return Dctcp(v);
}

/// Feeds `windows` windows of `per_window` single-packet ACKs, every `every`-th with ECE;
/// the last ACK of each window ends it (round_start).
void feed(Dctcp& d, Window& w, int windows, int per_window, int every) {
  RttView rtt;
  FlowView f;
  f.rtt = &rtt;
  for (int k = 0; k < windows; ++k) {
    for (int i = 1; i <= per_window; ++i) {
      AckEvent a;
      a.newly_acked = 1;
      a.ece = i % every == 0;
      a.round_start = i == per_window;
      d.on_ack(f, w, a);
    }
  }
}

}  // namespace

TEST_CASE("dctcp is registered, needs ECN and traces alpha", "[dctcp]") {
  const AlgorithmInfo* info = find_algorithm("dctcp");
  REQUIRE(info != nullptr);
  auto cc = info->make(ParamValues::defaults(info->params));
  CHECK(cc->needs_ecn());
  REQUIRE(cc->trace_columns().size() == 1);
  CHECK(std::string(cc->trace_columns()[0].name) == "dctcp_alpha");
  CHECK(cc->trace_columns()[0].value(*cc) == 1.0);  // initial alpha as Linux
}

TEST_CASE("dctcp alpha converges to the marked fraction", "[dctcp]") {
  for (double start : {0.0, 1.0}) {
    Dctcp d = make_dctcp(start);
    Window w{1000, 1};  // congestion avoidance, a large window: growth does not matter here
    feed(d, w, 1, 20, 4);
    // One window of F = 1/4: alpha = (15/16) start + 1/16 * 1/4.
    CHECK(d.alpha() == Approx(15.0 / 16 * start + 0.25 / 16).margin(1e-12));
    feed(d, w, 199, 20, 4);
    // After 200 windows the start is forgotten to (15/16)^200 ~ 2.5e-6.
    CHECK(d.alpha() == Approx(0.25).margin(1e-4));
  }
  SECTION("every packet marked, then none") {
    Dctcp d = make_dctcp(0.0);
    Window w{1000, 1};
    feed(d, w, 100, 10, 1);
    CHECK(d.alpha() == Approx(1 - std::pow(15.0 / 16, 100)).margin(1e-9));
    feed(d, w, 100, 10, 11);  // no marks
    CHECK(d.alpha() < 0.01);
  }
}

TEST_CASE("dctcp cuts by alpha/2 on ECN and halves on loss", "[dctcp]") {
  Dctcp d = make_dctcp(0.0);
  Window w{100, 1};
  feed(d, w, 200, 20, 4);  // alpha ~ 0.25
  RttView rtt;
  FlowView f;
  f.rtt = &rtt;
  const double cwnd = w.cwnd_pkts;
  const LossResponse e = d.on_ecn(f, w);
  CHECK(e.cwnd_pkts == Approx(cwnd * (1 - d.alpha() / 2)).margin(1e-9));
  CHECK(e.cwnd_pkts == Approx(cwnd * 0.875).epsilon(1e-3));
  CHECK(e.ssthresh_pkts == e.cwnd_pkts);
  const LossResponse l = d.on_loss(f, w);
  CHECK(l.cwnd_pkts == Approx(cwnd / 2));
  Window small{2.5, 1};
  CHECK(d.on_ecn(f, small).cwnd_pkts >= kMinWindow);
}
