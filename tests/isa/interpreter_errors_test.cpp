// The golden functional interpreter: faults and deadlocks, with the messages that locate them
// (block, warp, lane, PC, address, source line).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "tests/isa/test_support.h"

using namespace simtlm;
using namespace simtlm::isa;
using namespace simtlm::test;

TEST(InterpErrors, DeadlockWhenAWarpExitsBeforeTheBarrier) {
  // In block 1 only, warp 1 (of 3) exits; warps 0 and 2 wait forever.
  Kernel k = assemble(R"(
.kernel dead
  s2r r0, %ctaid.x
  s2r r1, %warpid
  setp.eq.b32 p0, r0, 1
  setp.eq.b32 p1, r1, 1
  pand p0, p0, p1
  @p0 exit
WAIT:
  bar.sync 0
  exit
)");
  GlobalMemory mem;
  std::string m = runError(k, mem, launch({3}, {96}, {}));
  EXPECT_CONTAINS(m, "deadlock");
  EXPECT_CONTAINS(m, "kernel 'dead'");
  EXPECT_CONTAINS(m, "block (1,0,0)");
  std::string pc = hex(labelPc(k, "WAIT"));
  EXPECT_CONTAINS(m, "warp 0: waits at bar.sync 0, PC " + pc);
  EXPECT_CONTAINS(m, "warp 1: exited");
  EXPECT_CONTAINS(m, "warp 2: waits at bar.sync 0, PC " + pc);
}

TEST(InterpErrors, WarpsWaitingAtDifferentBarrierIds) {
  Kernel k = assemble(R"(
.kernel ids
  s2r r1, %warpid
  setp.eq.b32 p0, r1, 0
  @p0 bra FIRST
SECOND:
  bar.sync 2
  exit
FIRST:
  bar.sync 1
  exit
)");
  GlobalMemory mem;
  std::string m = runError(k, mem, launch({1}, {16}, {}, 8));
  EXPECT_CONTAINS(m, "deadlock");
  EXPECT_CONTAINS(m, "block (0,0,0)");
  EXPECT_CONTAINS(m, "warp 0: waits at bar.sync 1, PC " + hex(labelPc(k, "FIRST")));
  EXPECT_CONTAINS(m, "warp 1: waits at bar.sync 2, PC " + hex(labelPc(k, "SECOND")));
}

TEST(InterpErrors, BarrierInADivergedWarp) {
  Kernel k = assemble(R"(
.kernel divbar
  s2r r0, %tid.x
  setp.lt.u32 p0, r0, 4
  @!p0 bra SKIP
BAR:
  bar.sync 0
SKIP:
  exit
)");
  GlobalMemory mem;
  std::string m = runError(k, mem, launch({2}, {64}, {}));
  EXPECT_CONTAINS(m, "bar.sync executed by a diverged warp");
  EXPECT_CONTAINS(m, "active lanes 0xf of 0xffffffff");
  EXPECT_CONTAINS(m, "block (0,0,0), warp 0, PC " + hex(labelPc(k, "BAR")));
}

TEST(InterpErrors, PredicatedBarrier) {
  Kernel k = assemble(R"(
.kernel predbar
  s2r r0, %tid.x
  setp.lt.u32 p0, r0, 4
  @p0 bar.sync 0
  exit
)");
  GlobalMemory mem;
  std::string m = runError(k, mem, launch({1}, {32}, {}));
  EXPECT_CONTAINS(m, "bar.sync under a predicate");
  EXPECT_CONTAINS(m, "warp 0, PC 0x10");
}

TEST(InterpErrors, OutOfBoundsGlobalAccess) {
  // 100 words, 128 threads: the first lane past the end is block 1, warp 1, lane 4.
  Kernel k = assemble(R"(
.kernel oob
.param OUT
  s2r r0, %tid.x
  s2r r1, %ctaid.x
  s2r r2, %ntid.x
  mad.lo.u32 r0, r1, r2, r0
  shl.b32 r3, r0, 2
  ld.param.b32 r4, [OUT]
  add.u32 r4, r4, r3
  st.global.b32 [r4], r0
  exit
)",
                      "oob.s");
  GlobalMemory mem;
  uint32_t out = mem.allocate("out", 100 * 4);
  std::string m = runError(k, mem, launch({2}, {64}, {out}));
  EXPECT_CONTAINS(m, "global memory access outside every buffer");
  EXPECT_CONTAINS(m, "block (1,0,0), warp 1, lane 4, PC 0x38, address " + hex(out + 400));
  EXPECT_CONTAINS(m, "oob.s:11");
  // Everything before the fault was written.
  EXPECT_EQ(mem.words("out")[99], 99u);

  // A load just before a buffer, in the guard gap between two buffers, faults too.
  Kernel ld = assemble(R"(
.kernel ldoob
.param P
  ld.param.b32 r1, [P]
  ld.global.b32 r2, [r1-4]
  exit
)");
  GlobalMemory mem2;
  mem2.allocate("a", 64);
  uint32_t b = mem2.allocate("b", 64);
  std::string m2 = runError(ld, mem2, launch({1}, {1}, {b}));
  EXPECT_CONTAINS(m2, "outside every buffer");
  EXPECT_CONTAINS(m2, "lane 0, PC 0x8, address " + hex(b - 4));
}

