// The sender's Linux-like loss recovery switches, each scripted with the sender harness
// (tests/support/sender_harness.hpp) against its specification:
// - `rack`: RACK (RFC 8985 section 6) finds a lost retransmission from the delivery of a
//   segment sent after it, and Tail Loss Probe (section 7) turns a tail loss into a fast
//   recovery; without the switch both cost a retransmission timeout.
// - `prr`: the segments sent on each ACK of a fast recovery are RFC 6937's sndcnt, with
//   RFC 9937's reduction bound.
// - `slow_start_after_idle`: RFC 2861 as Linux's tcp_cwnd_restart does it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "../support/sender_harness.hpp"

using namespace fastsim;
using fastsim::testing::SenderHarness;
using Seqs = std::vector<uint64_t>;

namespace {

Time ms(int64_t v) {
  return Time::at(Duration::milliseconds(v));
}

tcp::TcpConfig config(bool rack, bool prr = false) {
  tcp::TcpConfig cfg;
  cfg.sack = true;
  cfg.rack = rack;
  cfg.prr = prr;
  cfg.initial_window = 10;
  return cfg;
}

}  // namespace

TEST_CASE("RACK: a lost retransmission is resent when a later-sent segment is SACKed, without a timeout",
          "[tcp][sender][rack]") {
  for (const bool rack : {false, true}) {
    CAPTURE(rack);
    SenderHarness h(config(rack));
    h.start();  // 0..9 at t = 0; segment 0 is lost
    h.run_until(ms(100));
    for (uint64_t k = 2; k <= 4; ++k)  // 1, 2, 3 arrive: three SACKed segments above the hole
      h.ack(0, {{1, k}});
    CHECK(h.state() == cc::CaState::kRecovery);
    CHECK(h.retransmitted() == Seqs{0});
    h.run_until(ms(101));
    for (uint64_t k = 5; k <= 10; ++k)  // 4..9 arrive: the pipe falls, new data leaves after the retransmission
      h.ack(0, {{1, k}});
    const size_t before = h.sent().size();
    CHECK(h.seqs(11) == Seqs{10, 11, 12, 13});
    CHECK(h.sent()[11].at == ms(101));

    // The retransmission of 0 (sent at 100 ms) is lost; 10 (sent at 101 ms) arrives.
    h.run_until(ms(201));
    h.ack(0, {{1, 11}});
    if (rack) {
      // RACK.xmit_ts = 101 ms > 100 ms: the retransmission is lost (reo_wnd = 0 in recovery).
      CHECK(h.retransmitted(before) == Seqs{0});
      CHECK(h.sent().back().at == ms(201));
      // Without PRR the lost retransmission lowers the window a second time (RFC 5681 4.3).
      CHECK(h.calls().loss == 2);
      CHECK(h.ssthresh() == 2.5);
      h.run_until(ms(301));
      h.ack(14, {}, true);  // the second retransmission fills the hole
      CHECK(h.state() == cc::CaState::kOpen);
      CHECK(h.sender().counters().timeouts == 0);
      CHECK(h.calls().timeout == 0);
    } else {
      // RFC 6675 alone has nothing to mark: the retransmission waits for the RTO (1 s
      // from the first send: no cumulative ACK, so no RTT sample).
      CHECK(h.retransmitted(before).empty());
      h.run_until(ms(999));
      CHECK(h.sender().counters().timeouts == 0);
      h.run_until(ms(1000));
      CHECK(h.sender().counters().timeouts == 1);
    }
  }
}

