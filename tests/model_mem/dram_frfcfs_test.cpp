// DramTarget with scheduler = FrFcfs: open rows, row hit / miss / conflict times, FR-FCFS order,
// the channel queue bound, the address mapping and the conversion of DRAM-clock timings.
#include "model/mem/dram_scheduler.h"
#include "model/mem/dram_target.h"
#include "model/mem/mem_port.h"

#include <gtest/gtest.h>

#include <vector>

using namespace sc_core;
using simtlm::mem::DramConfig;
using simtlm::mem::DramTarget;
using simtlm::mem::DramTimings;
using simtlm::mem::FrFcfsDram;
using simtlm::mem::MemPort;
using simtlm::mem::MemResult;

namespace {

const sc_time ns(1, SC_NS);

// DRAM clock = core clock, so the t_* are core cycles: tRCD 5, tRP 7, tRAS 11, CL 3, WL 2,
// one 32-byte atom per 2 cycles, 10 cycles of fixed latency; one channel of 4 banks:
// bank = bit 7 | bit 12 << 1, row = address >> 13.
DramConfig rowConfig() {
  DramConfig c;
  c.scheduler = DramConfig::Scheduler::FrFcfs;
  c.clock_period = ns;
  c.dram_clock_period = ns;
  c.latency_cycles = 10;
  c.channels = 1;
  c.banks = 4;
  c.interleave_bytes = 256;
  c.queue_depth = 8;
  c.accept_cycles = 0;
  c.t_rcd = 5;
  c.t_rp = 7;
  c.t_ras = 11;
  c.t_cl = 3;
  c.t_wl = 2;
  c.t_ccd = 2;
  c.atom_bytes = 32;
  return c;
}

struct Bench {
  MemPort port;
  DramTarget dram;
  std::vector<std::pair<std::uint64_t, sc_time>> done;  // (address, completion time)
  explicit Bench(const DramConfig& c) : port("port", MemPort::Config{}), dram("dram", c) {
    port.to_memory.bind(dram.from_bus);
  }
  void read(std::uint64_t a, unsigned n = 32) {
    port.read(a, n, [this](const MemResult& r) {
      EXPECT_TRUE(r.ok());
      done.emplace_back(r.address, r.completed);
    });
  }
};

// A closed bank: activate at 0, column at tRCD = 5, data at 5 + CL = 8, one burst (2 cycles)
// to 10, + latency 10 = 20. The second access to the same row takes the column command when
// the first one's burst ends (7): data at 10, on the bus 10..12, answered at 22.
TEST(DramFrFcfs, SecondAccessToTheOpenRowTakesTheRowHitTime) {
  Bench b(rowConfig());
  b.read(0);
  b.read(64);
  sc_start();
  ASSERT_EQ(b.done.size(), 2u);
  EXPECT_EQ(b.done[0].second, 20 * ns);
  EXPECT_EQ(b.done[1].second, 22 * ns);
  EXPECT_EQ(b.dram.stats().row_hits, 1u);
  EXPECT_EQ(b.dram.stats().row_misses, 1u);
  EXPECT_EQ(b.dram.stats().row_conflicts, 0u);
}

// 0x2000 is row 1 of bank 0, whose row 0 is open: precharge waits for tRAS after the activate
// (11), activate at 11 + tRP = 18, column at 23, data at 26, bus 26..28, answered at 38.
TEST(DramFrFcfs, AnotherRowOfTheSameBankTakesPrechargeActivateAndCas) {
  Bench b(rowConfig());
  b.read(0);
  b.read(0x2000);
  sc_start();
  ASSERT_EQ(b.done.size(), 2u);
  EXPECT_EQ(b.done[0].second, 20 * ns);
  EXPECT_EQ(b.done[1].second, 38 * ns);
  EXPECT_EQ(b.dram.stats().row_hits, 0u);
  EXPECT_EQ(b.dram.stats().row_misses, 2u);
  EXPECT_EQ(b.dram.stats().row_conflicts, 1u);
}

// 0x2000 (row 1) is older than 64 (row 0), both waiting for bank 0 while row 0 is open: the
// younger row hit goes first (22), then the miss (its precharge still waits for tRAS: 38).
TEST(DramFrFcfs, YoungerRowHitIsServedBeforeAnOlderMiss) {
  Bench b(rowConfig());
  b.read(0);
  b.read(0x2000);
  b.read(64);
  sc_start();
  ASSERT_EQ(b.done.size(), 3u);
  EXPECT_EQ(b.done[0], std::make_pair(std::uint64_t{0}, 20 * ns));
  EXPECT_EQ(b.done[1], std::make_pair(std::uint64_t{64}, 22 * ns));
  EXPECT_EQ(b.done[2], std::make_pair(std::uint64_t{0x2000}, 38 * ns));
  EXPECT_EQ(b.dram.stats().row_hits, 1u);
}

// Banks 0 and 1 (bit 7) work in parallel; their data share the channel's bus.
TEST(DramFrFcfs, DifferentBanksOverlapAndShareTheDataBus) {
  Bench b(rowConfig());
  b.read(0);
  b.read(0x80);
  sc_start();
  ASSERT_EQ(b.done.size(), 2u);
  EXPECT_EQ(b.done[0].second, 20 * ns);
  EXPECT_EQ(b.done[1].second, 22 * ns);  // data ready at 8 as well, bus free at 10
  EXPECT_EQ(b.dram.stats().row_misses, 2u);
}

// With room for one queued request, the third request's END_REQ waits until the bank starts
// the second; the timing of the three is that of a long queue.
TEST(DramFrFcfs, FullChannelQueueWithholdsEndReq) {
  DramConfig c = rowConfig();
  c.queue_depth = 1;
  Bench b(c);
  b.read(0);
  b.read(64);
  b.read(96);
  sc_start();
  ASSERT_EQ(b.done.size(), 3u);
  EXPECT_EQ(b.done[0].second, 20 * ns);
  EXPECT_EQ(b.done[1].second, 22 * ns);
  EXPECT_EQ(b.done[2].second, 24 * ns);
  EXPECT_EQ(b.dram.stats().queue_full_stalls, 1u);
}

// SM6_TITANX's timings (2500 MHz DRAM clock) on a 1480 MHz core: tRCD 16 -> ceil(9.47) = 10,
// CL 16 -> 10, four atoms of tCCD 2 -> ceil(4.74) = 5 cycles; + latency 100 = 125 cycles.
TEST(DramFrFcfs, GpgpuSimTimingsConvertToCoreCyclesRoundedUp) {
  DramConfig c;
  c.scheduler = DramConfig::Scheduler::FrFcfs;
  c.clock_period = sc_time(1.0e6 / 1480, SC_PS);
  c.channels = 11;
  c.accept_cycles = 0;
  c.latency_cycles = 100;
  Bench b(c);
  b.read(0, 128);
  sc_start();
  ASSERT_EQ(b.done.size(), 1u);
  EXPECT_EQ(b.done[0].second, c.clock_period * 125.0);
}

// GPGPU-Sim's dramid@8 mapping on 11 channels of 16 banks: 256-byte chunks go round the
// channels; in a channel, bit 7 picks the bank's low bit, bits 12-14 the others, rows are 32 KB
// of channel-local address apart.
TEST(DramFrFcfs, AddressMapsToChannelBankAndRow) {
  DramTimings t;
  t.channels = 11;
  t.banks = 16;
  FrFcfsDram d(t);
  const std::uint64_t a = 256 * (11 * 3 + 5) + 128;  // chunk 38: channel 5, local 3 * 256 + 128
  EXPECT_EQ(d.locate(a).channel, 5u);
  EXPECT_EQ(d.locate(a).bank, 1u);
  EXPECT_EQ(d.locate(a).row, 0u);
  const std::uint64_t b = 256 * 11 * (0x7000 / 256) + 256 * 2;  // local 0x7000: bank bits 7
  EXPECT_EQ(d.locate(b).channel, 2u);
  EXPECT_EQ(d.locate(b).bank, 14u);
  const std::uint64_t c = 256 * 11 * (0x18000 / 256);  // local 0x18000: row 3
  EXPECT_EQ(d.locate(c).row, 3u);
  EXPECT_EQ(d.locate(c).bank, 0u);
}

}  // namespace
