// The register-file stage of the SM (operand collectors, bank arbitration, writeback port):
// timing sanity with numbers derived from the configuration, exact where the pipeline is
// periodic. Pascal defaults unless a test says otherwise: 32 single-ported banks with the
// skewed mapping, 32 collectors with one port each, latency.int = 4, SIMD width 32.
//
// Per dependent instruction (docs/timing-model.md, "The SM core"): issued in cycle c, its R
// sources are read in ticks c+1 .. c+R (one per cycle through the collector's single port;
// an instruction with none still spends one cycle in the read stage), it dispatches in c+R+1,
// its result is due occupancy - 1 + latency cycles later and written to its bank in that
// cycle, before issue, and the scoreboard releases as it is written: a dependant issues in that
// cycle,
//   R + occupancy + latency cycles later  (max(R, 1) for R = 0).
#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "model/regfile/types.h"
#include "model/sm/grid_runner.h"

using namespace simtlm;

namespace {

struct Outcome {
  uint64_t cycles = 0;
  stats::Registry reg;
  double stat(const std::string& name) const { return reg.value("sm0." + name).value_or(-1); }
};

config::GpuConfig oneSm() {
  config::GpuConfig c;  // Pascal defaults
  c.gpu.num_sms = 1;
  return c;
}

// Runs `src` as one block of `threads` threads; instruction fills of 0 cycles (the I-cache is
// not what these tests measure).
void run(Outcome& r, const std::string& src, const config::GpuConfig& c, uint32_t threads = 32) {
  auto k = isa::assemble(src, "t.s");
  isa::LaunchConfig l;
  l.block = {threads, 1, 1};
  isa::GlobalMemory mem;
  mem.allocate("buf", 4096);  // at isa::GlobalMemory::kFirstAddress
  auto g = sm::runGrid(c, k, l, mem, r.reg, 100, 0);
  ASSERT_EQ(g.error, "");
  r.cycles = g.cycles;
}

uint32_t bank(uint32_t physReg) {
  return regfile::index(regfile::bankOf(regfile::PhysReg{physReg}, 32));
}

// sm<N>.issue.stall.* add up to issue.stall_no_ready.
void expectStallsAddUp(const Outcome& r) {
  double sum = 0;
  for (const char* s : {"idle", "empty_ibuffer", "dependence", "barrier", "memory", "structural"})
    sum += r.stat(std::string("issue.stall.") + s);
  EXPECT_EQ(sum, r.stat("issue.stall_no_ready"));
}

}  // namespace

TEST(RegfileTiming, DependentChainCostsReadStageAndLatency) {
  const int N = 100;
  std::string one = ".kernel one\n", two = ".kernel two\n";
  for (int i = 0; i < N; ++i) one += "  add.u32 r1, r1, 1\n";   // R = 1
  for (int i = 0; i < N; ++i) two += "  add.u32 r1, r1, r2\n";  // R = 2
  one += "  exit\n";
  two += "  exit\n";
  const auto c = oneSm();
  const int lat = c.exec.latencyOf(isa::OpClass::Int);
  Outcome a, b;
  run(a, one, c);
  run(b, two, c);
  // R + occupancy + latency per instruction: 1 + 1 + 4 = 6 (Pascal measures 6), and 7 with two
  // sources.
  const uint64_t per1 = 1 + 1 + lat;
  EXPECT_GE(a.cycles, N * per1);
  EXPECT_LE(a.cycles, N * per1 + 20);  // fetch of the first instructions, exit, retire
  EXPECT_EQ(b.cycles - a.cycles, static_cast<uint64_t>(N));  // exactly one more read each
  // One scheduler holds the warp: each instruction issues once and waits per1 - 1 cycles,
  // for its source, or for fetch in the cycle after the second of a fetched pair issued.
  EXPECT_NEAR(a.stat("issue.stall.dependence") + a.stat("issue.stall.empty_ibuffer"),
              N * (per1 - 1), 10);
  EXPECT_GE(a.stat("issue.stall.dependence"), N * (per1 - 2));
  EXPECT_EQ(a.stat("regfile.reads"), N);
  EXPECT_EQ(b.stat("regfile.reads"), 2 * N);
  EXPECT_EQ(a.stat("regfile.writes"), N);
  EXPECT_EQ(a.stat("regfile.conflicts"), 0);
  expectStallsAddUp(a);
}

