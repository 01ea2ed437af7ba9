// Timing sanity of the SM's shared memory (mem::SharedMemory attached to SmCore): a 32-way bank
// conflict (32 lanes, stride 32 words) against the conflict-free pattern (stride 1 word), with
// the differences the unit's formulas predict:
//   an access of degree d is answered latency + d - 1 cycles after it is accepted, and the banks
//   take the next access d cycles after it;
// so a conflict costs d - 1 cycles of throughput per access and d - 1 cycles of latency on a
// dependent chain. The counters under sm0.shared are exact.
#include <gtest/gtest.h>

#include <string>

#include "isa/assembler.h"
#include "isa/interpreter.h"
#include "model/sm/grid_runner.h"

using namespace simtlm;

namespace {

constexpr int kDegree = 32;  // stride 32 words on 32 banks of 4 bytes: every lane in bank 0

config::GpuConfig oneSm() {
  config::GpuConfig c;  // Pascal defaults: 32 banks of 4 bytes, shared.latency 24
  c.gpu.num_sms = 1;
  return c;
}

// Lane l addresses word l * stride (shift 2: stride 1 word, shift 7: stride 32 words).
std::string prologue(int shift) {
  return ".kernel banks\n.shared 4096\n  s2r r0, %laneid\n  shl.b32 r1, r0, " + std::to_string(shift) + "\n";
}

struct Outcome {
  uint64_t cycles;
  double accesses, lanes, conflicts, stalls;
};

Outcome run(const std::string& src, uint32_t threads) {
  auto k = isa::assemble(src, "banks.s");
  isa::LaunchConfig l;
  l.block = {threads, 1, 1};
  isa::GlobalMemory mem;
  stats::Registry reg;
  auto r = sm::runGrid(oneSm(), k, l, mem, reg);
  EXPECT_EQ(r.error, "");
  return {r.cycles, *reg.value("sm0.shared.accesses"), *reg.value("sm0.shared.lane_accesses"),
          *reg.value("sm0.shared.bank_conflicts"), *reg.value("sm0.shared.stalls")};
}

// N independent stores per warp, 16 warps: enough warps that the conflict-free stream is
// limited by the banks (one access per cycle), not by fetch or issue.
Outcome stores(int shift, int n, uint32_t threads) {
  std::string src = prologue(shift);
  for (int i = 0; i < n; ++i) src += "  st.shared.b32 [r1], r0\n";
  return run(src + "  exit\n", threads);
}

// One warp: each word holds its own address, then `iterations` x 4 loads, each using the
// previous one's result as its address (a dependent chain).
Outcome chain(int shift, int iterations) {
  std::string src = prologue(shift) + "  st.shared.b32 [r1], r1\n  mov.b32 r5, " +
                    std::to_string(iterations) + "\nloop:\n";
  for (int i = 0; i < 4; ++i) src += "  ld.shared.b32 r1, [r1]\n";
  src += "  sub.u32 r5, r5, 1\n  setp.ne.b32 p0, r5, 0\n  @p0 bra loop\n  exit\n";
  return run(src, 32);
}

}  // namespace

TEST(SmSharedTiming, ConflictsCostDegreeMinusOneCyclesOfThroughputPerAccess) {
  const int n = 32;
  const uint32_t threads = 512;  // 16 warps
  const double accesses = n * threads / 32;
  const Outcome freeRun = stores(2, n, threads), conflict = stores(7, n, threads);
  // The counters are exact.
  EXPECT_EQ(freeRun.accesses, accesses);
  EXPECT_EQ(conflict.accesses, accesses);
  EXPECT_EQ(freeRun.lanes, accesses * 32);
  EXPECT_EQ(conflict.lanes, accesses * 32);
  EXPECT_EQ(freeRun.conflicts, 0.0);
  EXPECT_EQ(conflict.conflicts, accesses * (kDegree - 1));
  EXPECT_EQ(freeRun.stalls, 0.0);
  EXPECT_GT(conflict.stalls, accesses * (kDegree - 2));  // ready accesses refused by busy banks
  // Conflict free, the banks take one access per cycle; 32-way, one per 32 cycles: every access
  // costs degree - 1 = 31 more cycles (the last one's answer, too, comes 31 cycles later).
  const double expected = accesses * (kDegree - 1);
  EXPECT_NEAR(static_cast<double>(conflict.cycles) - static_cast<double>(freeRun.cycles), expected, 4.0)
      << "conflict-free " << freeRun.cycles << ", 32-way " << conflict.cycles;
  EXPECT_GE(static_cast<double>(freeRun.cycles), accesses);  // never faster than the banks
}

