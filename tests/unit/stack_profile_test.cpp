// The stack-profile tables (tcp/stack_profile.hpp): every row names an existing TCP
// setting or algorithm parameter with a valid value under every profile, and the rfc
// column is the stack as it was before profiles (TcpConfig's and the algorithms' own
// defaults). Also the ns-2 RTO rule of the RTT estimator (rto_granularity,
// min_rto_floor) against ns-2.35's tcp.cc arithmetic with worked numbers.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>

#include "fastsim/cc/registry.hpp"
#include "fastsim/tcp/rtt_estimator.hpp"
#include "fastsim/tcp/stack_profile.hpp"
#include "fastsim/tcp/tcp_settings.hpp"

using namespace fastsim;
using fastsim::tcp::Stack;

namespace {

const tcp::TcpSetting* find_setting(std::string_view name) {
  const auto all = tcp::tcp_settings();
  const auto it = std::find_if(all.begin(), all.end(), [&](const tcp::TcpSetting& s) { return s.name == name; });
  return it == all.end() ? nullptr : &*it;
}

/// Whether `v` has the member's type and lies within the setting's bounds.
bool valid_value(const tcp::TcpSetting& s, const tcp::SettingValue& v) {
  return std::visit(
      [&](auto m) {
        using T = std::remove_cvref_t<decltype(tcp::TcpConfig{}.*m)>;
        if constexpr (std::is_same_v<T, bool>) {
          return std::holds_alternative<bool>(v);
        } else if constexpr (std::is_same_v<T, Duration>) {
          const Duration* d = std::get_if<Duration>(&v);
          return d != nullptr && (*d > Duration::zero() || (s.zero_ok && *d == Duration::zero()));
        } else if constexpr (std::is_same_v<T, uint64_t>) {
          return false;  // windows are the experiment's, never a profile's
        } else {
          const double* x = std::get_if<double>(&v);
          return x != nullptr && *x >= s.min && *x <= s.max &&
                 (!std::is_integral_v<T> || *x == static_cast<double>(static_cast<int64_t>(*x)));
        }
      },
      s.member);
}

/// Whether `v` equals the value TcpConfig{} holds for `s`.
bool is_tcp_config_default(const tcp::TcpSetting& s, const tcp::SettingValue& v) {
  const tcp::TcpConfig d;
  return std::visit(
      [&](auto m) {
        using T = std::remove_cvref_t<decltype(d.*m)>;
        if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, Duration>) {
          return std::get<T>(v) == d.*m;
        } else {
          return std::get<double>(v) == static_cast<double>(d.*m);
        }
      },
      s.member);
}

}  // namespace

TEST_CASE("stack names round-trip and unknown names are refused", "[unit][stack]") {
  CHECK(tcp::stack_names() == std::vector<std::string>{"rfc", "linux", "ns2"});
  for (Stack s : tcp::kStacks)
    CHECK(tcp::find_stack(tcp::stack_name(s)) == s);
  CHECK_FALSE(tcp::find_stack("bsd").has_value());
  CHECK(tcp::kDefaultStack == Stack::kLinux);
}

TEST_CASE("every stack-profile setting row names a TCP setting with a valid value per profile", "[unit][stack]") {
  std::set<std::string_view> seen;
  for (const tcp::SettingRow& row : tcp::stack_setting_rows()) {
    INFO("row " << row.setting);
    CHECK(seen.insert(row.setting).second);  // one row per setting
    const tcp::TcpSetting* setting = find_setting(row.setting);
    REQUIRE(setting != nullptr);
    for (Stack s : tcp::kStacks) {
      INFO("stack " << tcp::stack_name(s));
      CHECK(valid_value(*setting, row.value(s)));
    }
    CHECK(is_tcp_config_default(*setting, row.value(Stack::kRfc)));  // rfc = the stack as it was
    CHECK_FALSE(row.source.empty());
  }
  for (Stack s : tcp::kStacks) {
    tcp::TcpConfig cfg;
    CHECK(tcp::apply_stack(s, cfg));
  }
}