// Two instructions in flight at a time (each writes one of two alternating destinations, so
// instruction i + 2 waits for i's write): A issues in cycle t, B in t + 1, both read two
// sources. Conflict-free (r1 in bank 1, r33 in bank 2): A reads in t+1, t+2; B in t+2, t+3 (A's
// second read and B's first are in different banks); A writes in t+7, B in t+8, each before
// issue: the next pair issues 7 cycles after this one. Conflicting (r1 and r32 both in bank 1):
// in t+2 the round robin serves B's r1 and denies A's r32, in t+3 it serves A and denies B, in
// t+4 B reads: every instruction loses exactly one cycle to exactly one conflict, and the pair
// period is 8.
TEST(RegfileTiming, BankConflictBetweenCollectorsCostsACycleEach) {
  ASSERT_EQ(bank(1), 1u);
  ASSERT_EQ(bank(32), 1u);  // skewed: (32 + 32 / 32) % 32
  ASSERT_EQ(bank(33), 2u);
  ASSERT_EQ(bank(10), 10u);
  ASSERT_EQ(bank(11), 11u);
  const int N = 200;
  auto kernel = [&](int second) {
    std::string s = ".kernel k\n.regs 34\n";
    for (int i = 0; i < N; ++i)
      s += "  add.u32 r" + std::to_string(10 + i % 2) + ", r1, r" + std::to_string(second) + "\n";
    return s + "  exit\n";
  };
  Outcome clean, conflict;
  run(clean, kernel(33), oneSm());
  run(conflict, kernel(32), oneSm());
  EXPECT_EQ(clean.stat("regfile.conflicts"), 0);
  EXPECT_EQ(conflict.stat("regfile.conflicts"), N);
  EXPECT_EQ(conflict.stat("regfile.bank1.conflicts"), N);
  EXPECT_EQ(conflict.stat("regfile.write_conflicts"), 0);
  EXPECT_EQ(conflict.stat("regfile.bank1.reads"), 2 * N);
  EXPECT_EQ(clean.stat("regfile.bank1.reads"), N);
  EXPECT_EQ(clean.stat("regfile.bank2.reads"), N);
  // N / 2 pairs, each one cycle longer.
  EXPECT_NEAR(static_cast<double>(conflict.cycles) - clean.cycles, N / 2, 1);
  EXPECT_NEAR(static_cast<double>(clean.cycles), N / 2 * 7, 20);
}

// Saturated: eight rotating destinations, so the warp issues as fast as fetch delivers: at
// most two instructions every three cycles (a fetch starts when both I-buffer entries are free
// and delivers a cycle later), less where an I-cache miss costs more; `fetchBound` is the same
// code without register sources. Conflict-free, the banks keep up (one read of bank 1 and one
// of bank 2 per instruction) and the run takes as long as fetch. Conflicting, bank 1 must serve
// two reads per instruction with one port: at least 2 cycles per instruction, and it is never
// idle (fetch is hidden behind it). A second port per bank takes the conflicts away.
TEST(RegfileTiming, BankConflictsBoundThroughputByTheBankPorts) {
  const int N = 400;
  auto kernel = [&](const std::string& op, const std::string& sources) {
    std::string s = ".kernel k\n.regs 34\n";
    for (int i = 0; i < N; ++i) s += "  " + op + " r" + std::to_string(10 + i % 8) + sources + "\n";
    return s + "  exit\n";
  };
  Outcome fetchBound, clean, conflict, twoPorts;
  run(fetchBound, kernel("mov.b32", ", 7"), oneSm());  // an immediate: no bank reads
  run(clean, kernel("add.u32", ", r1, r33"), oneSm());
  run(conflict, kernel("add.u32", ", r1, r32"), oneSm());
  auto c = oneSm();
  c.regfile.bank_ports = 2;
  run(twoPorts, kernel("add.u32", ", r1, r32"), c);
  EXPECT_EQ(fetchBound.stat("regfile.reads"), 0);
  EXPECT_GE(fetchBound.cycles, 3 * N / 2);
  EXPECT_LE(fetchBound.cycles, 3 * N / 2 + fetchBound.stat("icache.misses") * 2 + 10);
  EXPECT_EQ(clean.stat("regfile.conflicts"), 0);
  EXPECT_NEAR(static_cast<double>(clean.cycles), fetchBound.cycles, 2);
  const uint64_t bankBound = 2 * N / oneSm().regfile.bank_ports;
  EXPECT_GE(conflict.cycles, bankBound);
  EXPECT_LE(conflict.cycles, bankBound + 10);
  EXPECT_EQ(conflict.stat("regfile.bank1.reads"), 2 * N);
  EXPECT_GT(conflict.stat("regfile.conflicts"), N);  // several collectors wait on bank 1
  EXPECT_EQ(twoPorts.stat("regfile.conflicts"), 0);
  EXPECT_NEAR(static_cast<double>(twoPorts.cycles), fetchBound.cycles, 2);
  expectStallsAddUp(conflict);
}

