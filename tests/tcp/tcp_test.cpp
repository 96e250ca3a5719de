// TCP sender/receiver behaviour in small networks: delayed ACK, timers, fast
// recovery (NewReno and SACK), RTO after a whole window is lost, finite flows,
// receive-window limit, and packet conservation.
#include <catch2/catch.hpp>

#include <cmath>

#include "../support/helpers.hpp"

using namespace fastsim;
using fastsim::testing::check_conservation;
using fastsim::testing::dumbbell_json;
using fastsim::testing::scenario_from;

TEST_CASE("delayed ACK halves the number of ACKs", "[tcp][delack]") {
  for (bool delack : {false, true}) {
    // No loss in 20 s (the window starts in congestion avoidance at 500 of 1666 packets):
    // every ACK is an in-order one, so delayed ACK should halve their number.
    const auto s = scenario_from(dumbbell_json("100Mbps", "5ms", "833pkt", "20s", R"([{"id": "a", "rtt": "100ms"}])",
                                               delack ? R"({"delayed_ack": true, "initial_ssthresh": 500})"
                                                      : R"({"delayed_ack": false, "initial_ssthresh": 500})"));
    run::Experiment exp(s);
    exp.run();
    auto& f = exp.flow(0);
    const double ratio = static_cast<double>(f.receiver->counters().acks_sent) /
                         static_cast<double>(f.receiver->counters().data_arrivals);
    INFO("delayed_ack=" << delack << " acks/data=" << ratio);
    if (delack) {
      CHECK(ratio == Approx(0.5).epsilon(0.01));
    } else {
      CHECK(ratio == 1.0);
    }
    check_conservation(exp);
  }
}

TEST_CASE("the delayed-ACK timer fires for a lone segment and is cancelled by a second", "[tcp][delack][timer]") {
  for (int segments : {1, 2}) {
    const std::string flows = R"([{"id": "a", "rtt": "100ms", "size": )" + std::to_string(segments * 1460) + "}]";
    const auto s = scenario_from(dumbbell_json("100Mbps", "5ms", "100pkt", "2s", flows,
                                               R"({"delayed_ack": true, "delayed_ack_timeout": "40ms"})"));
    run::Experiment exp(s);
    const auto& r = exp.run();
    const double rtt = r.flows[0].min_rtt_s;
    INFO("segments=" << segments << " rtt sample=" << rtt);
    if (segments == 1) {
      CHECK(rtt == Approx(0.140).margin(0.001));  // 100 ms path + 40 ms delayed-ACK timer
    } else {
      CHECK(rtt == Approx(0.100).margin(0.001));  // second segment triggers the ACK at once
    }
    CHECK(r.flows[0].completion_s.has_value());
    CHECK(exp.flow(0).receiver->counters().acks_sent == 1);
  }
}

TEST_CASE("isolated losses are repaired by fast recovery, not timeouts", "[tcp][recovery]") {
  for (bool sack : {false, true}) {
    // Pipe = BDP 100 + buffer 100 packets; ssthresh 100 avoids the slow-start overshoot,
    // so each sawtooth epoch ends with a drop at the full buffer (one, or two when the
    // window grows again before the loss is detected), repaired without a timeout.
    const std::string defaults =
        std::string(R"({"delayed_ack": false, "initial_ssthresh": 100, "sack": )") + (sack ? "true" : "false") + "}";
    const auto s =
        scenario_from(dumbbell_json("20Mbps", "5ms", "100pkt", "120s", R"([{"id": "a", "rtt": "60ms"}])", defaults));
    run::Experiment exp(s);
    const auto& r = exp.run();
    INFO("sack=" << sack);
    CHECK(r.flows[0].timeouts == 0);
    CHECK(r.flows[0].fast_recoveries >= 5);
    CHECK(r.flows[0].drops <= 2 * r.flows[0].fast_recoveries);
    CHECK(r.flows[0].retransmits == r.flows[0].drops);
    check_conservation(exp);
  }
}

