// An address-interleaved L2: slices behind Interconnect::mapInterleaved, each with its own
// request queue looking up one request per cycle, and set indices from the slice-local line
// number. Timing (1 ns cycles): L2 hit latency 10.
#include "model/mem/dram_target.h"
#include "model/mem/interconnect.h"
#include "model/mem/l2_cache.h"
#include "model/mem/mem_port.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

using namespace sc_core;
using simtlm::mem::DramConfig;
using simtlm::mem::DramTarget;
using simtlm::mem::Interconnect;
using simtlm::mem::L2Cache;
using simtlm::mem::L2Config;
using simtlm::mem::MemPort;
using simtlm::mem::MemResult;

namespace {

const sc_time ns(1, SC_NS);

L2Config sliceConfig() {
  L2Config c;
  c.size = 4096;
  c.line = 128;
  c.assoc = 2;
  c.hit_latency = 10;
  c.request_queue = 4;
  c.slice_channels = 2;  // two slices, alternate lines
  c.slice_interleave = 128;
  return c;
}

struct Bench {
  MemPort port;
  Interconnect bus, l2_dram;
  L2Cache s0, s1;
  DramTarget dram;
  std::vector<std::pair<std::uint64_t, sc_time>> done;
  Bench()
      : port("port", MemPort::Config{}), bus("bus"), l2_dram("l2_dram"), s0("s0", sliceConfig()),
        s1("s1", sliceConfig()), dram("dram", DramConfig{}) {
    port.to_memory.bind(bus.from_initiators);
    bus.to_targets.bind(s0.from_bus);
    bus.to_targets.bind(s1.from_bus);
    bus.mapInterleaved(0, 1 << 20, {0, 1}, 128, [](std::uint64_t a) { return unsigned(a / 128 % 2); });
    s0.to_memory.bind(l2_dram.from_initiators);
    s1.to_memory.bind(l2_dram.from_initiators);
    l2_dram.to_targets.bind(dram.from_bus);
    l2_dram.map(0, 0, std::uint64_t{1} << 32, false);
  }
  void read(std::uint64_t a) {
    port.read(a, 64, [this](const MemResult& r) {
      EXPECT_TRUE(r.ok());
      done.emplace_back(r.address, r.completed);
    });
  }
};

// Four reads made in the same cycle, two per slice: each slice looks up one at 1000 and one at
// 1001, so they hit at 1010, 1010, 1011, 1011 (one L2 target would take 1010 ... 1013).
TEST(L2Slices, EachSliceLooksUpOneRequestPerCycleInParallel) {
  Bench b;
  for (std::uint64_t a : {0, 128, 256, 384}) b.read(a);
  sc_start(1000, SC_NS);
  ASSERT_EQ(b.done.size(), 4u);
  b.done.clear();
  for (std::uint64_t a : {0, 128, 256, 384}) b.read(a);
  sc_start();
  ASSERT_EQ(b.done.size(), 4u);
  EXPECT_EQ(b.done[0], std::make_pair(std::uint64_t{0}, 1010 * ns));
  EXPECT_EQ(b.done[1], std::make_pair(std::uint64_t{128}, 1010 * ns));
  EXPECT_EQ(b.done[2], std::make_pair(std::uint64_t{256}, 1011 * ns));
  EXPECT_EQ(b.done[3], std::make_pair(std::uint64_t{384}, 1011 * ns));
  EXPECT_EQ(b.s0.stats().hits, 2u);
  EXPECT_EQ(b.s1.stats().hits, 2u);
  EXPECT_EQ(b.s0.stats().misses, 2u);
}

// Slice 0 sees lines 0, 256, 512, ...: slice-local lines 0, 1, 2, so 0 and 256 take different
// sets of its 16 and both stay (indexing by the global line number would put every line of
// this slice in even sets only, and with one way 0 and 4096 would collide).
TEST(L2Slices, SetIndexUsesTheSliceLocalLineNumber) {
  L2Config c = sliceConfig();
  c.size = 2048;  // 16 sets of one way
  c.assoc = 1;
  MemPort port("port", MemPort::Config{});
  L2Cache l2("l2", c);
  DramTarget dram("dram", DramConfig{});
  port.to_memory.bind(l2.from_bus);
  l2.to_memory.bind(dram.from_bus);
  int answered = 0;
  for (std::uint64_t a : {0, 4096, 2048})  // slice-local lines 0, 16, 8: sets 0, 0, 8
    port.read(a, 64, [&](const MemResult& r) { answered += r.ok(); });
  sc_start(1000, SC_NS);
  for (std::uint64_t a : {0, 2048}) port.read(a, 64, [&](const MemResult& r) { answered += r.ok(); });
  sc_start();
  EXPECT_EQ(answered, 5);
  EXPECT_EQ(l2.stats().hits, 1u);       // 2048 (set 8) stayed; 0 missed again
  EXPECT_EQ(l2.stats().misses, 4u);
  EXPECT_EQ(l2.stats().evictions, 2u);  // 4096 replaced 0 in set 0, then 0 replaced 4096
}

}  // namespace