// One collector: an instruction with two sources holds it from issue (cycle c) through its
// two reads to dispatch in c + 3, when the next one can take it. Eight warps of independent
// two-source adds have ILP to spare, so 32 collectors issue one instruction per cycle (one
// scheduler) while one collector serialises them at three cycles each.
TEST(RegfileTiming, OneCollectorSerialisesOperandReads) {
  const int N = 100, warps = 8;
  std::string s = ".kernel k\n.regs 16\n";
  for (int i = 0; i < N; ++i) s += "  add.u32 r" + std::to_string(2 + i % 8) + ", r0, r1\n";
  s += "  exit\n";
  auto c = oneSm();
  c.issue.schedulers = 1;
  c.regfile.collectors = 1;
  Outcome one, many;
  run(one, s, c, 32 * warps);
  c.regfile.collectors = 32;
  run(many, s, c, 32 * warps);
  // N adds x 3 cycles + exit x 2 cycles (no sources: one cycle in the read stage), per warp.
  const uint64_t serial = static_cast<uint64_t>(warps) * (3 * N + 2);
  EXPECT_EQ(one.stat("regfile.collector.full_cycles"), serial);  // busy exactly that long
  EXPECT_GE(one.cycles, serial);
  EXPECT_LE(one.cycles, serial + 10);
  EXPECT_LE(many.cycles * 2, one.cycles);
  // With one collector, the scheduler is stalled two cycles of three: counted as structural,
  // or as an empty I-buffer when the oldest warp (which issued) waits for its next fetch.
  EXPECT_NEAR(one.stat("issue.stall.structural") + one.stat("issue.stall.empty_ibuffer"),
              2.0 * warps * N, 20);
  EXPECT_GT(one.stat("issue.stall.structural"), warps * N);
  EXPECT_EQ(many.stat("issue.stall.structural"), 0);
  expectStallsAddUp(one);
  expectStallsAddUp(many);
}

TEST(RegfileTiming, HalvingSimdWidthStillDoublesAluOccupancy) {
  std::string s = ".kernel k\n";
  for (int i = 0; i < 200; ++i) s += "  add.u32 r" + std::to_string(1 + i % 8) + ", r0, 1\n";
  s += "  exit\n";
  auto c = oneSm();
  c.exec.sp_units = 1;
  c.exec.simd_width = 16;
  Outcome wide, narrow;
  run(wide, s, c);
  c.exec.simd_width = 8;
  run(narrow, s, c);
  // The unit is the bottleneck: 2 and 4 cycles per instruction. Instructions wait for it in
  // their collectors (counted as dispatch stalls).
  EXPECT_NEAR(static_cast<double>(wide.cycles), 2 * 200, 20);
  EXPECT_NEAR(static_cast<double>(narrow.cycles), 4 * 200, 20);
  EXPECT_GT(narrow.stat("regfile.collector.dispatch_stalls"), 0);
}

// A fence waits for the warp's load: counted as a memory stall, about the memory latency.
TEST(RegfileTiming, FenceWaitingForALoadIsAMemoryStall) {
  const std::string s = R"(
.kernel k
.regs 4
  mov.b32 r0, 0x10000000
  ld.global.b32 r1, [r0]
  membar
  exit
)";
  Outcome r;
  run(r, s, oneSm());
  EXPECT_NEAR(r.stat("issue.stall.memory"), 100, 5);
  expectStallsAddUp(r);
}

// Predicates live in their own file: a compare writes no bank, its dependant reads none.
TEST(RegfileTiming, PredicatesCauseNoBankTraffic) {
  const std::string s = R"(
.kernel k
.regs 4
  setp.lt.u32 p0, r1, 5
  @p0 bra done
done:
  exit
)";
  Outcome r;
  run(r, s, oneSm());
  EXPECT_EQ(r.stat("regfile.reads"), 1);  // r1
  EXPECT_EQ(r.stat("regfile.writes"), 0);
}