TEST_CASE("every stack-profile parameter row names an algorithm parameter with a valid value", "[unit][stack]") {
  for (const tcp::ParamRow& row : tcp::stack_param_rows()) {
    INFO("row " << row.algorithm << "." << row.param);
    const cc::AlgorithmInfo* algo = cc::find_algorithm(std::string(row.algorithm));
    REQUIRE(algo != nullptr);
    const auto spec = std::find_if(algo->params.begin(), algo->params.end(),
                                   [&](const cc::ParamSpec& p) { return p.name == row.param; });
    REQUIRE(spec != algo->params.end());
    for (Stack s : tcp::kStacks) {
      INFO("stack " << tcp::stack_name(s));
      const tcp::ParamValue& v = row.value(s);
      if (spec->choices.empty()) {
        REQUIRE(std::holds_alternative<double>(v));
        CHECK(std::get<double>(v) >= spec->min);
        CHECK(std::get<double>(v) <= spec->max);
      } else {
        REQUIRE(std::holds_alternative<std::string_view>(v));
        CHECK(std::count(spec->choices.begin(), spec->choices.end(), std::get<std::string_view>(v)) == 1);
      }
      cc::ParamValues values = cc::ParamValues::defaults(algo->params);
      tcp::apply_stack_params(s, algo->name, values);
      if (algo->check)
        CHECK(algo->check(values).empty());  // a profile's defaults satisfy the algorithm's constraints
    }
    const tcp::ParamValue& rfc = row.value(Stack::kRfc);
    if (spec->choices.empty()) {
      CHECK(std::get<double>(rfc) == spec->default_value);
    } else {
      CHECK(std::get<std::string_view>(rfc) == spec->choices.front());
    }
  }
}

TEST_CASE("the profiles give the documented Linux and ns-2 values", "[unit][stack]") {
  const tcp::TcpConfig rfc = tcp::stack_config(Stack::kRfc);
  const tcp::TcpConfig linux_cfg = tcp::stack_config(Stack::kLinux);
  const tcp::TcpConfig ns2 = tcp::stack_config(Stack::kNs2);
  CHECK_FALSE(rfc.sack);
  CHECK(linux_cfg.sack);
  CHECK(linux_cfg.initial_window == 10);
  CHECK(linux_cfg.min_rto == Duration::milliseconds(200));
  CHECK(linux_cfg.max_rto == Duration::seconds_int(120));
  CHECK(linux_cfg.delayed_ack);
  CHECK_FALSE(ns2.sack);
  CHECK_FALSE(ns2.delayed_ack);  // TCPSink: an ACK per packet
  CHECK(ns2.initial_window == 2);
  CHECK(ns2.initial_rto == Duration::seconds_int(3));
  CHECK(ns2.rto_granularity == Duration::milliseconds(10));
  CHECK(ns2.min_rto_floor);
  // Packet sizes are the experiment's: no profile touches them.
  CHECK(ns2.mss == rfc.mss);
  CHECK(linux_cfg.packet_size == rfc.packet_size);
  cc::ParamValues vegas = cc::ParamValues::defaults(cc::find_algorithm("vegas")->params);
  tcp::apply_stack_params(Stack::kNs2, "vegas", vegas);
  CHECK(vegas.get("alpha") == 1);
  CHECK(vegas.get("beta") == 3);
}

