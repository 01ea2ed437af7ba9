// L1Cache in SystemC: through MemPortDownstream, a real MemPort and a DramTarget. The test bench
// clocks the L1 at the middle of each 1 ns cycle (so memory responses, which arrive on clock
// edges, are never simultaneous with a tick) and checks data and exact cycles.
#include "model/mem/dram_target.h"
#include "model/mem/l1_cache.h"
#include "model/mem/mem_port.h"

#include <gtest/gtest.h>

#include <functional>
#include <vector>

using namespace sc_core;
using simtlm::config::GpuConfig;
using simtlm::mem::DramConfig;
using simtlm::mem::DramTarget;
using simtlm::mem::L1Cache;
using simtlm::mem::L1Request;
using simtlm::mem::L1Response;
using simtlm::mem::MemPort;
using simtlm::mem::MemPortDownstream;

namespace {

DramConfig dram_config() {
  DramConfig c;
  c.size = 1 << 20;
  c.latency_cycles = 20;
  c.bytes_per_cycle = 16;  // a 128-byte line: 8 transfer cycles
  c.banks = 4;
  return c;
}

struct Got {
  std::uint64_t cycle;
  L1Response r;
  std::vector<std::uint32_t> words;
};

SC_MODULE(Bench) {
  MemPort port;
  DramTarget dram;
  MemPortDownstream down;
  simtlm::stats::Registry reg;
  L1Cache l1;
  std::uint64_t cycle = 0;
  std::vector<Got> got;
  std::function<void(Bench&)> script;  // called once per cycle before the tick

  SC_CTOR(Bench)
      : port("port"),
        dram("dram", dram_config()),
        down(port),
        l1(GpuConfig::L1{true, 1024, 128, 2, 1, 4, 4, 5}, down,
           [this](const L1Response& r) {
             got.push_back({cycle, r, std::vector<std::uint32_t>(r.words, r.words + r.count)});
           },
           simtlm::stats::Group(reg, "sm0.l1")) {
    port.to_memory.bind(dram.from_bus);
    SC_THREAD(clock);
  }
  void clock() {
    wait(sc_time(0.5, SC_NS));
    for (; cycle < 200; ++cycle) {
      if (script) script(*this);
      l1.tick(cycle);
      wait(sc_time(1, SC_NS));
    }
  }
  void load(std::uint64_t a, std::uint64_t tag) {
    L1Request r;
    r.address = a;
    r.tag = tag;
    l1.accept(r, cycle);
  }
};

TEST(L1CacheTlm, MissThroughDramThenHit) {
  Bench b("bench");
  for (std::uint32_t i = 0; i < 64; ++i) {
    const std::uint32_t v = 1000 + i;
    b.dram.store().write(0x1000 + 4 * i, reinterpret_cast<const unsigned char*>(&v), 4);
  }
  b.script = [](Bench& t) {
    if (t.cycle == 0) t.load(0x1000, 1);
    if (t.cycle == 1) t.load(0x1010, 2);  // merged
    if (t.cycle == 60) t.load(0x1040, 3);  // hit
  };
  sc_start();
  ASSERT_EQ(b.got.size(), 3u);
  // Leaves at cycle 5 (5.5 ns); DRAM sees it at 6, data 6 + 20 + 8 = 34; answered at tick 34.
  EXPECT_EQ(b.got[0].cycle, 34u);
  EXPECT_EQ(b.got[1].cycle, 34u);
  EXPECT_EQ(b.got[1].r.tag, 2u);
  EXPECT_EQ(b.got[0].words[4], 1004u);
  EXPECT_EQ(b.got[2].cycle, 65u);
  EXPECT_TRUE(b.got[2].r.hit);
  EXPECT_EQ(b.got[2].words[16], 1016u);
  EXPECT_EQ(b.port.stats().reads, 1u);
  EXPECT_TRUE(b.l1.idle());
}

TEST(L1CacheTlm, StoresAndAtomicsReachDram) {
  Bench b("bench");
  b.script = [](Bench& t) {
    if (t.cycle == 0) {
      L1Request s;
      s.kind = L1Request::Kind::Store;
      s.address = 0x2000;
      s.ops.push(8, 77);
      s.ops.push(12, 78);
      t.l1.accept(s, t.cycle);
    }
    if (t.cycle == 1) {
      L1Request a;
      a.kind = L1Request::Kind::Atomic;
      a.op = simtlm::isa::Op::ATOM_G_ADD_U32;
      a.address = 0x2000;
      a.ops.push(8, 3);
      a.ops.push(8, 4);
      t.l1.accept(a, t.cycle);
    }
    if (t.cycle == 2) t.load(0x2000, 9);  // after both in memory order
  };
  sc_start();
  ASSERT_EQ(b.got.size(), 3u);
  EXPECT_EQ(b.got[1].r.kind, L1Request::Kind::Atomic);
  EXPECT_EQ(b.got[1].words, (std::vector<std::uint32_t>{77, 80}));
  EXPECT_EQ(b.got[2].r.kind, L1Request::Kind::Load);
  EXPECT_EQ(b.got[2].words[2], 84u);
  EXPECT_EQ(b.got[2].words[3], 78u);
  std::uint32_t w = 0;
  b.dram.store().read(0x2008, reinterpret_cast<unsigned char*>(&w), 4);
  EXPECT_EQ(w, 84u);
  EXPECT_EQ(b.dram.stats().atomics, 1u);
}

}  // namespace