TEST_CASE("RACK: a tail loss is repaired through a loss probe and fast recovery, without a timeout",
          "[tcp][sender][rack][tlp]") {
  for (const bool rack : {false, true}) {
    CAPTURE(rack);
    SenderHarness h(config(rack), "reno", 10);  // a 10-segment flow: no new data to probe with
    h.start();
    h.run_until(ms(100));
    h.ack(7);  // 7, 8 and 9 are lost; SRTT = 100 ms
    const Duration rto = h.rto();
    REQUIRE(rto == Duration::milliseconds(300));
    if (!rack) {
      h.run_until(ms(399));
      CHECK(h.sender().counters().timeouts == 0);
      h.run_until(ms(400));  // the RTO, 300 ms after the ACK
      CHECK(h.sender().counters().timeouts == 1);
      continue;
    }
    // PTO = 2 SRTT (three segments out: no delayed-ACK allowance) after the ACK.
    h.run_until(ms(299));
    CHECK(h.sent().size() == 10);
    h.run_until(ms(300));
    REQUIRE(h.sent().size() == 11);
    CHECK(h.sent().back().seq == 9);  // no new data: the last segment is the probe
    CHECK(h.sent().back().retransmission);
    CHECK(h.sender().counters().loss_probes == 1);
    // The probe's ACK SACKs 9: 7 and 8, sent long before it, are lost; recovery resends them.
    h.run_until(ms(400));
    h.ack(7, {{9, 10}}, true, ms(300));
    CHECK(h.state() == cc::CaState::kRecovery);
    CHECK(h.retransmitted() == Seqs{9, 7, 8});
    h.run_until(ms(500));
    h.ack(10, {}, true);
    CHECK(h.sender().complete());
    CHECK(h.sender().counters().timeouts == 0);
    CHECK(h.sender().counters().loss_probes == 1);
  }
}

TEST_CASE("RACK: the probe is new data when there is some; one segment out adds the delayed-ACK allowance",
          "[tcp][sender][rack][tlp]") {
  {
    SenderHarness h(config(true));
    h.start();
    h.run_until(ms(100));
    h.ack(7);  // cwnd 12 (Reno's slow start counts at most 2 per ACK): 10..18 leave and are lost
    REQUIRE(h.snd_nxt() == 19);
    h.run_until(ms(299));  // PTO = 2 SRTT after the last new segment
    CHECK(h.sent().size() == 19);
    h.run_until(ms(300));
    REQUIRE(h.sent().size() == 20);
    CHECK(h.sent().back().seq == 19);
    CHECK_FALSE(h.sent().back().retransmission);
  }
  for (const uint64_t total : {11, 12}) {  // after the first ACK, one or two segments are out
    CAPTURE(total);
    tcp::TcpConfig cfg = config(true);
    cfg.min_rto = Duration::seconds_int(1);  // RTO 1.1 s: the PTO is not cut to the RTO
    SenderHarness h(cfg, "reno", total);
    h.start();
    h.run_until(ms(100));
    h.ack(10);  // SRTT 100 ms
    REQUIRE(h.snd_nxt() == total);
    const int64_t pto_ms = total == 11 ? 400 : 200;  // 2 SRTT (+ 200 ms with one segment out)
    h.run_until(ms(100 + pto_ms - 1));
    CHECK(h.sent().size() == total);
    h.run_until(ms(100 + pto_ms));
    REQUIRE(h.sent().size() == total + 1);
    CHECK(h.sent().back().seq == total - 1);
    CHECK(h.sent().back().retransmission);
  }
}

