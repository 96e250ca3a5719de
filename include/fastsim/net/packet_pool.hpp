// Pool of packets: fixed-size chunks and a free list, so the packet path never
// allocates once the pool has grown to the peak number of packets alive.
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
    if (free_ == nullptr)
      grow();
    Packet* p = free_;
    free_ = p->next;
    *p = Packet{};
    ++live_;
    return p;
  }
  void release(Packet* p) {
    p->next = free_;
    free_ = p;
    --live_;
  }
  /// Packets currently handed out.
  [[nodiscard]] size_t live() const { return live_; }
  [[nodiscard]] size_t capacity() const { return chunks_.size() * kChunk; }

 private:
  static constexpr size_t kChunk = 4096;
  void grow() {
    chunks_.push_back(std::make_unique<Packet[]>(kChunk));
    Packet* chunk = chunks_.back().get();
    for (size_t i = kChunk; i-- > 0;) {
      chunk[i].next = free_;
      free_ = &chunk[i];
    }
  }
  std::vector<std::unique_ptr<Packet[]>> chunks_;
  Packet* free_ = nullptr;
  size_t live_ = 0;
};

}  // namespace fastsim::net