TEST(SmSharedTiming, OneWarpPaysTheDegreeForEveryConflictingAccess) {
  // A single warp: extra 32-way stores each cost exactly 32 cycles of bank time.
  const Outcome a = stores(7, 32, 32), b = stores(7, 64, 32);
  EXPECT_EQ(b.conflicts - a.conflicts, 32.0 * (kDegree - 1));
  EXPECT_NEAR(static_cast<double>(b.cycles - a.cycles), 32.0 * kDegree, 2.0);
  const Outcome fa = stores(2, 32, 32), fb = stores(2, 64, 32);
  EXPECT_LT((fb.cycles - fa.cycles) * 3, b.cycles - a.cycles);
}

TEST(SmSharedTiming, ConflictsAddDegreeMinusOneCyclesOfLatency) {
  // Differences between 32 and 16 iterations cancel the prologue and the tail.
  const Outcome f16 = chain(2, 16), f32 = chain(2, 32), c16 = chain(7, 16), c32 = chain(7, 32);
  const double loads = 16 * 4;
  EXPECT_EQ(c32.conflicts - c16.conflicts, loads * (kDegree - 1));
  EXPECT_EQ(f32.conflicts, 0.0);
  const double perLoadFree = static_cast<double>(f32.cycles - f16.cycles) / loads;
  const double perLoadConflict = static_cast<double>(c32.cycles - c16.cycles) / loads;
  // A dependent load waits the load-to-use latency (docs/timing-model.md): the SM's own stages
  // are inside it; the loop's branch adds nothing the chain does not hide.
  const auto c = oneSm();
  EXPECT_NEAR(perLoadFree, c.shared.latency, 0.1);
  EXPECT_NEAR(perLoadConflict - perLoadFree, kDegree - 1, 0.1)
      << "per dependent load: conflict-free " << perLoadFree << ", 32-way " << perLoadConflict;
}

TEST(SmSharedTiming, SharedMemoryFaultsNameTheAddress) {
  auto k = isa::assemble(R"(
.kernel oob
.shared 64
  s2r r0, %laneid
  shl.b32 r1, r0, 2
  st.shared.b32 [r1], r0
  exit
)", "oob.s");
  isa::LaunchConfig l;
  l.block = {32, 1, 1};
  isa::GlobalMemory mem;
  stats::Registry reg;
  auto r = sm::runGrid(oneSm(), k, l, mem, reg);
  // Lane 16 is the first outside the 64-byte region, as the interpreter reports it.
  EXPECT_NE(r.error.find("shared memory access out of bounds (64 bytes) (block (0,0,0), warp 0, lane 16, PC 0x10, "
                         "address 0x40"),
            std::string::npos)
      << r.error;
}

TEST(SmSharedTiming, BlocksShareTheUnitAndEachGetsItsOwnRegion) {
  // Several blocks resident on one SM, each storing its block index into its own region and
  // reading it back after a barrier: memory equals the interpreter's.
  auto k = isa::assemble(R"(
.kernel regions
.shared 512
.param OUT
  s2r r0, %tid.x
  s2r r1, %ctaid.x
  shl.b32 r2, r0, 2
  st.shared.b32 [r2], r1
  bar.sync 0
  xor.b32 r3, r0, 1
  shl.b32 r3, r3, 2
  ld.shared.b32 r4, [r3]
  atom.shared.add.u32 r5, [r2], r4
  ld.shared.b32 r5, [r2]
  s2r r6, %ntid.x
  mad.lo.u32 r7, r1, r6, r0
  shl.b32 r7, r7, 2
  ld.param.b32 r8, [OUT]
  add.u32 r8, r8, r7
  st.global.b32 [r8], r5
  exit
)", "regions.s");
  isa::GlobalMemory golden, timed;
  isa::LaunchConfig l;
  l.grid = {12, 1, 1};
  l.block = {128, 1, 1};
  l.params = {golden.allocate("out", 12 * 128 * 4)};
  timed.allocate("out", 12 * 128 * 4);
  isa::Interpreter(k, golden).run(l);
  stats::Registry reg;
  auto r = sm::runGrid(oneSm(), k, l, timed, reg);
  ASSERT_EQ(r.error, "");
  EXPECT_TRUE(golden == timed);
  for (uint32_t b = 0; b < 12; ++b) EXPECT_EQ(timed.words("out")[b * 128 + 5], 2 * b) << b;
  EXPECT_EQ(*reg.value("sm0.shared.accesses"), 12.0 * 4 * 4);
}