TEST_CASE("RACK: the probe timer follows the last ACK's batch, also with several ACKs and batches in one instant",
          "[tcp][sender][rack][tlp]") {
  // The sender computes the probe deadline once per sending batch (later segments of the
  // batch, and the ACK that clocked them out, would compute the same one): each ACK's
  // batch must still move it with that ACK's SRTT and instant, and the timer must fire
  // at the last deadline, not at an earlier one left by a previous batch.
  tcp::TcpConfig cfg = config(true);
  SenderHarness h(cfg);
  h.start();  // 0..9 at t = 0
  h.run_until(ms(100));
  h.ack(2);  // SRTT 100 ms; cwnd 12: 10..13 leave; probe deadline 300 ms
  REQUIRE(h.snd_nxt() == 14);
  h.run_until(ms(150));
  h.ack(4);  // sample 150 ms: SRTT 106.25 ms; 14..17 leave
  h.ack(6);  // the same instant, sample 150 ms: SRTT 111.71875 ms; 18..21 leave
  REQUIRE(h.snd_nxt() == 22);
  REQUIRE(h.srtt() == Duration::picoseconds(111'718'750'000));
  // RTO = SRTT + max(200 ms, 4 RTTVAR = 193.75 ms) = 311.72 ms after 150 ms: not the limit.
  REQUIRE(h.rto() == Duration::picoseconds(311'718'750'000));
  const Time deadline = ms(150) + *h.srtt() * 2;  // 373.4375 ms
  h.run_until(ms(300));  // the first batch's deadline has passed: nothing is sent
  CHECK(h.sent().size() == 22);
  h.run_until(deadline - Duration::picoseconds(1));
  CHECK(h.sent().size() == 22);
  h.run_until(deadline);
  REQUIRE(h.sent().size() == 23);
  CHECK(h.sent().back().seq == 22);  // new data
  CHECK_FALSE(h.sent().back().retransmission);
  CHECK(h.sent().back().at == deadline);
  CHECK(h.sender().counters().loss_probes == 1);
  CHECK(h.sender().counters().timeouts == 0);
}

TEST_CASE("PRR: the sends on each ACK of a fast recovery are RFC 6937/9937's sndcnt", "[tcp][sender][prr]") {
  tcp::TcpConfig cfg = config(false, true);
  cfg.initial_window = 20;
  SenderHarness h(cfg);
  h.start();  // 0..19; segment 0 is lost
  h.run_until(ms(100));
  h.ack(0, {{1, 2}});
  h.ack(0, {{1, 3}});
  CHECK(h.sent().size() == 20);  // no limited transmit

  // RFC 6937 with RecoverFS = 20 (snd.nxt - snd.una at the start), ssthresh from Reno,
  // pipe as RFC 6675 counts it: every segment but 0 is SACKed as it arrives, so
  // pipe = snd.nxt - SACKed (0 is lost and retransmitted).
  double ssthresh = 0;
  double prr_delivered = 0;
  double prr_out = 0;
  uint64_t snd_nxt = 20;
  uint64_t sacked = 2;
  std::vector<int> expected;
  std::vector<int> actual;
  bool bound_seen = false;
  bool proportional_seen = false;
  // Each ACK SACKs the next segment: 3..19 first, then the new segments as they arrive.
  for (uint64_t k = 3; k < 40; ++k) {
    const size_t before = h.sent().size();
    h.run_until(ms(100 + static_cast<int64_t>(k)));
    h.ack(0, {{1, k + 1}});
    if (k == 3) {
      REQUIRE(h.state() == cc::CaState::kRecovery);
      ssthresh = h.ssthresh();
      REQUIRE(ssthresh == 10);
    }
    ++sacked;
    prr_delivered += 1;  // DeliveredData: one newly SACKed segment
    const double pipe = static_cast<double>(snd_nxt - sacked);
    double sndcnt = 0;
    if (pipe > ssthresh) {
      proportional_seen = true;
      sndcnt = std::ceil(prr_delivered * ssthresh / 20.0) - prr_out;
    } else {
      bound_seen = true;
      // RFC 9937: no ACK here advances snd.una, so none is "safe": packet conservation.
      sndcnt = std::min(ssthresh - pipe, std::max(prr_delivered - prr_out, 1.0));
    }
    sndcnt = std::max(sndcnt, 0.0);
    const auto sent_now = static_cast<int>(h.sent().size() - before);
    expected.push_back(static_cast<int>(sndcnt));
    actual.push_back(sent_now);
    prr_out += sent_now;
    snd_nxt = h.snd_nxt();
    if (k + 1 >= snd_nxt)
      break;
  }
  CHECK(proportional_seen);
  CHECK(bound_seen);
  CHECK(actual == expected);
  // In the proportional phase about ssthresh / RecoverFS = 1/2 segment leaves per ACK.
  CHECK(std::vector<int>(actual.begin(), actual.begin() + 6) == std::vector<int>{1, 0, 1, 0, 1, 0});

  // The retransmission fills the hole: recovery ends with cwnd = ssthresh.
  h.run_until(ms(300));
  h.ack(h.snd_nxt(), {}, true);
  CHECK(h.state() == cc::CaState::kOpen);
  CHECK(h.cwnd() == ssthresh);
}

TEST_CASE("PRR: the ACK that starts a recovery sends max(min(ssthresh - pipe, DeliveredData), 1), the fast "
          "retransmission included",
          "[tcp][sender][prr]") {
  // Linux's tcp_cwnd_reduction on the entering ACK (prr_out = 0): with pipe below ssthresh
  // the conservative bound sends DeliveredData segments, the retransmission being one of
  // them, not one more (RFC 9937's forced first segment only when the bound gives none).
  for (const bool rack : {false, true}) {
    CAPTURE(rack);
    SenderHarness h(config(rack, true));
    h.start();  // 0..9 at t = 0; 0..5 are lost
    h.run_until(ms(100));
    h.ack(0, {{6, 9}});  // 6, 7, 8 SACKed in one ACK: DeliveredData 3; 0..5 marked lost
    REQUIRE(h.state() == cc::CaState::kRecovery);
    CHECK(h.ssthresh() == 5);
    // pipe before any send: 10 out - 3 SACKed - 6 lost = 1; ssthresh - pipe = 4 > 3.
    CHECK(h.retransmitted() == Seqs{0, 1, 2});
    CHECK(h.pipe() == 4);
    // A further ACK delivering one segment (9) sends one more, not ACK-clocked beyond it.
    h.run_until(ms(101));
    h.ack(0, {{6, 10}});
    CHECK(h.retransmitted() == Seqs{0, 1, 2, 3});
  }
}

TEST_CASE("SACK: after a timeout, a lost first segment sent after it starts a fast recovery once the ACK "
          "reaches it (no second timeout)",
          "[tcp][sender][rack]") {
  // RFC 6675 5.1: a new recovery may start once HighACK >= RecoveryPoint (RFC 6582's stricter
  // "passes recover" is for duplicate ACKs of data resent by go-back-N); Linux leaves the Loss
  // state at snd_una == high_seq and enters Recovery on the loss marks of the same ACK.
  for (const bool rack : {false, true}) {
    CAPTURE(rack);
    SenderHarness h(config(rack));
    h.start();  // 0..9
    h.run_until(ms(100));
    h.ack(10);  // cwnd 12: 10..21 leave, and are all lost
    REQUIRE(h.snd_nxt() == 22);
    while (h.sender().counters().timeouts == 0)
      h.advance(Duration::milliseconds(1));
    REQUIRE(h.state() == cc::CaState::kLoss);
    const Time rto_at = h.now();
    const uint64_t recover = h.snd_nxt();  // 22, or 23 after RACK's loss probe (new data)
    // The timed-out data is acknowledged in two steps (the originals were only late); the
    // second ACK reaches snd_nxt at the timeout: Open again, cwnd 5, five new segments leave.
    h.advance(Duration::milliseconds(100));
    h.ack(16, {}, true);
    h.advance(Duration::milliseconds(1));
    h.ack(recover, {}, true);
    REQUIRE(h.state() == cc::CaState::kOpen);
    REQUIRE(h.snd_nxt() == recover + 5);
    const size_t before = h.sent().size();
    // The first of them is lost; the next three arrive: IsLost (and RACK, reo_wnd 0 with 3 SACKed).
    h.advance(Duration::milliseconds(100));
    h.ack(recover, {{recover + 1, recover + 4}});
    CHECK(h.state() == cc::CaState::kRecovery);
    REQUIRE_FALSE(h.retransmitted(before).empty());
    CHECK(h.retransmitted(before).front() == recover);
    CHECK(h.sent()[before].at == h.now());
    CHECK(h.sender().counters().timeouts == 1);
    CHECK(h.now() < rto_at + h.rto());
  }
}

TEST_CASE("A timeout during fast recovery keeps the recovery's ssthresh with rto_keeps_recovery_ssthresh (Linux)",
          "[tcp][sender][rto]") {
  // Linux tcp_enter_loss reduces ssthresh only if it was not already reduced inside this
  // window; ns-2 (and the rfc stack) halve the window the recovery left.
  for (const bool keep : {true, false}) {
    CAPTURE(keep);
    tcp::TcpConfig cfg = config(false);
    cfg.initial_window = 20;
    cfg.rto_keeps_recovery_ssthresh = keep;
    SenderHarness h(cfg);
    h.start();  // 0..19; 0 is lost
    h.run_until(ms(100));
    for (uint64_t k = 2; k <= 4; ++k)
      h.ack(0, {{1, k}});
    REQUIRE(h.state() == cc::CaState::kRecovery);
    REQUIRE(h.ssthresh() == 10);
    while (h.sender().counters().timeouts == 0)  // the retransmission is lost too
      h.advance(Duration::milliseconds(1));
    CHECK(h.state() == cc::CaState::kLoss);
    CHECK(h.cwnd() == 1);
    CHECK(h.calls().timeout == 1);  // the algorithm is told either way
    CHECK(h.ssthresh() == (keep ? 10 : 5));
  }
}

TEST_CASE("PRR off: recovery sends what cwnd = ssthresh allows (control)", "[tcp][sender][prr]") {
  tcp::TcpConfig cfg = config(false, false);
  cfg.initial_window = 20;
  SenderHarness h(cfg);
  h.start();
  h.run_until(ms(100));
  for (uint64_t k = 2; k <= 4; ++k)
    h.ack(0, {{1, k}});
  CHECK(h.retransmitted() == Seqs{0});
  // pipe = 20 - 3 = 17 > cwnd = 10: nothing more until the pipe falls below 10.
  for (uint64_t k = 5; k <= 11; ++k)
    h.ack(0, {{1, k}});
  CHECK(h.sent().size() == 21);
  h.ack(0, {{1, 12}});  // pipe 9: one new segment
  CHECK(h.sent().size() == 22);
}

TEST_CASE("Slow start restarts after an idle period longer than the RTO, not after a shorter one",
          "[tcp][sender][idle]") {
  // Slow start (ACKs at 100 and 200 ms, the last send at 200 ms), pause, the rest of the
  // window is ACKed at 300 ms (cwnd 41: the window grows only while cwnd-limited), then
  // resume `idle_rtos` RTOs after the last send.
  struct Case {
    bool on;
    double idle_rtos;
    double cwnd;
    double ssthresh;
  };
  const double inf = cc::kInfiniteSsthresh;
  // Linux tcp_cwnd_restart: ssthresh = max(ssthresh, 3/4 cwnd) (30.75 with ssthresh 2, still
  // infinite in the initial slow start); cwnd halves for every RTO beyond the first, not
  // below min(IW, cwnd) = 10.
  for (const Case c : {Case{true, 0.5, 41, inf}, Case{true, 1.5, 20.5, inf}, Case{true, 2.5, 10.25, inf},
                       Case{true, 10, 10, inf}, Case{false, 10, 41, inf}}) {
    CAPTURE(c.on, c.idle_rtos, c.ssthresh);
    tcp::TcpConfig cfg;
    cfg.slow_start_after_idle = c.on;
    SenderHarness h(cfg);
    h.start();
    auto ack_each = [&h](uint64_t to) {
      for (uint64_t a = h.snd_una() + 1; a <= to; ++a)
        h.ack(a);
    };
    h.run_until(ms(100));
    ack_each(10);
    h.run_until(ms(200));
    ack_each(30);
    h.sender().pause();
    h.run_until(ms(300));
    ack_each(70);
    REQUIRE(h.cwnd() == 41);
    REQUIRE(h.snd_nxt() == 70);
    const Duration rto = h.rto();
    REQUIRE(rto == Duration::milliseconds(300));
    h.run_until(ms(200) + Duration::seconds(c.idle_rtos * rto.to_seconds()));
    h.sender().resume();
    CHECK(h.cwnd() == c.cwnd);
    CHECK(h.ssthresh() == c.ssthresh);
    CHECK(h.sent().size() == 70 + static_cast<size_t>(std::floor(c.cwnd)));
    CHECK(h.sender().counters().idle_restarts == (c.on && c.idle_rtos > 1 ? 1U : 0U));
  }
}

TEST_CASE("Slow start after idle leaves BBR alone, as Linux does for an algorithm with its own cong_control",
          "[tcp][sender][idle][bbr]") {
  // Linux's tcp_slow_start_after_idle_check returns at once when the algorithm has a
  // cong_control hook (BBR sets cwnd and the pacing rate from its own model); Reno, with
  // the same script, restarts (the case above).
  for (const std::string algorithm : {"bbr", "reno"}) {
    CAPTURE(algorithm);
    tcp::TcpConfig cfg;
    cfg.slow_start_after_idle = true;
    SenderHarness h(cfg, algorithm);
    h.start();
    h.run_until(ms(100));
    for (uint64_t a = 1; a <= 10; ++a)
      h.ack(a);
    h.sender().pause();
    h.run_until(ms(200));
    h.ack(h.snd_nxt());
    const double before = h.cwnd();
    REQUIRE(before > 10);
    h.run_until(ms(100) + Duration::seconds(10 * h.rto().to_seconds()));
    h.sender().resume();
    if (algorithm == "bbr") {
      CHECK(h.sender().counters().idle_restarts == 0);
      CHECK(h.cwnd() == before);
    } else {
      CHECK(h.sender().counters().idle_restarts == 1);
      CHECK(h.cwnd() == 10);
    }
  }
}

namespace {
/// Fixed window; records on_tx_start calls.
class TxStartRecorder final : public cc::CongestionControl {
 public:
  explicit TxStartRecorder(std::vector<Duration>* idles) : idles_(idles) {}
  void on_ack(const cc::FlowView& /*f*/, cc::Window& /*w*/, const cc::AckEvent& /*a*/) override {}
  cc::LossResponse on_loss(const cc::FlowView& /*f*/, const cc::Window& w) override {
    return {w.cwnd_pkts / 2, w.cwnd_pkts / 2};
  }
  [[nodiscard]] bool wants_tx_start() const override { return true; }
  void on_tx_start(const cc::FlowView& /*f*/, Duration idle) override { idles_->push_back(idle); }

 private:
  std::vector<Duration>* idles_;
};
}  // namespace

TEST_CASE("The algorithm is told when data leaves again after the pipe emptied (CA_EVENT_TX_START)",
          "[tcp][sender][idle]") {
  // Once per idle period, with the time since the last data packet left; not while data is
  // in flight, and not at the very first send.
  std::vector<Duration> idles;
  tcp::TcpConfig cfg;
  SenderHarness h(cfg, std::make_unique<TxStartRecorder>(&idles), 0);
  h.start();  // 0..9 at t = 0
  CHECK(idles.empty());
  h.run_until(ms(100));
  h.sender().pause();
  h.ack(10);  // everything acknowledged: the pipe is empty
  CHECK(idles.empty());
  h.run_until(ms(350));
  h.sender().resume();  // new data 350 ms after the last send
  REQUIRE(idles.size() == 1);
  CHECK(idles[0] == Duration::milliseconds(350));
  h.run_until(ms(400));
  h.ack(12);  // data still in flight: nothing to tell
  CHECK(idles.size() == 1);
}

TEST_CASE("Slow start after idle: a finite ssthresh rises to 3/4 of the window before the restart",
          "[tcp][sender][idle]") {
  tcp::TcpConfig cfg;
  cfg.slow_start_after_idle = true;
  cfg.initial_ssthresh = 2;  // congestion avoidance from the start: cwnd grows 1/cwnd per ACK
  cfg.initial_window = 20;
  SenderHarness h(cfg);
  h.start();
  h.run_until(ms(100));
  h.sender().pause();
  for (uint64_t a = 1; a <= 20; ++a)
    h.ack(a);
  const double w0 = h.cwnd();
  REQUIRE(w0 > 20);
  REQUIRE(w0 < 21);
  const Duration rto = h.rto();
  h.run_until(Time::zero() + rto * 3);  // idle 3 RTO since the last send at 0
  h.sender().resume();
  CHECK(h.ssthresh() == 0.75 * w0);  // max(2, 3/4 cwnd)
  CHECK(h.cwnd() == 20);             // one halving reaches min(IW, cwnd) = 20, the floor
  CHECK(h.sent().size() == 40);
}

TEST_CASE("RACK without SACK is ignored, as in Linux: no probe, the tail loss costs the RTO", "[tcp][sender][rack]") {
  tcp::TcpConfig cfg = config(true);
  cfg.sack = false;
  SenderHarness h(cfg, "reno", 10);
  h.start();
  h.run_until(ms(100));
  h.ack(7);
  h.run_until(ms(399));
  CHECK(h.sent().size() == 10);  // no probe at 2 SRTT = 300 ms
  CHECK(h.sender().counters().loss_probes == 0);
  h.run_until(ms(400));
  CHECK(h.sender().counters().timeouts == 1);
}
