// The stack-profile tables (stack_profile.hpp): each row one setting or parameter, its
// value under rfc, linux and ns2, and the source of the linux and ns2 values (Linux: the
// kernel's include/net/tcp.h and net/ipv4/tcp_*.c; ns-2: ns-2.35's tcl/lib/ns-default.tcl,
// tcp/tcp.cc, tcp/tcp-sink.cc, tcp/tcp-vegas.cc). The rfc column is TcpConfig's and the
// algorithms' own defaults (a unit test checks it), so "rfc" is the stack as it was
// before profiles existed.
#include "fastsim/tcp/stack_profile.hpp"

#include <algorithm>

#include "fastsim/tcp/tcp_settings.hpp"

namespace fastsim::tcp {

namespace {

constexpr Duration ms(int64_t v) {
  return Duration::milliseconds(v);
}
constexpr Duration s(int64_t v) {
  return Duration::seconds_int(v);
}

// clang-format off
const SettingRow kSettingRows[] = {
    // setting              rfc     linux    ns2      source
    {"delayed_ack",         true,   true,    false,   "Linux ACKs every 2nd full segment (tcp_input.c __tcp_ack_snd_check; its quick-ACK mode at start-up and after idle is not modelled); ns-2's Agent/TCPSink ACKs every packet (the delayed sink is Agent/TCPSink/DelAck)"},
    {"delayed_ack_timeout", ms(40), ms(40),  ms(100), "Linux TCP_DELACK_MIN = HZ/25 (the adaptive ATO up to TCP_DELACK_MAX = 200 ms is not modelled); ns-2 Agent/TCPSink/DelAck interval_ 100ms"},
    {"sack",                false,  true,    false,   "Linux net.ipv4.tcp_sack = 1; ns-2's Agent/TCP, Reno, Newreno and Vegas agents have no SACK (Agent/TCP/Sack1 is a separate agent)"},
    {"dupack_threshold",    3.0,    3.0,     3.0,     "Linux net.ipv4.tcp_reordering = 3; ns-2 Agent/TCP numdupacks_ 3"},
    {"min_rto",             ms(200), ms(200), ms(200), "Linux TCP_RTO_MIN = HZ/5; ns-2 Agent/TCP minrto_ 0.2"},
    {"initial_rto",         s(1),   s(1),    s(3),    "Linux TCP_TIMEOUT_INIT = 1 s (RFC 6298, since 3.1); ns-2 Agent/TCP rtxcur_init_ 3.0"},
    {"max_rto",             s(60),  s(120),  s(60),   "Linux TCP_RTO_MAX = 120 s; ns-2 Agent/TCP maxrto_ 60"},
    {"initial_window",      10.0,   10.0,    2.0,     "Linux TCP_INIT_CWND = 10 (since 2.6.39); ns-2 Agent/TCP windowInit_ 2 (its one-RTT SYN exchange before it, syn_ and delay_growth_, is not modelled)"},
    {"rto_granularity",     s(0),   s(0),    ms(10),  "Linux counts RTT in microseconds and arms timers in jiffies (1-4 ms, not modelled); ns-2 Agent/TCP tcpTick_ 0.01 with tcp.cc's integer rtt_update"},
    {"min_rto_floor",       false,  false,   true,    "Linux tcp_set_rto: srtt + max(4 mdev, rto_min); ns-2 tcp.cc rtt_timeout (rfc2988_ true): max(minrto_, srtt + 4 rttvar)"},
    {"rtt_every_ack",       true,   true,    false,   "Linux net.ipv4.tcp_timestamps = 1: an RTT sample from every ACK's timestamp echo (tcp_ack_update_rtt); ns-2 Agent/TCP timestamps_ false: tcp.cc times one segment (rtt_active_, rtt_seq_, rtt_ts_ in output and newack) and reset_rtx_timer stops the timing at a fast retransmit or timeout"},
    {"local_congestion",    false,  false,   false,   "off under every stack: Linux's tcp_transmit_skb keeps a segment the qdisc refuses and enters CWR, but fastsim cannot tell whether a scenario's first hop is the host's transmit queue or a network link, so the switch is the scenario's to set"},
    {"rack",                false,  true,    false,   "Linux net.ipv4.tcp_recovery = 1 (RACK-TLP, default since 4.18; lost retransmissions were marked since 2.6); ns-2's one-way agents detect loss by duplicate ACKs and the timer only"},
    {"prr",                 false,  true,    false,   "Linux PRR in tcp_input.c (since 3.2, RFC 6937; conservative bound unless safe since 4.2, RFC 9937); ns-2's agents set the window at the start of recovery"},
    {"slow_start_after_idle", false, true,   true,    "Linux net.ipv4.tcp_slow_start_after_idle = 1 (tcp_cwnd_restart: halve per idle RTO, down to IW); ns-2 Agent/TCP slow_start_restart_ true closes cwnd to windowInit_ when the timer fires with nothing outstanding (fastsim applies Linux's rule for both)"},
    {"rto_keeps_recovery_ssthresh", false, true, false, "Linux tcp_enter_loss reduces ssthresh only if it has not yet been reduced inside this window (state below Recovery, or snd_una at high_seq); ns-2 tcp.cc timeout() halves the window it has then (slowdown CLOSE_SSTHRESH_HALF)"},
    {"pacing",              false,  false,   false,   "off under every stack: Linux paces only with the fq qdisc (or when the algorithm asks, as BBR does: the algorithm's own rate is used whatever this switch says); the default qdisc pfifo_fast/fq_codel does not pace; ns-2's agents do not pace"},
    {"ecn",                 false,  false,   false,   "Linux net.ipv4.tcp_ecn = 2 (ECN only when the peer asks: off for the connections a host opens; DCTCP turns it on, TCP_CONG_NEEDS_ECN); ns-2 Agent/TCP ecn_ 0"},
};

const ParamRow kParamRows[] = {
    // algorithm  param    rfc   linux  ns2   source
    {"vegas",     "alpha", 2.0,  2.0,   1.0,  "Linux tcp_vegas.c alpha = 2; ns-2 Agent/TCP/Vegas v_alpha_ 1"},
    {"vegas",     "beta",  4.0,  4.0,   3.0,  "Linux tcp_vegas.c beta = 4; ns-2 Agent/TCP/Vegas v_beta_ 3"},
    {"vegas",     "gamma", 1.0,  1.0,   1.0,  "Linux tcp_vegas.c gamma = 1; ns-2 Agent/TCP/Vegas v_gamma_ 1"},
    {"vegas",     "rtt_statistic", "round_min", "round_min", "round_mean", "Linux tcp_vegas.c judges a round by its minimum RTT; ns-2 tcp-vegas.cc by the mean of the round's samples"},
    {"quick-vegas", "rtt_statistic", "round_min", "round_min", "round_mean", "as vegas: Quick Vegas was evaluated in ns-2, whose Vegas averages the round"},
    {"vegas",     "diff_arithmetic", "exact", "exact", "ns2", "ns-2 tcp-vegas.cc: delta = int((expect - actual) * baseRTT + 0.5); Linux tcp_vegas.c computes cwnd * (rtt - baseRTT) / baseRTT in u32 arithmetic (diff_arithmetic linux), not yet the linux profile's default: fastsim predict and the Vegas theory tests model the real-valued diff"},
    {"quick-vegas", "diff_arithmetic", "exact", "exact", "ns2", "as vegas: the paper's pseudo-code tests diff == (alpha + beta) / 2, an integer comparison; Quick Vegas is not in Linux"},
    {"cubic",     "hystart", "off", "linux", "off",  "Linux tcp_cubic.c hystart = 1 (since 2.6.29); ns-2 has no CUBIC agent of its own"},
    {"ctcp",      "tube",  "off", "on",  "off",  "the CTCP implementations of the Leith et al. evaluation (Vista SP1 and the Linux re-implementation of the draft) employ TUBE; ns-2 has no CTCP agent"},
};
// clang-format on

template <class Row>
const auto& pick(const Row& r, Stack s) {
  switch (s) {
    case Stack::kLinux:
      return r.in_linux;
    case Stack::kNs2:
      return r.in_ns2;
    case Stack::kRfc:
      break;
  }
  return r.in_rfc;
}

template <class... Fns>
struct Overloaded : Fns... {
  using Fns::operator()...;
};
template <class... Fns>
Overloaded(Fns...) -> Overloaded<Fns...>;

/// Sets `member` of `cfg` to `v`; false if `v` has the wrong type for it.
bool set_member(const TcpSetting::Member& member, const SettingValue& v, TcpConfig& cfg) {
  return std::visit(Overloaded{[&](bool TcpConfig::*m) {
                                 const bool* b = std::get_if<bool>(&v);
                                 return b != nullptr && ((cfg.*m = *b), true);
                               },
                               [&](Duration TcpConfig::*m) {
                                 const Duration* d = std::get_if<Duration>(&v);
                                 return d != nullptr && ((cfg.*m = *d), true);
                               },
                               [&](double TcpConfig::*m) {
                                 const double* x = std::get_if<double>(&v);
                                 return x != nullptr && ((cfg.*m = *x), true);
                               },
                               [&](uint32_t TcpConfig::*m) {
                                 const double* x = std::get_if<double>(&v);
                                 return x != nullptr && ((cfg.*m = static_cast<uint32_t>(*x)), true);
                               },
                               [&](uint64_t TcpConfig::*) { return false; }},  // windows are the experiment's
                    member);
}

}  // namespace

std::string_view stack_name(Stack s) {
  switch (s) {
    case Stack::kLinux:
      return "linux";
    case Stack::kNs2:
      return "ns2";
    case Stack::kRfc:
      break;
  }
  return "rfc";
}

std::optional<Stack> find_stack(std::string_view name) {
  for (Stack s : kStacks) {
    if (stack_name(s) == name)
      return s;
  }
  return std::nullopt;
}

std::vector<std::string> stack_names() {
  std::vector<std::string> out;
  for (Stack s : kStacks)
    out.emplace_back(stack_name(s));
  return out;
}

const SettingValue& SettingRow::value(Stack s) const {
  return pick(*this, s);
}
const ParamValue& ParamRow::value(Stack s) const {
  return pick(*this, s);
}

std::span<const SettingRow> stack_setting_rows() {
  return kSettingRows;
}
std::span<const ParamRow> stack_param_rows() {
  return kParamRows;
}

bool apply_stack(Stack s, TcpConfig& cfg) {
  bool ok = true;
  const auto settings = tcp_settings();
  for (const SettingRow& row : kSettingRows) {
    const auto it =
        std::find_if(settings.begin(), settings.end(), [&row](const TcpSetting& t) { return t.name == row.setting; });
    ok = it != settings.end() && set_member(it->member, row.value(s), cfg) && ok;
  }
  return ok;
}

TcpConfig stack_config(Stack s) {
  TcpConfig cfg;
  apply_stack(s, cfg);
  return cfg;
}

void apply_stack_params(Stack s, std::string_view algorithm, cc::ParamValues& values) {
  for (const ParamRow& row : kParamRows) {
    if (row.algorithm != algorithm)
      continue;
    std::visit(Overloaded{[&](double x) { values.set(std::string(row.param), x); },
                          [&](std::string_view c) { values.set_choice(std::string(row.param), std::string(c)); }},
               row.value(s));
  }
}

}  // namespace fastsim::tcp
