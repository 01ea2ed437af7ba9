// BOW-WR write-back hints (BOW Sec. IV-B): RF only, BOC only, or both, per window size.
#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "isa/bow_hints.h"
#include "tests/isa/test_support.h"

using namespace simtlm::isa;
using simtlm::test::assembleWorkloadKernel;
using simtlm::test::findOp;

namespace {

using H = BowHint;

Kernel asmKernel(const std::string& body) { return assemble(".kernel t\n.regs 24\n" + body); }

std::vector<BowHint> hints(const Kernel& k, int iw) {
  Cfg cfg(k);
  Liveness lv(k, cfg);
  return computeBowHints(k, cfg, lv, iw);
}

// BOW Fig. 6 (BTREE), in simtlm's ISA. $[0x0018] becomes r5; the wide 16-bit multiplies become
// 32-bit ones. Register numbers and distances are the paper's.
const char* kFig6 = R"(
  ld.global.b32 r3, [r8]          // 0  (line 2)
  mov.b32 r2, 0xff4               // 1  (line 3)
  mul.lo.u32 r1, r0, r2           // 2  (line 4)
  mad.lo.u32 r1, r0, r2, r1       // 3  (line 5)
  shl.b32 r1, r1, 16              // 4  (line 6)
  mad.lo.u32 r0, r0, r2, r1       // 5  (line 7)
  add.u32 r0, r5, r0              // 6  (line 8)
  add.u32 r0, r9, r0              // 7  (line 9)
  add.u32 r1, r0, 0x7f8           // 8  (line 10)
  ld.global.b32 r2, [r1]          // 9  (line 11)
  shl.b32 r2, r2, 8               // 10 (line 12)
  add.u32 r4, r2, 0x8f            // 11 (line 13)
  setp.ne.b32 p0, r3, r1          // 12 (line 14)
  @p0 exit                        // 13
  st.global.b32 [r8], r4          // 14
  exit                            // 15
)";

}  // namespace

TEST(BowHints, PaperFigure6WindowOf3) {
  Kernel k = asmKernel(kFig6);
  auto h = hints(k, 3);
  // 1) Reuse outside the window: $r3 is first read 12 instructions later.
  EXPECT_EQ(h[0], H::RegisterFile);
  // 2a) Transient: $r2 read by lines 4, 5 and (extended window) 7, then overwritten.
  EXPECT_EQ(h[1], H::Bypass);
  // $r1 updated in lines 4, 5, 6 and $r0 in 7, 8, 9: each consumed by the next instruction.
  for (int i : {2, 3, 4, 5, 6, 7}) EXPECT_EQ(h[i], H::Bypass) << "instruction " << i;
  // 2b) Persistent: $r1 of line 10 is read by line 11 and again by line 14 (outside).
  EXPECT_EQ(h[8], H::Both);
  EXPECT_EQ(h[9], H::Bypass);
  EXPECT_EQ(h[10], H::Bypass);
  // $r4 is live past the block end (read after the guarded exit): it needs the RF.
  EXPECT_EQ(h[11], H::RegisterFile);
  // No general-register result: no hint.
  for (int i : {12, 13, 14, 15}) EXPECT_EQ(h[i], H::None) << "instruction " << i;
  // Table I, BOW-WR with compiler hints: one RF write each for $r1 and $r3, none for $r0, $r2.
  int rfWrites[4] = {0, 0, 0, 0};
  for (size_t i = 0; i < k.size(); ++i)
    if ((h[i] == H::RegisterFile || h[i] == H::Both) && k.instrs[i].d < 4) ++rfWrites[k.instrs[i].d];
  EXPECT_EQ(rfWrites[0], 0);
  EXPECT_EQ(rfWrites[1], 1);
  EXPECT_EQ(rfWrites[2], 0);
  EXPECT_EQ(rfWrites[3], 1);
}

TEST(BowHints, WindowSizeChangesHints) {
  Kernel k = asmKernel(kFig6);
  auto h2 = hints(k, 2), h3 = hints(k, 3), h4 = hints(k, 4);
  // mov $r2: reads at distances 1, 1, 2. IW 2 cannot reach the third read.
  EXPECT_EQ(h2[1], H::Both);
  EXPECT_EQ(h3[1], H::Bypass);
  EXPECT_EQ(h4[1], H::Bypass);
  // add $r1 (line 10): reads at distances 1 and 3.
  EXPECT_EQ(h2[8], H::Both);
  EXPECT_EQ(h3[8], H::Both);
  EXPECT_EQ(h4[8], H::Bypass);
  // ld $r3: first read at distance 12 whatever the window.
  for (const auto& h : {h2, h3, h4}) EXPECT_EQ(h[0], H::RegisterFile);
  // A window of 1 has nothing to bypass into: every read value goes to the RF.
  auto h1 = hints(k, 1);
  EXPECT_EQ(h1[1], H::RegisterFile);
  EXPECT_EQ(h1[8], H::RegisterFile);
  EXPECT_THROW(hints(k, 0), std::invalid_argument);
}

TEST(BowHints, FirstReadDistanceAgainstWindow) {
  Kernel k = asmKernel(R"(
  mov.b32 r1, 1              // 0: read at distance 2, then dead
  mov.b32 r2, 2              // 1
  add.u32 r3, r1, r2         // 2
  st.shared.b32 [0], r3      // 3
  exit
)");
  EXPECT_EQ(hints(k, 2)[0], H::RegisterFile);
  EXPECT_EQ(hints(k, 3)[0], H::Bypass);
  EXPECT_EQ(hints(k, 2)[1], H::Bypass);
  EXPECT_EQ(hints(k, 2)[2], H::Bypass);
}

