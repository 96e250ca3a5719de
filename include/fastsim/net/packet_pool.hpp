// Pool of packets: fixed-size chunks and a LIFO free list (a released packet is reused
// while warm), so the packet path never allocates once the pool has grown to the peak
// number of packets alive.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "fastsim/net/packet.hpp"

namespace fastsim::net {

class PacketPool {
 public:
  /// Returns a zero-initialized packet.
  Packet* acquire() {
    if (free_.empty()) [[unlikely]]
      grow();
    Packet* p = free_.back();
    free_.pop_back();
    *p = Packet{};
    return p;
  }
  void release(Packet* p) { free_.push_back(p); }
  /// `p` (handed out) reset as acquire() resets a packet: release() then acquire() in one.
  Packet* renew(Packet* p) {
    *p = Packet{};
    return p;
  }
  /// Packets currently handed out.
  [[nodiscard]] size_t live() const { return capacity() - free_.size(); }
  [[nodiscard]] size_t capacity() const { return chunks_.size() * kChunk; }

 private:
  static constexpr size_t kChunk = 4096;
  void grow() {
    chunks_.push_back(std::make_unique<Packet[]>(kChunk));
    Packet* chunk = chunks_.back().get();
    free_.reserve(capacity());
    for (size_t i = kChunk; i-- > 0;)
      free_.push_back(&chunk[i]);
  }
  std::vector<std::unique_ptr<Packet[]>> chunks_;
  std::vector<Packet*> free_;  // capacity() entries reserved: release() never allocates
};

}  // namespace fastsim::net
