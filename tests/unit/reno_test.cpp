// Reno window control without a network (ns-3 style): slow start with ABC, one
// packet per RTT in congestion avoidance, halving on loss, timeout to one packet.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "../support/cc_driver.hpp"
#include "fastsim/cc/registry.hpp"
#include "fastsim/cc/reno.hpp"

using namespace fastsim;
using namespace fastsim::cc;

namespace {
struct Driver {
  std::unique_ptr<CongestionControl> cc;
  Window w;
  RttView rtt;
  explicit Driver(ParamValues p = {}) {
    if (p.empty())
      p = ParamValues::defaults(Reno::param_specs());
    cc = std::make_unique<Reno>(p);
  }
  FlowView view() const {
    FlowView v;
    v.rtt = &rtt;
    v.in_flight_pkts = w.cwnd_pkts;
    return v;
  }
  /// ACKs one window's worth of packets, `per_ack` packets per ACK.
  void advance_rtt(uint32_t per_ack = 1) {
    const auto acks = static_cast<int>(w.cwnd_pkts / per_ack);
    for (int i = 0; i < acks; ++i)
      cc->on_ack(view(), w, AckEvent{per_ack, std::nullopt, false, false});
  }
};
}  // namespace

TEST_CASE("Reno slow start doubles per RTT with or without delayed ACKs", "[cc][reno]") {
  for (uint32_t per_ack : {1u, 2u}) {
    Driver d;
    d.w = {10, kInfiniteSsthresh};
    d.advance_rtt(per_ack);
    CHECK(d.w.cwnd_pkts == Approx(20));
    d.advance_rtt(per_ack);
    CHECK(d.w.cwnd_pkts == Approx(40));
  }
}

TEST_CASE("Reno slow start stops at ssthresh and carries the rest into avoidance", "[cc][reno]") {
  Driver d;
  d.w = {15, 16};
  d.cc->on_ack(d.view(), d.w, AckEvent{2, std::nullopt, false, false});
  CHECK(d.w.cwnd_pkts == Approx(16 + 1.0 / 16));
}

TEST_CASE("Reno congestion avoidance adds one packet per RTT at any window", "[cc][reno]") {
  for (double w0 : {100.0, 1000.0, 10000.0}) {
    for (uint32_t per_ack : {1u, 2u}) {
      Driver d;
      d.w = {w0, 1};
      d.advance_rtt(per_ack);
      CHECK(d.w.cwnd_pkts == Approx(w0 + 1).epsilon(0.001));
    }
  }
}

TEST_CASE("Reno halves on loss and drops to one packet on timeout", "[cc][reno]") {
  Driver d;
  d.w = {1000, 1};
  const auto loss = d.cc->on_loss(d.view(), d.w);
  CHECK(loss.ssthresh_pkts == Approx(500));
  CHECK(loss.cwnd_pkts == Approx(500));
  const auto to = d.cc->on_timeout(d.view(), d.w);
  CHECK(to.ssthresh_pkts == Approx(500));
  CHECK(to.cwnd_pkts == Approx(1));
  d.w = {3, 1};
  CHECK(d.cc->on_loss(d.view(), d.w).ssthresh_pkts == Approx(2));  // floor of 2 packets
}

TEST_CASE("Reno does not grow in recovery or when not window-limited", "[cc][reno]") {
  Driver d;
  d.w = {100, 1};
  d.cc->on_ack(d.view(), d.w, AckEvent{1, std::nullopt, true, false});
  CHECK(d.w.cwnd_pkts == 100);
  FlowView v = d.view();
  v.cwnd_limited = false;
  d.cc->on_ack(v, d.w, AckEvent{1, std::nullopt, false, false});
  CHECK(d.w.cwnd_pkts == 100);
}

TEST_CASE("Reno parameters act in the documented direction", "[cc][reno]") {
  ParamValues p;
  p.set("increase", 2.0);
  p.set("decrease", 0.3);
  Driver d(p);
  d.w = {100, 1};
  d.advance_rtt();
  CHECK(d.w.cwnd_pkts == Approx(102).epsilon(0.001));
  CHECK(d.cc->on_loss(d.view(), d.w).ssthresh_pkts == Approx(102 * 0.7).epsilon(0.001));
}

TEST_CASE("the registry knows reno and its parameters", "[cc]") {
  const AlgorithmInfo* reno = find_algorithm("reno");
  REQUIRE(reno != nullptr);
  CHECK(reno->params.size() == 2);
  CHECK(find_algorithm("nope") == nullptr);
  CHECK_THAT(algorithm_names(), Catch::Contains("reno"));
}