TEST(InterpErrors, MisalignedAccess) {
  Kernel k = assemble(R"(
.kernel mis
.param OUT
  s2r r0, %tid.x
  ld.param.b32 r4, [OUT]
  add.u32 r4, r4, r0        // byte index: lane 1 is misaligned
  st.global.b32 [r4], r0
  exit
)");
  GlobalMemory mem;
  uint32_t out = mem.allocate("out", 256);
  std::string m = runError(k, mem, launch({1}, {8}, {out}));
  EXPECT_CONTAINS(m, "misaligned");
  EXPECT_CONTAINS(m, "block (0,0,0), warp 0, lane 1, PC 0x18, address " + hex(out + 1));

  Kernel s = assemble(R"(
.kernel mis2
.shared 64
  ld.shared.b32 r1, [6]
  exit
)");
  std::string m2 = runError(s, mem, launch({1}, {1}, {}));
  EXPECT_CONTAINS(m2, "misaligned");
  EXPECT_CONTAINS(m2, "address 0x6");
}

TEST(InterpErrors, SharedAccessBeyondDeclaredSize) {
  Kernel k = assemble(R"(
.kernel shoob
.shared 64
  s2r r0, %tid.x
  shl.b32 r1, r0, 2
  st.shared.b32 [r1], r0
  exit
)");
  GlobalMemory mem;
  std::string m = runError(k, mem, launch({1}, {32}, {}));
  EXPECT_CONTAINS(m, "shared memory access out of bounds (64 bytes)");
  EXPECT_CONTAINS(m, "warp 0, lane 16, PC 0x10, address 0x40");

  Kernel none = assemble(R"(
.kernel noshared
  ld.shared.b32 r1, [0]
  exit
)");
  std::string m2 = runError(none, mem, launch({1}, {1}, {}));
  EXPECT_CONTAINS(m2, "shared memory access out of bounds (0 bytes)");
}

TEST(InterpErrors, ParameterAccessBeyondParameters) {
  Kernel k = assemble(R"(
.kernel poob
.param A
.param B
  ld.param.b32 r1, [B]
  ld.param.b32 r2, [8]
  exit
)");
  GlobalMemory mem;
  std::string m = runError(k, mem, launch({1}, {4}, {1, 2}));
  EXPECT_CONTAINS(m, "parameter access out of bounds (8 bytes)");
  EXPECT_CONTAINS(m, "warp 0, lane 0, PC 0x8, address 0x8");
}

TEST(InterpErrors, PcRunsPastTheLastInstruction) {
  Kernel k = assemble(R"(
.kernel noexit
  mov.b32 r1, 1
  add.u32 r1, r1, 1
)");
  GlobalMemory mem;
  std::string m = runError(k, mem, launch({1}, {4}, {}));
  EXPECT_CONTAINS(m, "PC past the last instruction");
  EXPECT_CONTAINS(m, "block (0,0,0), warp 0, PC 0x10");
}

TEST(InterpErrors, InstructionLimitStopsAnEndlessLoop) {
  Kernel k = assemble(R"(
.kernel spin
  s2r r0, %tid.x
SPIN:
  add.u32 r0, r0, 1
  bra SPIN
)");
  GlobalMemory mem;
  LaunchConfig l = launch({1}, {32}, {});
  l.maxWarpInstructions = 1000;
  std::string m = runError(k, mem, l);
  EXPECT_CONTAINS(m, "instruction limit reached: 1000 warp instructions executed");
  EXPECT_CONTAINS(m, "block (0,0,0); where each warp was:\n  warp 0: runs at PC " + hex(labelPc(k, "SPIN") + 8));  // about to run the 1001st: the bra

  // An endless loop in some lanes only (after a divergent branch) is caught as well.
  Kernel d = assemble(R"(
.kernel spin2
  s2r r0, %tid.x
  setp.eq.b32 p0, r0, 5
  @!p0 exit
SPIN:
  bra SPIN
)");
  std::string m2 = runError(d, mem, l);
  EXPECT_CONTAINS(m2, "instruction limit reached");
  EXPECT_CONTAINS(m2, "warp 0: runs at PC " + hex(labelPc(d, "SPIN")));
}