TEST_CASE("losing a whole window causes an RTO, and recovery completes", "[tcp][rto]") {
  for (bool sack : {false, true}) {
    // BDP 208 packets + 150 buffered; the black hole (120 ms) outlasts one RTT plus the
    // queue's drain time (36 ms) and ends before the RTO (>= 200 ms) fires. The buffer
    // absorbs the slow-start bursts after the timeout, so exactly one RTO is expected.
    // The rfc stack: under linux, RACK's tail loss probe repairs the outage without an RTO.
    const std::string defaults =
        std::string(R"({"stack": "rfc", "delayed_ack": true, "initial_ssthresh": 150, "sack": )") +
        (sack ? "true" : "false") + "}";
    const auto s =
        scenario_from(dumbbell_json("50Mbps", "5ms", "150pkt", "30s", R"([{"id": "a", "rtt": "50ms"}])", defaults));
    run::Experiment exp(s);
    // A black hole for longer than one RTT, for packets reaching the bottleneck in
    // [10 s, 10.12 s). Announced before the run: the bottleneck is chained to its access
    // link and decides packets when they enter that one.
    exp.link("bottleneck").set_loss_rate_at(Time::at(Duration::seconds_int(10)), 1.0);
    exp.link("bottleneck").set_loss_rate_at(Time::at(Duration::milliseconds(10'120)), 0.0);
    exp.run_until(Time::at(Duration::seconds_int(10)));
    auto& f = exp.flow(0);
    REQUIRE(f.sender->counters().timeouts == 0);
    const uint64_t before = f.receiver->counters().segments_delivered;
    const auto& r = exp.run();
    INFO("sack=" << sack);
    CHECK(r.flows[0].timeouts == 1);
    CHECK(f.sender->state() == cc::CaState::kOpen);
    CHECK(f.receiver->counters().segments_delivered > before);
    // everything sent before the outage was eventually delivered in order
    CHECK(f.sender->snd_una() > f.sender->snd_nxt() - static_cast<uint64_t>(f.sender->window().cwnd_pkts) - 1);
    // the link is fully used again during the last 10 s
    const auto& last = r.flows[0].goodput_samples_bps;
    double sum = 0;
    for (size_t k = last.size() - 10; k < last.size(); ++k)
      sum += last[k];
    CHECK(sum / 10 > 0.9 * 50e6 * 1460 / 1500);
    check_conservation(exp);
  }
}

TEST_CASE("a finite flow delivers exactly its size and completes", "[tcp][finite]") {
  for (bool sack : {false, true}) {
    const std::string defaults = std::string(R"({"sack": )") + (sack ? "true" : "false") + "}";
    const auto s = scenario_from(dumbbell_json(
        "100Mbps", "5ms", "100pkt", "30s", R"([{"id": "a", "rtt": "50ms", "size": "20MB", "start": "1s"}])", defaults));
    run::Experiment exp(s);
    const auto& r = exp.run();
    REQUIRE(r.flows[0].completion_s.has_value());
    CHECK(r.flows[0].bytes_delivered == 20'000'000);
    CHECK(*r.flows[0].completion_s > 1.0 + 20e6 * 8 / 100e6);  // cannot beat the link rate
    CHECK(r.flows[0].end_s == *r.flows[0].completion_s);
    check_conservation(exp);
  }
}

TEST_CASE("slow start overflows a small buffer at W_r + B, and the transfer time follows", "[tcp][finite][slowstart]") {
  // 20 MB at 100 Mb/s x 50 ms (BDP 417.7 segments), the linux stack: IW 10, SACK, delayed
  // ACKs, byte counting. Each ACK of two segments releases four, so a slow-start round that
  // starts at window W (below the BDP) builds a queue of W at the bottleneck. The first
  // round whose window W_r = 10 * 2^k reaches the buffer B overflows it at cwnd W_r + B; the
  // losses are seen a round later, cwnd having doubled, so ssthresh = W_r + B. SACK repairs
  // them in two more rounds without a timeout, after the 10 (2^k - 1) segments of rounds
  // 0 .. k-1 were delivered. From then on Reno's window grows one segment per base RTT from
  // ssthresh and the rate is min(C, cwnd / RTT): the remaining segments' time is an upper
  // bound's second term (slow-start rounds counted at base RTT + a full buffer's delay).
  // The fluid model ignores what the stack loses per round: a window is sent in whole
  // segments and an odd burst's last segment waits for the delayed-ACK timer; below ~50
  // segments that costs ~5 % of cwnd / RTT (B = 20: 6.89 s against a fluid 6.79 s), so the
  // bound is checked from ssthresh 125 (B = 45) up.
  const double rate_pps = 100e6 / 12000;
  const double segments = std::ceil(20e6 / 1460);
  for (int buffer : {20, 45, 100, 150, 300}) {
    const auto s = scenario_from(dumbbell_json(
        "100Mbps", "5ms", std::to_string(buffer) + "pkt", "30s",
        R"([{"id": "a", "rtt": "50ms", "size": "20MB", "start": "1s"}])", R"({"stack": "linux", "sack": true})"));
    run::Experiment exp(s);
    const auto& r = exp.run();
    REQUIRE(r.flows[0].completion_s.has_value());
    int k = 0;
    while (10 * (1 << k) < buffer)
      ++k;
    const double w0 = 10 * (1 << k) + buffer;
    const double rtt = r.flows[0].min_rtt_s;  // the base RTT: the first segments met no queue
    double remaining = segments - 10 * ((1 << k) - 1);
    double avoidance_s = 0;
    for (const double dt = 1e-4; remaining > 0; avoidance_s += dt)
      remaining -= std::min(rate_pps, (w0 + avoidance_s / rtt) / rtt) * dt;
    const double bound_s = (k + 4) * (rtt + buffer / rate_pps) + avoidance_s;
    const double took_s = *r.flows[0].completion_s - 1.0;
    INFO("buffer " << buffer << ": ssthresh " << exp.flow(0).sender->window().ssthresh_pkts << " (theory " << w0
                   << "); completion " << took_s << " s after the start, bound " << bound_s << " s");
    CHECK(r.flows[0].timeouts == 0);
    CHECK(r.flows[0].fast_recoveries == 1);
    CHECK(exp.flow(0).sender->window().ssthresh_pkts == Approx(w0).margin(1));
    if (w0 >= 125)
      CHECK(took_s <= bound_s);
    CHECK(took_s > segments / rate_pps);
  }
}

TEST_CASE("the receive window caps throughput at rwnd / RTT", "[tcp][rwnd]") {
  const auto s = scenario_from(
      dumbbell_json("1Gbps", "5ms", "1000pkt", "20s", R"([{"id": "a", "rtt": "100ms", "receive_window": "146KB"}])"));
  run::Experiment exp(s);
  const auto& r = exp.run();
  // 146 KB / 1460 B = 100 segments per 100 ms RTT = 1000 segments/s = 11.68 Mb/s of payload
  CHECK(r.flows[0].goodput_bps == Approx(100 * 1460 * 8 / 0.1).epsilon(0.03));
  CHECK(r.flows[0].drops == 0);
}

TEST_CASE("packets are conserved mid-run with many competing flows", "[tcp][conservation]") {
  const auto s = scenario_from(dumbbell_json("100Mbps", "5ms", "200pkt", "20s",
                                             R"([{"id": "a", "count": 5, "rtt": "40ms"},
                                                 {"id": "b", "rtt": "120ms", "start": "3s", "stop": "15s"}])",
                                             R"({"sack": true})"));
  run::Experiment exp(s);
  for (int t = 1; t <= 20; t += 3) {
    exp.run_until(Time::at(Duration::seconds_int(t)));
    check_conservation(exp);
  }
  exp.run();
  check_conservation(exp);
  CHECK(exp.result().links.size() > 0);
}

TEST_CASE("NewReno repairs one hole per RTT, SACK repairs them all in a few RTTs", "[tcp][recovery][sack]") {
  // Slow start from 10 packets overshoots a 50-packet buffer (BDP 208 packets) and loses
  // dozens of packets from one window. NewReno learns of one hole per partial ACK, so
  // with the "slow but steady" timer recovery lasts about (holes x RTT); the default
  // "impatient" timer (RFC 6582) cuts it short with one RTO. SACK marks every hole at once.
  struct Outcome {
    double duration_s;
    uint64_t holes;
    uint64_t retransmits;
    uint64_t timeouts;
  };
  auto first_recovery = [](const std::string& defaults) {
    const auto s =
        scenario_from(dumbbell_json("50Mbps", "5ms", "50pkt", "20s", R"([{"id": "a", "rtt": "50ms"}])", defaults));
    run::Experiment exp(s);
    auto& f = exp.flow(0);
    double start = -1;
    for (int64_t us = 100; us < 20'000'000; us += 100) {
      exp.run_until(Time::at(Duration::microseconds(us)));
      const bool open = f.sender->state() == cc::CaState::kOpen;
      if (start < 0 && !open)
        start = static_cast<double>(us) / 1e6;
      if (start >= 0 && open) {
        check_conservation(exp);
        return Outcome{static_cast<double>(us) / 1e6 - start, f.data_counters.queue_drops,
                       f.sender->counters().retransmits, f.sender->counters().timeouts};
      }
    }
    FAIL("recovery never ended");
    return Outcome{};
  };
  const Outcome steady = first_recovery(R"({"delayed_ack": false, "sack": false, "newreno_impatient": false})");
  const Outcome impatient = first_recovery(R"({"delayed_ack": false, "sack": false})");
  const Outcome sack = first_recovery(R"({"delayed_ack": false, "sack": true})");
  INFO("NewReno slow-but-steady: " << steady.holes << " holes in " << steady.duration_s
                                   << " s; impatient: " << impatient.duration_s << " s, " << impatient.timeouts
                                   << " RTO; SACK: " << sack.holes << " holes in " << sack.duration_s << " s");
  REQUIRE(steady.holes >= 20);
  CHECK(steady.holes == sack.holes);  // same overshoot
  for (const Outcome& o : {steady, sack}) {
    CHECK(o.timeouts == 0);
    CHECK(o.retransmits == o.holes);  // no spurious retransmission
  }
  CHECK(steady.duration_s == Approx(static_cast<double>(steady.holes) * 0.050).epsilon(0.15));
  CHECK(sack.duration_s < 4 * 0.062);  // a few RTTs of at most 50 ms + a full 12 ms queue
  CHECK(impatient.timeouts >= 1);
  CHECK(impatient.duration_s < steady.duration_s / 2);
}
