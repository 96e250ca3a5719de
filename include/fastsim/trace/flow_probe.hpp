// The probe of one scenario flow: its goodput and mean window per sample period (for
// the interval metrics) and, with outputs on, flows/<id>.csv — window, ssthresh, RTTs, goodput,
// queueing delay, bytes acked, retransmissions, state and the algorithm's own columns
// (docs/outputs.md). A row is written for every period that overlaps the flow's
// activity: (start, end + tau].
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fastsim/tcp/tcp_receiver.hpp"
#include "fastsim/tcp/tcp_sender.hpp"
#include "fastsim/trace/atomic_file.hpp"
#include "fastsim/trace/probe.hpp"

namespace fastsim::trace {

/// When a flow was active, kept by whoever starts and ends it (run/flow_lifecycle.hpp).
struct FlowActivity {
  Time start;                 ///< scheduled start
  bool started = false;       ///< the start has happened
  std::optional<Time> ended;  ///< stop or completion time, once it has happened
  uint64_t segments_delivered_at_end = 0;  ///< the receiver's in-order segments then
};

/// Bytes of application data in `segments` delivered in order: segments x MSS, capped at a finite flow's size.
uint64_t bytes_delivered(uint64_t segments, uint32_t mss, std::optional<uint64_t> size_bytes);
/// The same for everything the receiver has delivered so far.
uint64_t bytes_delivered(const tcp::TcpReceiver& receiver, uint32_t mss, std::optional<uint64_t> size_bytes);

class FlowProbe final : public Probe {
 public:
  /// The sender, receiver and activity must outlive the probe.
  FlowProbe(std::string id, const tcp::TcpSender& sender, const tcp::TcpReceiver& receiver, uint32_t mss,
            std::optional<uint64_t> size_bytes, const FlowActivity& activity);

  [[nodiscard]] size_t files() const override { return 1; }
  void open(const std::string& out_dir, const TraceFileOptions& options) override;
  void sample(Time now, Duration tau) override;
  /// Sizes both series for the run's periods (10 000 flows, 60 periods: 61 of 64 doubles each).
  void expect_samples(size_t periods) override {
    goodput_samples_bps_.reserve(periods);
    cwnd_samples_pkts_.reserve(periods);
  }

  /// Goodput of every period so far, from the start of the run (zero before the flow starts).
  [[nodiscard]] const std::vector<double>& goodput_samples_bps() const { return goodput_samples_bps_; }
  /// Time-average window of every period so far (packets; over the part of the period the
  /// sender was started, zero before it starts).
  [[nodiscard]] const std::vector<double>& cwnd_samples_pkts() const { return cwnd_samples_pkts_; }
  /// Moves both series out (the run's results take them at its end instead of copying:
  /// 10 MB at 10 000 flows and 60 periods); the probe's are empty afterwards.
  struct Samples {
    std::vector<double> goodput_bps;
    std::vector<double> cwnd_pkts;
  };
  [[nodiscard]] Samples take_samples() { return {std::move(goodput_samples_bps_), std::move(cwnd_samples_pkts_)}; }

 private:
  void write_row(Time now, Duration tau, double goodput_bps);

  std::string id_;
  const tcp::TcpSender& sender_;
  const tcp::TcpReceiver& receiver_;
  uint32_t mss_;
  std::optional<uint64_t> size_bytes_;
  const FlowActivity& activity_;
  uint64_t delivered_at_last_sample_ = 0;
  std::vector<double> goodput_samples_bps_;
  tcp::WindowIntegral window_at_last_sample_;
  std::vector<double> cwnd_samples_pkts_;
  AtomicFile* file_ = nullptr;  // null unless outputs are written
};

}  // namespace fastsim::trace
