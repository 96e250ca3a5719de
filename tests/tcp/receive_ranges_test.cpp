// ReceiveRanges (the receiver's out-of-order data) against a reference set of segments,
// and the 64-byte packet's SACK encoding.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <iterator>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

#include "fastsim/net/packet.hpp"
#include "fastsim/tcp/receive_ranges.hpp"

using namespace fastsim;

namespace {

// Maximal runs of consecutive segments of `held`, ascending.
std::vector<net::SackBlock> runs(const std::set<uint64_t>& held) {
  std::vector<net::SackBlock> out;
  for (uint64_t s : held) {
    if (!out.empty() && out.back().end == s)
      ++out.back().end;
    else
      out.push_back({s, s + 1});
  }
  return out;
}

}  // namespace

TEST_CASE("receive ranges match a reference set under random arrivals and hole fills") {
  std::mt19937_64 gen(7);
  tcp::ReceiveRanges ranges;
  std::set<uint64_t> held;
  uint64_t rcv_nxt = 0;
  for (int step = 0; step < 20000; ++step) {
    // Arrivals within a window of 400 segments above the cumulative point.
    const uint64_t seq = rcv_nxt + std::uniform_int_distribution<uint64_t>(0, 400)(gen);
    if (seq == rcv_nxt) {  // the receiver's in-order path: absorb the first range
      ++rcv_nxt;
      if (!ranges.empty() && ranges.front().start == rcv_nxt) {
        rcv_nxt = ranges.front().end;
        ranges.pop_front();
      }
      while (!held.empty() && *held.begin() < rcv_nxt)
        held.erase(held.begin());
    } else {
      const bool fresh = held.insert(seq).second;
      REQUIRE(ranges.add(seq) == fresh);
      // The first SACK block holds the trigger, then the highest others (RFC 2018).
      std::array<net::SackBlock, 3> blocks;
      const size_t n = ranges.sack_blocks(seq, blocks);
      const auto expected = runs(held);
      REQUIRE(n == std::min<size_t>(3, expected.size()));
      REQUIRE(blocks[0].start <= seq);
      REQUIRE(seq < blocks[0].end);
      std::vector<net::SackBlock> rest;
      for (auto it = expected.rbegin(); it != expected.rend(); ++it) {
        if (!(*it == blocks[0]))
          rest.push_back(*it);
      }
      for (size_t i = 1; i < n; ++i)
        REQUIRE(blocks[i] == rest[i - 1]);
      // Any held segment as the trigger (not the last arrival: the first block's search,
      // not the remembered range) gives the range holding it first.
      const uint64_t other = *std::next(held.begin(), static_cast<long>(gen() % held.size()));
      REQUIRE(ranges.sack_blocks(other, blocks) == n);
      REQUIRE(blocks[0].start <= other);
      REQUIRE(other < blocks[0].end);
    }
    REQUIRE(ranges.size() == runs(held).size());
    if (!held.empty())
      REQUIRE(ranges.front() == runs(held).front());
  }
}

TEST_CASE("an ACK without a trigger reports the highest ranges") {
  tcp::ReceiveRanges ranges;
  for (uint64_t s : {10, 11, 20, 30, 31, 32, 40})
    ranges.add(s);
  std::array<net::SackBlock, 3> blocks;
  REQUIRE(ranges.sack_blocks(net::Packet::kNoTrigger, blocks) == 3);
  CHECK(blocks[0] == net::SackBlock{40, 41});
  CHECK(blocks[1] == net::SackBlock{30, 33});
  CHECK(blocks[2] == net::SackBlock{20, 21});
}

TEST_CASE("receive ranges allocate nodes only up to the peak number of ranges held") {
  tcp::ReceiveRanges ranges;
  CHECK(ranges.nodes() == 0);  // a receiver without out-of-order data allocates nothing
  ranges.add(10);
  ranges.add(20);
  CHECK(ranges.nodes() == 2);
  ranges.pop_front();
  ranges.pop_front();
  ranges.add(30);  // reuses a recycled node
  ranges.add(40);
  CHECK(ranges.nodes() == 2);
  ranges.add(50);
  CHECK(ranges.nodes() == 3);
  CHECK(ranges.size() == 3);
  CHECK(ranges.front() == net::SackBlock{30, 31});
}

TEST_CASE("a packet is one cache line and round-trips its SACK options") {
  STATIC_REQUIRE(sizeof(net::Packet) == 64);
  net::Packet p;
  p.seq = 5'000'000'000ULL;
  const std::array<net::SackBlock, 2> blocks{{{p.seq + 10, p.seq + 12}, {p.seq + 3, p.seq + 4}}};
  p.set_ack_options(p.seq + 11, blocks);
  CHECK(p.trigger_seq() == p.seq + 11);
  REQUIRE(p.num_sacks == 2);
  CHECK(p.sack(0) == blocks[0]);
  CHECK(p.sack(1) == blocks[1]);
  p.set_ack_options(net::Packet::kNoTrigger, {});
  CHECK(p.trigger_seq() == net::Packet::kNoTrigger);
  CHECK(p.num_sacks == 0);
  // SACK information below the cumulative ACK, or 2^32 segments above it, is a logic error.
  const std::array<net::SackBlock, 1> below{{{p.seq - 1, p.seq}}};
  CHECK_THROWS_AS(p.set_ack_options(net::Packet::kNoTrigger, below), std::logic_error);
  CHECK_THROWS_AS(p.set_ack_options(p.seq + (1ULL << 32) + 1, {}), std::logic_error);
}