TEST_CASE("rto_granularity follows ns-2's integer rtt_update and rtt_timeout", "[unit][stack][rto]") {
  // ns-2.35 defaults: tcpTick_ 10 ms, minrto_ 200 ms, maxrto_ 60 s, rfc2988_ true (floor).
  tcp::RttEstimator ns2(Duration::seconds_int(3), Duration::milliseconds(200), Duration::seconds_int(60),
                        Duration::milliseconds(10), true);
  CHECK(ns2.rto() == Duration::seconds_int(3));  // rtxcur_init_ before any sample
  // 105 ms -> int(10.5 + 0.5) = 11 ticks; t_srtt = 88, t_rttvar = 22;
  // rtxcur = ((22 << 3) + 88) >> 3 = 33 ticks = 330 ms (exact RFC 6298: 105 + 4 * 52.5 = 315 ms).
  ns2.add_sample(Duration::milliseconds(105));
  CHECK(ns2.rto() == Duration::milliseconds(330));
  // 100 ms -> 10 ticks; delta = 10 - 11 = -1: t_srtt = 87; |delta| - (22 >> 2) = -4: t_rttvar = 18;
  // rtxcur = (144 + 87) >> 3 = 28 ticks.
  ns2.add_sample(Duration::milliseconds(100));
  CHECK(ns2.rto() == Duration::milliseconds(280));
  // A steady 100 ms path: t_srtt stays 87 (87 >> 3 = 10: delta 0), t_rttvar shrinks by
  // t_rttvar >> 2 until it stalls at 3: rtxcur = (24 + 87) >> 3 = 13 ticks = 130 ms, floored
  // at minrto_ = 200 ms.
  for (int i = 0; i < 200; ++i)
    ns2.add_sample(Duration::milliseconds(100));
  CHECK(ns2.rto() == Duration::milliseconds(200));
  // Linux's rule on the same path keeps min_rto on top of srtt: 100 + 200 ms.
  tcp::RttEstimator linux_rto(Duration::seconds_int(1), Duration::milliseconds(200), Duration::seconds_int(120));
  for (int i = 0; i < 200; ++i)
    linux_rto.add_sample(Duration::milliseconds(100));
  CHECK(linux_rto.rto() == Duration::milliseconds(300));
  // Backoff doubles the floored value (ns-2: minrto_ * t_backoff_), capped at maxrto_.
  ns2.backoff();
  CHECK(ns2.rto() == Duration::milliseconds(400));
  for (int i = 0; i < 10; ++i)
    ns2.backoff();
  CHECK(ns2.rto() == Duration::seconds_int(60));
  // After more than three backoffs (t_backoff_ > 8) ns-2 drops srtt: the next sample starts afresh.
  // 300 ms -> 30 ticks; t_srtt = 240, t_rttvar = 60; rtxcur = (480 + 240) >> 3 = 90 ticks.
  ns2.add_sample(Duration::milliseconds(300));
  CHECK(ns2.rto() == Duration::milliseconds(900));
}

TEST_CASE("min_rto_floor without ticks is RFC 6298's max(min_rto, srtt + 4 rttvar)", "[unit][stack][rto]") {
  tcp::RttEstimator floor(Duration::seconds_int(1), Duration::milliseconds(200), Duration::seconds_int(60),
                          Duration::zero(), true);
  floor.add_sample(Duration::milliseconds(40));  // srtt 40, rttvar 20: 40 + 80 = 120 -> floored at 200
  CHECK(floor.rto() == Duration::milliseconds(200));
  floor.add_sample(Duration::milliseconds(40));  // rttvar 15: 100 -> 200
  CHECK(floor.rto() == Duration::milliseconds(200));
  tcp::RttEstimator additive(Duration::seconds_int(1), Duration::milliseconds(200), Duration::seconds_int(60));
  additive.add_sample(Duration::milliseconds(40));  // 40 + max(200, 80)
  CHECK(additive.rto() == Duration::milliseconds(240));
  tcp::RttEstimator big(Duration::seconds_int(1), Duration::milliseconds(200), Duration::seconds_int(60),
                        Duration::zero(), true);
  big.add_sample(Duration::milliseconds(300));  // 300 + 4 * 150 = 900 > 200
  CHECK(big.rto() == Duration::milliseconds(900));
}
