// Drives one TcpSender directly, with no link and no receiver (the packetdrill / ns-3
// TcpGeneralTest style of scripting an endpoint): the sender's first hop is a recorder
// that keeps every data packet it sends (sequence number, retransmission flag, time),
// and the test injects the ACKs it wants (cumulative ACK, SACK blocks, echo) and moves
// the clock to fire the sender's timers.
// - The algorithm is wrapped in a CallCounter that forwards every callback and counts
//   the loss, timeout and recovery-exit calls.
// - An ACK echoes the send time of the latest copy of the segment just below its
//   cumulative ACK (the segment that triggered it, as TcpReceiver does), unless told
//   otherwise; its retransmission flag is set by the caller (Karn's rule).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cc_driver.hpp"
#include "fastsim/core/simulator.hpp"
#include "fastsim/net/packet_pool.hpp"
#include "fastsim/net/route.hpp"
#include "fastsim/tcp/tcp_sender.hpp"

namespace fastsim::testing {

/// Forwards every callback to `inner` and counts the ones recovery tests look for.
class CallCounter final : public cc::CongestionControl {
 public:
  struct Counts {
    uint32_t loss = 0;
    uint32_t recovery_exit = 0;
    uint32_t timeout = 0;
    uint32_t acks = 0;
    uint32_t ecn = 0;
  };
  CallCounter(std::unique_ptr<cc::CongestionControl> inner, Counts* counts)
      : inner_(std::move(inner)), counts_(counts) {}
  void on_timer(const cc::FlowView& f, cc::Window& w) override { inner_->on_timer(f, w); }
  void on_ack(const cc::FlowView& f, cc::Window& w, const cc::AckEvent& a) override {
    ++counts_->acks;
    inner_->on_ack(f, w, a);
  }
  void on_dupack(const cc::FlowView& f, cc::Window& w, uint32_t n) override { inner_->on_dupack(f, w, n); }
  cc::LossResponse on_loss(const cc::FlowView& f, const cc::Window& w) override {
    ++counts_->loss;
    return inner_->on_loss(f, w);
  }
  void on_recovery_exit(const cc::FlowView& f, cc::Window& w) override {
    ++counts_->recovery_exit;
    inner_->on_recovery_exit(f, w);
  }
  cc::LossResponse on_timeout(const cc::FlowView& f, const cc::Window& w) override {
    ++counts_->timeout;
    return inner_->on_timeout(f, w);
  }
  void on_send(const cc::FlowView& f, uint64_t seq, bool retx) override { inner_->on_send(f, seq, retx); }
  [[nodiscard]] bool wants_send_events() const override { return inner_->wants_send_events(); }
  [[nodiscard]] bool wants_rate_samples() const override { return inner_->wants_rate_samples(); }
  [[nodiscard]] bool wants_timer() const override { return inner_->wants_timer(); }
  [[nodiscard]] bool wants_pacing() const override { return inner_->wants_pacing(); }
  [[nodiscard]] bool exempt_from_idle_restart() const override { return inner_->exempt_from_idle_restart(); }
  [[nodiscard]] bool wants_tx_start() const override { return inner_->wants_tx_start(); }
  void on_tx_start(const cc::FlowView& f, Duration idle) override { inner_->on_tx_start(f, idle); }
  void on_delivery(const cc::FlowView& f, cc::Window& w, const cc::AckEvent& a) override {
    inner_->on_delivery(f, w, a);
  }
  cc::LossResponse on_ecn(const cc::FlowView& f, const cc::Window& w) override {
    ++counts_->ecn;
    return inner_->on_ecn(f, w);
  }
  [[nodiscard]] bool needs_ecn() const override { return inner_->needs_ecn(); }

 private:
  std::unique_ptr<cc::CongestionControl> inner_;
  Counts* counts_;
};

class SenderHarness {
 public:
  struct Sent {
    uint64_t seq;
    bool retransmission;
    Time at;
    uint8_t ecn;  ///< the packet's ECN byte (codepoint and CWR)
  };

  /// A sender with `algorithm` (default parameters) and `cfg`; `total_segments` = 0 for
  /// a bulk flow. Call start() to send the initial window.
  explicit SenderHarness(const tcp::TcpConfig& cfg = {}, const std::string& algorithm = "reno",
                         uint64_t total_segments = 0)
      : SenderHarness(cfg, make_algorithm(algorithm), total_segments) {}
  /// The same with an algorithm object of the test's own.
  SenderHarness(const tcp::TcpConfig& cfg, std::unique_ptr<cc::CongestionControl> inner, uint64_t total_segments) {
    out_.owner = this;
    cc::CongestionControl* algorithm_ptr = inner.get();
    sender_ = std::make_unique<tcp::TcpSender>(
        sim_, pool_, cfg, std::make_unique<CallCounter>(std::move(inner), &calls_), &route_, out_, total_segments);
    // The sender attached the counting wrapper; the algorithm needs the sender's services
    // (timer, pacing, baseRTT) too.
    algorithm_ptr->attach(sender_.get());
  }
  SenderHarness(const SenderHarness&) = delete;
  SenderHarness& operator=(const SenderHarness&) = delete;