TEST(BowHints, ChainsStopAtBlockBoundaries) {
  // Same code with and without a branch between the definitions and the last reads.
  const char* split = R"(
  mov.b32 r1, 3              // 0
  add.u32 r2, r1, 1          // 1
  @p0 bra next               // 2
next:
  add.u32 r3, r1, r2         // 3
  st.shared.b32 [0], r3      // 4
  exit
)";
  const char* straight = R"(
  mov.b32 r1, 3
  add.u32 r2, r1, 1
  nop
  add.u32 r3, r1, r2
  st.shared.b32 [0], r3
  exit
)";
  auto hs = hints(asmKernel(split), 8);
  EXPECT_EQ(hs[0], H::Both);          // read in window, but live out of its block
  EXPECT_EQ(hs[1], H::RegisterFile);  // only read in the next block
  EXPECT_EQ(hs[3], H::Bypass);
  EXPECT_EQ(hs[2], H::None);
  auto ht = hints(asmKernel(straight), 8);
  EXPECT_EQ(ht[0], H::Bypass);
  EXPECT_EQ(ht[1], H::Bypass);
}

TEST(BowHints, LoopCarriedValueNeedsRegisterFile) {
  Kernel k = asmKernel(R"(
  mov.b32 r0, 0              // 0
loop:
  add.u32 r0, r0, 1          // 1: read next, and at the top of the next iteration
  setp.lt.u32 p0, r0, 10     // 2
  @p0 bra loop               // 3
  exit
)");
  auto h = hints(k, 3);
  EXPECT_EQ(h[0], H::RegisterFile);
  EXPECT_EQ(h[1], H::Both);
}

TEST(BowHints, GuardedDefinitionsNeverBypassOnly) {
  Kernel k = asmKernel(R"(
  setp.eq.b32 p1, r0, 0      // 0
  @p1 mov.b32 r1, 5          // 1: read next and dead, but guarded
  add.u32 r2, r1, 1          // 2
  st.shared.b32 [0], r2      // 3
  @p1 mov.b32 r6, 1          // 4: never read, guarded
  mov.b32 r7, 1              // 5: never read
  exit
)");
  auto h = hints(k, 3);
  EXPECT_EQ(h[0], H::None);
  EXPECT_EQ(h[1], H::Both);
  EXPECT_EQ(h[2], H::Bypass);
  EXPECT_EQ(h[4], H::RegisterFile);
  EXPECT_EQ(h[5], H::Bypass);  // dead on definition: no RF write needed
}

TEST(BowHints, GuardedRedefinitionNeedsOldValueInRegisterFile) {
  Kernel k = asmKernel(R"(
  setp.eq.b32 p1, r0, 0      // 0
  mov.b32 r1, 5              // 1: read next, then merged by a guarded write
  add.u32 r2, r1, 1          // 2
  @p1 mov.b32 r1, 6          // 3
  st.shared.b32 [r2], r1     // 4
  mov.b32 r4, 5              // 5: read and overwritten by the same instruction
  add.u32 r4, r4, 1          // 6
  st.shared.b32 [4], r4      // 7
  exit
)");
  auto h = hints(k, 3);
  EXPECT_EQ(h[1], H::Both);
  EXPECT_EQ(h[2], H::Bypass);
  EXPECT_EQ(h[3], H::Both);
  EXPECT_EQ(h[5], H::Bypass);
  EXPECT_EQ(h[6], H::Bypass);
}

TEST(BowHints, ApplyWritesHintBits) {
  Kernel k = asmKernel(kFig6);
  applyBowHints(k, 3);
  auto h = hints(k, 3);
  for (size_t i = 0; i < k.size(); ++i) {
    EXPECT_EQ(k.instrs[i].bow, h[i]);
    Instr d;
    ASSERT_TRUE(decode(k.code[i], d));
    EXPECT_EQ(d.bow, h[i]) << "instruction " << i;
  }
  EXPECT_EQ(k.instrs[0].bow, H::RegisterFile);
  EXPECT_EQ(k.instrs[8].bow, H::Both);
}

TEST(BowHints, MatmulInnerLoop) {
  Kernel k = assembleWorkloadKernel("matmul_tiled.s");
  auto h3 = hints(k, 3), h4 = hints(k, 4);
  size_t shl11 = findOp(k, Op::SHL_B32, 11, 0);
  EXPECT_EQ(h3[shl11], H::Both);  // read by the next add, and in every loop iteration
  // ld.shared r21, [r10+0]; ld.shared r22, [r11+4096]; fma r9, r21, r22, r9
  size_t ld21 = findOp(k, Op::LD_SHARED, 21, 10);
  ASSERT_EQ(k.instrs[ld21 + 2].op, Op::FMA_F32);
  EXPECT_EQ(hints(k, 2)[ld21], H::RegisterFile);
  EXPECT_EQ(h3[ld21], H::Bypass);
  EXPECT_EQ(h3[ld21 + 1], H::Bypass);
  // acc is re-read three instructions later by the next fma: RF with IW 3, BOC with IW 4.
  EXPECT_EQ(h3[ld21 + 2], H::RegisterFile);
  EXPECT_EQ(h4[ld21 + 2], H::Bypass);
  // The last fma of the body feeds the next iteration and the final store.
  size_t lastFma = 0;
  for (size_t i = 0; i < k.size(); ++i)
    if (k.instrs[i].op == Op::FMA_F32) lastFma = i;
  EXPECT_EQ(h4[lastFma], H::RegisterFile);
}
