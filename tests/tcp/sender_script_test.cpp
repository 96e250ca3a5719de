// TcpSender driven by scripted ACKs (tests/support/sender_harness.hpp, no network):
// exact windows and sequence numbers for NewReno partial ACKs (RFC 6582, Linux's
// Reno emulation of the pipe), repeated timeouts with exponential backoff (RFC 6298
// section 5.5, RFC 5681 section 3.1), Karn's rule (RFC 6298 section 3), SACK loss
// marking (RFC 6675 IsLost), the exit from recovery, and the receive-window limit,
// following the model in tcp_sender.hpp (Linux-style pipe, no limited transmit).
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "../support/sender_harness.hpp"

using namespace fastsim;
using fastsim::testing::SenderHarness;
using Seqs = std::vector<uint64_t>;

namespace {

Time ms(int64_t v) {
  return Time::at(Duration::milliseconds(v));
}

tcp::TcpConfig config(bool sack) {
  tcp::TcpConfig cfg;
  cfg.sack = sack;
  cfg.initial_window = 10;
  return cfg;
}

}  // namespace

TEST_CASE("NewReno: each partial ACK retransmits the next hole; recovery ends at the recovery point",
          "[tcp][sender][newreno]") {
  // Segments 0, 3 and 6 of the initial window are lost; 1, 2, 4, 5, 7, 8, 9 arrive.
  SenderHarness h(config(false));
  h.start();
  CHECK(h.seqs() == Seqs{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  h.run_until(ms(100));

  h.dupacks(2);  // no limited transmit: nothing leaves before the third
  CHECK(h.sent().size() == 10);
  CHECK(h.state() == cc::CaState::kOpen);
  h.dupacks(1);  // fast retransmit: ssthresh = cwnd = 10 / 2
  CHECK(h.state() == cc::CaState::kRecovery);
  CHECK(h.ssthresh() == 5);
  CHECK(h.cwnd() == 5);
  CHECK(h.seqs(10) == Seqs{0});
  CHECK(h.retransmitted() == Seqs{0});
  CHECK(h.calls().loss == 1);

  // Four more duplicates (5, 7, 8, 9 arrive), each counted as a SACKed packet: the pipe
  // 10 - (sacked + lost) + retrans falls to 4 after the sixth and the seventh, so each
  // of those sends one new segment (RFC 6582's window inflation, in Linux's terms).
  h.dupacks(2);
  CHECK(h.sent().size() == 11);
  h.dupacks(1);
  CHECK(h.seqs(11) == Seqs{10});
  h.dupacks(1);
  CHECK(h.seqs(11) == Seqs{10, 11});
  CHECK(h.pipe() == 5);

  // Partial ACK (the retransmitted 0 filled the first hole): 3 is marked lost and resent,
  // the pipe (3, 6, 10, 11 plus the retransmission) leaves room for one new segment.
  h.run_until(ms(200));
  h.ack(3, {}, true);
  CHECK(h.state() == cc::CaState::kRecovery);
  CHECK(h.snd_una() == 3);
  CHECK(h.cwnd() == 5);  // no growth in recovery
  CHECK(h.seqs(13) == Seqs{3, 12});
  CHECK(h.sent()[13].retransmission);
  CHECK_FALSE(h.sent()[14].retransmission);

  h.dupacks(2);  // 10 and 11 arrive: two more segments leave the network
  CHECK(h.seqs(15) == Seqs{13, 14});

  // Second partial ACK: the next hole, 6, is resent.
  h.run_until(ms(300));
  h.ack(6, {}, true);
  CHECK(h.state() == cc::CaState::kRecovery);
  CHECK(h.seqs(17) == Seqs{6, 15});
  CHECK(h.retransmitted() == Seqs{0, 3, 6});

  // The ACK covering the recovery point (10) ends recovery with cwnd = ssthresh.
  h.run_until(ms(400));
  h.ack(12, {}, true);
  CHECK(h.state() == cc::CaState::kOpen);
  CHECK(h.cwnd() == 5);
  CHECK(h.ssthresh() == 5);
  CHECK(h.calls().recovery_exit == 1);
  CHECK(h.seqs(19) == Seqs{16});  // Open: snd_nxt - snd_una = 4, room for one more
  CHECK(h.snd_nxt() - h.snd_una() == 5);
  CHECK(h.sender().counters().fast_recoveries == 1);
  CHECK(h.sender().counters().timeouts == 0);
}

TEST_CASE("repeated timeouts back off exponentially up to max_rto and keep ssthresh", "[tcp][sender][rto]") {
  tcp::TcpConfig cfg = config(false);
  cfg.initial_rto = Duration::seconds_int(1);
  cfg.max_rto = Duration::seconds_int(4);
  SenderHarness h(cfg);
  h.start();  // 0..9, the timer armed for 1 s
  REQUIRE(h.sent().size() == 10);

  h.run_until(ms(999));
  CHECK(h.sent().size() == 10);
  h.run_until(ms(1000));  // first timeout: ssthresh = 10 / 2, cwnd 1, RTO 2 s
  CHECK(h.state() == cc::CaState::kLoss);
  CHECK(h.ssthresh() == 5);
  CHECK(h.cwnd() == 1);
  CHECK(h.rto() == Duration::seconds_int(2));
  CHECK(h.seqs(10) == Seqs{0});
  CHECK(h.sent()[10].retransmission);
  CHECK(h.sent()[10].at == ms(1000));

  h.run_until(ms(2999));
  CHECK(h.sent().size() == 11);
  h.run_until(ms(3000));  // the same data times out again: ssthresh held, RTO 4 s
  CHECK(h.ssthresh() == 5);
  CHECK(h.cwnd() == 1);
  CHECK(h.rto() == Duration::seconds_int(4));
  CHECK(h.seqs(11) == Seqs{0});
  CHECK(h.sent()[11].at == ms(3000));

  h.run_until(ms(6999));
  CHECK(h.sent().size() == 12);
  h.run_until(ms(7000));  // third timeout: the RTO stays at max_rto
  CHECK(h.rto() == Duration::seconds_int(4));
  CHECK(h.ssthresh() == 5);
  CHECK(h.cwnd() == 1);
  CHECK(h.seqs(12) == Seqs{0});
  CHECK(h.sent()[12].at == ms(7000));
  CHECK(h.calls().timeout == 1);  // the algorithm was asked once, on the first timeout
  CHECK(h.sender().counters().timeouts == 3);

  // The retransmission gets through: slow start resends the segments marked lost
  // (go-back-N); the ACK echoes a retransmission, so the backed-off RTO stays.
  h.run_until(ms(7100));
  h.ack(1, {}, true);
  CHECK(h.state() == cc::CaState::kLoss);
  CHECK(h.cwnd() == 2);
  CHECK(h.rto() == Duration::seconds_int(4));
  CHECK(h.seqs(13) == Seqs{1, 2});
  CHECK(h.retransmitted(13) == Seqs{1, 2});

  // A timeout of new data (snd_una moved) asks the algorithm again: ssthresh = 2 / 2 -> 2.
  h.run_until(ms(11099));
  CHECK(h.sent().size() == 15);
  h.run_until(ms(11100));
  CHECK(h.calls().timeout == 2);
  CHECK(h.ssthresh() == 2);
  CHECK(h.cwnd() == 1);
  CHECK(h.seqs(15) == Seqs{1});
}

TEST_CASE("Karn's rule: an ACK echoing a retransmission gives no RTT sample", "[tcp][sender][rtt]") {
  SenderHarness h(config(false));
  h.start();
  h.run_until(ms(100));
  h.ack(1);  // a sample of 100 ms: srtt 100, rttvar 50, RTO = 100 + max(200, 200)
  REQUIRE(h.srtt() == Duration::milliseconds(100));
  CHECK(h.rto() == Duration::milliseconds(300));
  CHECK(h.seqs(10) == Seqs{10, 11});  // slow start: cwnd 11

  h.run_until(ms(400));  // timeout at 100 + 300 ms: segment 1 resent, RTO doubled
  CHECK(h.rto() == Duration::milliseconds(600));
  CHECK(h.seqs(12) == Seqs{1});
  CHECK(h.sent()[12].at == ms(400));

  h.run_until(ms(450));
  h.ack(2, {}, true);  // would be a 50 ms sample if the retransmission were trusted
  CHECK(h.srtt() == Duration::milliseconds(100));
  CHECK(h.sender().rtt().samples() == 1);
  CHECK(h.rto() == Duration::milliseconds(600));  // the backoff is kept

  // A sample from an original transmission (sent at 450 ms, 50 ms ago) is taken and
  // resets the backoff: srtt = (7 * 100 + 50) / 8, rttvar = (3 * 50 + 50) / 4.
  h.run_until(ms(500));
  h.ack(3, {}, false, ms(450));
  CHECK(h.sender().rtt().samples() == 2);
  CHECK(h.srtt() == Duration::microseconds(93'750));
  CHECK(h.rto() == Duration::microseconds(293'750));
}

TEST_CASE("SACK: a segment is lost once dupack_threshold segments above it are SACKed", "[tcp][sender][sack]") {
  // Segments 0 and 3 of the initial window are lost.
  SenderHarness h(config(true));
  h.start();
  h.run_until(ms(100));
  h.ack(0, {{1, 2}});
  h.ack(0, {{1, 3}});
  CHECK(h.sent().size() == 10);
  h.ack(0, {{4, 5}, {1, 3}});  // 1, 2, 4 above 0: 0 is lost; 3 has only 4 above it
  CHECK(h.state() == cc::CaState::kRecovery);
  CHECK(h.cwnd() == 5);
  CHECK(h.ssthresh() == 5);
  CHECK(h.seqs(10) == Seqs{0});
  h.ack(0, {{4, 6}, {1, 3}});  // 4, 5 above 3: not yet (pipe 10 - 4 - 1 + 1 = 6)
  CHECK(h.seqs(10) == Seqs{0});
  CHECK(h.pipe() == 6);
  h.ack(0, {{4, 7}, {1, 3}});  // 4, 5, 6 above 3: lost, and resent at once (pipe 4)
  CHECK(h.seqs(10) == Seqs{0, 3});
  CHECK(h.pipe() == 5);

  // Later SACKs only open the pipe for new data: no segment but the holes is resent.
  h.ack(0, {{4, 8}, {1, 3}});
  h.ack(0, {{4, 9}, {1, 3}});
  h.ack(0, {{4, 10}, {1, 3}});
  CHECK(h.seqs(10) == Seqs{0, 3, 10, 11, 12});
  CHECK(h.retransmitted() == Seqs{0, 3});
  CHECK(h.sender().counters().retransmits == 2);
}

TEST_CASE("recovery ends at the recovery point: state Open, cwnd = ssthresh, on_recovery_exit", "[tcp][sender][sack]") {
  SenderHarness h(config(true));
  h.start();
  h.run_until(ms(100));
  h.ack(0, {{1, 2}});
  h.ack(0, {{1, 3}});
  h.ack(0, {{1, 4}});  // 0 lost: recovery until 10 is acknowledged
  REQUIRE(h.state() == cc::CaState::kRecovery);
  CHECK(h.seqs(10) == Seqs{0});
  for (uint64_t top = 5; top <= 10; ++top)
    h.ack(0, {{1, top}});  // six more segments leave; from the third on each opens the pipe
  CHECK(h.seqs(10) == Seqs{0, 10, 11, 12, 13});
  CHECK(h.pipe() == 5);

  h.run_until(ms(200));
  h.ack(10, {{11, 12}}, true);  // the retransmission fills the hole: reaches the recovery point
  CHECK(h.state() == cc::CaState::kOpen);
  CHECK(h.cwnd() == 5);
  CHECK(h.ssthresh() == 5);
  CHECK(h.calls().recovery_exit == 1);
  CHECK(h.calls().loss == 1);
  // Open again: the window counts every unacknowledged segment, the SACKed 11 included
  // (no limited transmit), so 10..13 leave room for one.
  CHECK(h.seqs(15) == Seqs{14});
  CHECK(h.snd_nxt() - h.snd_una() == 5);
}

TEST_CASE("recovery continues until the ACK passes the recovery point", "[tcp][sender][newreno]") {
  SenderHarness h(config(false));
  h.start();
  h.run_until(ms(100));
  h.dupacks(3);
  REQUIRE(h.state() == cc::CaState::kRecovery);
  h.run_until(ms(200));
  h.ack(9, {}, true);  // one short of the recovery point: a partial ACK, 9 is resent
  CHECK(h.state() == cc::CaState::kRecovery);
  CHECK(h.calls().recovery_exit == 0);
  CHECK(h.retransmitted() == Seqs{0, 9});
  h.ack(10, {}, true);
  CHECK(h.state() == cc::CaState::kOpen);
  CHECK(h.calls().recovery_exit == 1);
  CHECK(h.cwnd() == 5);
}

TEST_CASE("the receive window bounds the segments outstanding", "[tcp][sender][rwnd]") {
  tcp::TcpConfig cfg = config(false);
  cfg.receive_window = 4;
  SenderHarness h(cfg);
  h.start();
  CHECK(h.seqs() == Seqs{0, 1, 2, 3});  // cwnd 10, but only 4 may be outstanding
  h.run_until(ms(100));
  h.ack(1);
  CHECK(h.seqs(4) == Seqs{4});
  h.ack(3);
  CHECK(h.seqs(5) == Seqs{5, 6});
  CHECK(h.snd_nxt() - h.snd_una() == 4);
  CHECK(h.cwnd() == 10);  // the window did not limit sending: no growth
  for (uint64_t a = 4; a <= 40; ++a) {
    h.ack(a);
    CHECK(h.snd_nxt() - h.snd_una() == 4);
  }
  CHECK(h.snd_nxt() == 44);
  CHECK(h.cwnd() == 10);
}

namespace {
/// Reno that records on_send calls; `wants` is what it answers to wants_send_events().
class SendRecorder final : public cc::CongestionControl {
 public:
  SendRecorder(bool wants, std::vector<uint64_t>* seqs) : wants_(wants), seqs_(seqs) {}
  void on_ack(const cc::FlowView& /*flow*/, cc::Window& /*w*/, const cc::AckEvent& /*ack*/) override {}
  cc::LossResponse on_loss(const cc::FlowView& /*flow*/, const cc::Window& w) override {
    return {w.cwnd_pkts / 2, w.cwnd_pkts / 2};
  }
  void on_send(const cc::FlowView& /*flow*/, uint64_t seq, bool /*retransmission*/) override { seqs_->push_back(seq); }
  [[nodiscard]] bool wants_send_events() const override { return wants_; }

 private:
  bool wants_;
  std::vector<uint64_t>* seqs_;
};
}  // namespace

TEST_CASE("on_send reaches only an algorithm that wants send events", "[tcp][sender][cc]") {
  for (const bool wants : {true, false}) {
    std::vector<uint64_t> seqs;
    SenderHarness h(config(false), std::make_unique<SendRecorder>(wants, &seqs), 0);
    h.start();
    REQUIRE(h.sent().size() == 10);
    CHECK(seqs == (wants ? Seqs{0, 1, 2, 3, 4, 5, 6, 7, 8, 9} : Seqs{}));
  }
}