  void start() { sender_->start(); }

  /// An ACK arriving now: cumulative ACK `cum`, SACK blocks `sacks` (SACK must be on
  /// for the sender to read them), echoing a retransmitted segment if `echo_retx`.
  /// `echo` defaults to the send time of the latest copy of segment cum - 1.
  void ack(uint64_t cum, std::initializer_list<net::SackBlock> sacks = {}, bool echo_retx = false,
           std::optional<Time> echo = std::nullopt) {
    net::Packet* p = pool_.acquire();
    p->route = &ack_route_;
    p->is_ack = true;
    p->seq = cum;
    p->retransmission = echo_retx;
    p->ecn = ack_ecn_;
    p->echo = echo ? *echo : last_send_time(cum == 0 ? 0 : cum - 1);
    p->set_ack_options(net::Packet::kNoTrigger, std::span(sacks.begin(), sacks.size()));
    sender_->receive(p);
  }
  /// `n` duplicate ACKs of snd_una (no SACK blocks).
  void dupacks(uint32_t n) {
    const uint64_t una = sender_->snd_una();
    for (uint32_t i = 0; i < n; ++i)
      ack(una);
  }
  /// The ECN byte of the ACKs injected from now on (net::ecn::kEce: ECN-Echo).
  void set_ack_ecn(uint8_t ecn) { ack_ecn_ = ecn; }
  /// Runs the clock forward by `d`, firing the timers that fall due.
  void advance(Duration d) { sim_.run_until(sim_.now() + d); }
  void run_until(Time t) { sim_.run_until(t); }

  [[nodiscard]] Time now() const { return sim_.now(); }
  [[nodiscard]] tcp::TcpSender& sender() { return *sender_; }
  [[nodiscard]] double cwnd() const { return sender_->window().cwnd_pkts; }
  [[nodiscard]] double ssthresh() const { return sender_->window().ssthresh_pkts; }
  [[nodiscard]] cc::CaState state() const { return sender_->state(); }
  [[nodiscard]] uint64_t snd_una() const { return sender_->snd_una(); }
  [[nodiscard]] uint64_t snd_nxt() const { return sender_->snd_nxt(); }
  [[nodiscard]] Duration rto() const { return sender_->rtt().rto(); }
  [[nodiscard]] std::optional<Duration> srtt() const { return sender_->rtt().view().srtt; }
  [[nodiscard]] const CallCounter::Counts& calls() const { return calls_; }
  /// Every data packet sent so far, in order.
  [[nodiscard]] const std::vector<Sent>& sent() const { return out_.sent; }
  /// Sequence numbers of the packets sent since sent()[from] (all of them by default).
  [[nodiscard]] std::vector<uint64_t> seqs(size_t from = 0) const {
    std::vector<uint64_t> v;
    for (size_t i = from; i < out_.sent.size(); ++i)
      v.push_back(out_.sent[i].seq);
    return v;
  }
  /// The same, retransmissions only.
  [[nodiscard]] std::vector<uint64_t> retransmitted(size_t from = 0) const {
    std::vector<uint64_t> v;
    for (size_t i = from; i < out_.sent.size(); ++i) {
      if (out_.sent[i].retransmission)
        v.push_back(out_.sent[i].seq);
    }
    return v;
  }
  /// Packets in flight per Linux's count, as the sender uses it in recovery.
  [[nodiscard]] double pipe() const { return sender_->pipe(); }

 private:
  struct Recorder final : net::PacketSink {
    SenderHarness* owner = nullptr;
    std::vector<Sent> sent;
    void receive(net::Packet* p) override {
      sent.push_back({p->seq, p->retransmission, owner->sim_.now(), p->ecn});
      owner->pool_.release(p);
    }
  };
  [[nodiscard]] Time last_send_time(uint64_t seq) const {
    for (auto it = out_.sent.rbegin(); it != out_.sent.rend(); ++it) {
      if (it->seq == seq)
        return it->at;
    }
    return Time::zero();
  }

  Simulator sim_;
  net::PacketPool pool_;
  net::RouteCounters counters_;
  net::Route route_{{}, nullptr, &counters_};
  net::Route ack_route_{{}, nullptr, &counters_};
  Recorder out_;
  CallCounter::Counts calls_;
  uint8_t ack_ecn_ = 0;
  std::unique_ptr<tcp::TcpSender> sender_;
};

}  // namespace fastsim::testing