TEST_CASE("Every algorithm's trace columns have their CSV names and read the algorithm", "[cc][registry]") {
  const std::map<std::string, std::vector<std::string>> expected = {
      {"reno", {}},
      {"hstcp", {"hs_a", "hs_b"}},
      {"stcp", {}},
      {"illinois", {"il_alpha", "il_beta", "il_da_s", "il_dm_s"}},
      {"ctcp", {"ct_wnd", "ct_dwnd", "ct_diff"}},
      {"cubic", {"cu_wmax", "cu_k_s"}},
      {"vegas", {"vegas_diff"}},
      {"quick-vegas", {"qv_diff", "qv_incr", "qv_succ"}},
      {"fast", {"fast_avg_rtt_s", "fast_target_pkts", "fast_phase", "fast_n_hat", "fast_c_hat_pps"}},
      {"bbr", {"bbr_mode", "bbr_bw_pps", "bbr_min_rtt_s", "bbr_pacing_gain"}},
      {"dctcp", {"dctcp_alpha"}},
  };
  REQUIRE(algorithms().size() == expected.size());
  for (const auto& a : algorithms()) {
    const auto cc = a.make(ParamValues::defaults(a.params));
    std::vector<std::string> names;
    for (const TraceColumn& c : cc->trace_columns()) {
      names.emplace_back(c.name);
      CHECK(std::isfinite(c.value(*cc)));
    }
    INFO(a.name);
    CHECK(names == expected.at(a.name));
  }
}

TEST_CASE("FAST with a remedy adds its baseRTT correction to the trace and reports summary values", "[cc][registry]") {
  // Plain FAST keeps its five columns and reports nothing (outputs of existing runs
  // unchanged); either remedy appends fast_base_rtt_correction_s and reports n_hat,
  // c_hat_pps and base_rtt_correction_s at the end of the run.
  const AlgorithmInfo* fast = find_algorithm("fast");
  REQUIRE(fast != nullptr);
  CHECK(fast->make(ParamValues::defaults(fast->params))->summary_values().empty());
  for (const std::string remedy : {"rodriguez", "rate_reduction"}) {
    ParamValues p = ParamValues::defaults(fast->params);
    p.set_choice("base_rtt_correction", remedy);
    const auto cc = fast->make(p);
    const auto columns = cc->trace_columns();
    REQUIRE(columns.size() == 6);
    CHECK(std::string(columns[5].name) == "fast_base_rtt_correction_s");
    CHECK(columns[5].value(*cc) == 0);
    std::vector<std::string> names;
    for (const TraceColumn& v : cc->summary_values())
      names.emplace_back(v.name);
    CHECK(names == std::vector<std::string>{"n_hat", "c_hat_pps", "base_rtt_correction_s"});
  }
}

TEST_CASE("Trace columns read the algorithm's state: CUBIC's W_max after a loss", "[cc][registry]") {
  // The epoch after a loss starts at the next ACK with W_max = the window at the loss
  // (no fast convergence on the first loss) and K = cbrt(W_max * (1 - beta) / C), beta
  // = 0.7 and C = 0.4 (RFC 8312).
  fastsim::testing::CcDriver d("cubic");
  d.round_trips(3, Duration::milliseconds(100));
  const double w_at_loss = d.w.cwnd_pkts;
  d.loss();
  d.round_trip(Duration::milliseconds(100));
  const auto columns = d.cc->trace_columns();
  REQUIRE(columns.size() == 2);
  CHECK(columns[0].value(*d.cc) == Approx(w_at_loss).epsilon(1e-12));
  CHECK(columns[1].value(*d.cc) == Approx(std::cbrt(w_at_loss * 0.3 / 0.4)).epsilon(1e-9));
}

TEST_CASE("String options are read back by name, defaulting to the first choice", "[cc][params]") {
  const ParamSpec spec = choice_param("mode", {"one", "two"}, "help");
  ParamValues p = ParamValues::defaults({spec, {"x", 3, 0, 10, "", ""}});
  CHECK(p.choice("mode") == "one");
  CHECK(p.get("x") == 3);
  p.set_choice("mode", "two");
  CHECK(p.choice("mode") == "two");
  const AlgorithmInfo* fast = find_algorithm("fast");
  REQUIRE(fast != nullptr);
  ParamValues f = ParamValues::defaults(fast->params);
  CHECK(f.choice("base_rtt_correction") == "none");
  f.set_choice("base_rtt_correction", "magic");
  CHECK_THROWS_AS(fast->make(f), std::invalid_argument);
}
