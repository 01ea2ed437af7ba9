// DARSIE compiler marking (Sec. 4.2) and launch-time promotion (DESIGN.md rule 3).
#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "isa/darsie_analysis.h"
#include "tests/isa/test_support.h"

using namespace simtlm::isa;
using simtlm::test::assembleWorkloadKernel;
using simtlm::test::findInstr;

namespace {

std::string label(const RedundancyClass& c) {
  if (c.vector) return "V";
  if (!c.deps) return "DR";
  return "CR" + std::to_string(c.deps);
}

}  // namespace

TEST(Darsie, Fig3StaticClasses) {
  Kernel k = assembleWorkloadKernel("fig3.s");
  Cfg cfg(k);
  auto m = markRedundancy(k, cfg);
  size_t mul = findInstr(k, "mul.lo.u32 r1"), add = findInstr(k, "add.u32 r2"),
         ld = findInstr(k, "ld.global");
  EXPECT_EQ(label(m.instr[mul]), "CR1");  // depends on tid.x only
  EXPECT_EQ(label(m.instr[add]), "CR1");
  EXPECT_EQ(label(m.instr[ld]), "CR1");   // load from a conditionally redundant address
  EXPECT_EQ(label(m.instr[findInstr(k, "ld.param.b32 r4")]), "DR");
  EXPECT_EQ(label(m.instr[findInstr(k, "st.global")]), "V");  // stores are never skipped

  // 8x1 block, warp size 4: tid.x differs between warps -> vector after promotion.
  Kernel k8 = k;
  promoteForLaunch(k8, m, {8, 1, 1}, 4);
  EXPECT_EQ(k8.instrs[mul].darsie, Redundancy::Vector);
  EXPECT_EQ(k8.instrs[ld].darsie, Redundancy::Vector);
  // 4x2 block: every warp holds tid.x = (0,1,2,3) -> definitely redundant.
  Kernel k42 = k;
  promoteForLaunch(k42, m, {4, 2, 1}, 4);
  EXPECT_EQ(k42.instrs[mul].darsie, Redundancy::Definite);
  EXPECT_EQ(k42.instrs[ld].darsie, Redundancy::Definite);
  // The hint bits are really in the words.
  Instr back;
  ASSERT_TRUE(decode(k42.code[ld], back));
  EXPECT_EQ(back.darsie, Redundancy::Definite);
}

TEST(Darsie, Fig6MatrixMultiplyPaperMode) {
  // The paper considers only threadIdx.x conditionally redundant (Sec. 4.2).
  Kernel k = assembleWorkloadKernel("matmul_tiled.s");
  Cfg cfg(k);
  DarsieOptions paper;
  paper.conditionalTidYZ = false;
  auto m = markRedundancy(k, cfg, paper);
  EXPECT_EQ(label(m.instr[findInstr(k, "s2r r3, %ctaid.y")]), "DR");    // DR cvt $r2, %ctaid.y
  EXPECT_EQ(label(m.instr[findInstr(k, "s2r r0, %tid.x")]), "CR1");     // CR cvt $r4, tid.x
  EXPECT_EQ(label(m.instr[findInstr(k, "shl.b32 r11, r0, 2")]), "CR1"); // CR shl $ofs3
  EXPECT_EQ(label(m.instr[findInstr(k, "@p2 ld.global.b32 r21")]), "V");    // V ld.global
  // The unrolled loop: Bs[k][tx] loads CR, As[ty][k] loads V, the fma V (Fig. 6: two CR and
  // one V per step).
  for (int step : {0, 1, 31}) {
    EXPECT_EQ(label(m.instr[findInstr(k, "ld.shared.b32 r22", step)]), "CR1") << step;
    EXPECT_EQ(label(m.instr[findInstr(k, "ld.shared.b32 r21", step)]), "V") << step;
    EXPECT_EQ(label(m.instr[findInstr(k, "fma.f32", step)]), "V") << step;
  }
  EXPECT_EQ(label(m.instr[findInstr(k, "@p2 bra loop")]), "V");  // branches are never skipped
  // The tile counter is uniform in this kernel (nvcc's is a per-thread pointer).
  EXPECT_EQ(label(m.instr[findInstr(k, "setp.lt.u32 p2, r14, r13")]), "DR");
}

TEST(Darsie, Fig6PromotionFor32x32Blocks) {
  Kernel k = assembleWorkloadKernel("matmul_tiled.s");
  Cfg cfg(k);
  auto m = markRedundancy(k, cfg);
  size_t as = findInstr(k, "ld.shared.b32 r21"), bs = findInstr(k, "ld.shared.b32 r22");
  EXPECT_EQ(label(m.instr[as]), "CR2");  // tid.y-dependent: conditionally redundant on y
  promoteForLaunch(k, m, {32, 32, 1}, 32);
  EXPECT_EQ(k.instrs[bs].darsie, Redundancy::Definite);
  EXPECT_EQ(k.instrs[as].darsie, Redundancy::Vector);  // 32*32 does not divide the warp
  Kernel small = assembleWorkloadKernel("matmul_tiled.s");
  promoteForLaunch(small, m, {8, 4, 1}, 32);  // the block fits one warp: y repeats too
  EXPECT_EQ(small.instrs[as].darsie, Redundancy::Definite);
}

TEST(Darsie, ValuesDefinedUnderVectorBranchAreVectorAfterJoin) {
  Kernel k = assemble(R"(
.kernel join
.param P
  s2r r0, %tid.x
  s2r r5, %warpid
  mov.b32 r1, 7              // DR
  ld.param.b32 r2, [P]       // DR
  setp.lt.u32 p0, r5, 2      // V: depends on the warp
  @p0 bra skip
  add.u32 r1, r2, 1          // DR inside the region...
skip:
  add.u32 r3, r1, r2         // ...but V after the join
  setp.eq.b32 p1, r2, 0      // DR predicate: a uniform branch keeps redundancy
  @p1 bra skip2
  add.u32 r4, r2, 2
skip2:
  add.u32 r6, r4, r0         // CR(x): r4 stays DR, r0 is tid.x
  exit
)");
  Cfg cfg(k);
  auto m = markRedundancy(k, cfg);
  EXPECT_EQ(label(m.instr[findInstr(k, "add.u32 r1, r2, 1")]), "DR");
  EXPECT_EQ(label(m.instr[findInstr(k, "add.u32 r3")]), "V");
  EXPECT_EQ(label(m.instr[findInstr(k, "add.u32 r6")]), "CR1");
}

TEST(Darsie, GuardedWritesAndLoopsAreSound) {
  Kernel k = assemble(R"(
.kernel loop
  s2r r0, %tid.y
  s2r r1, %warpid
  mov.b32 r2, 0
  setp.lt.u32 p0, r1, 1          // V predicate
  @p0 mov.b32 r2, 5              // guarded by V: the result is V
  mov.b32 r3, 0                  // loop counter, DR
  mov.b32 r4, 0
top:
  add.u32 r4, r4, r0             // accumulates tid.y: CR(y)
  add.u32 r3, r3, 1
  setp.lt.u32 p1, r3, r1         // trip count differs per warp: V
  @p1 bra top
  add.u32 r5, r3, 1              // r3 was written in the loop under a V branch: V
  exit
)");
  Cfg cfg(k);
  auto m = markRedundancy(k, cfg);
  EXPECT_EQ(label(m.instr[findInstr(k, "@p0 mov.b32 r2")]), "V");
  // Inside the loop warps on the majority path stay in step (DARSIE syncs at branches):
  // the accumulation keeps its class; only at the loop exit do loop-written values turn V.
  EXPECT_EQ(label(m.instr[findInstr(k, "add.u32 r4")]), "CR2");
  EXPECT_EQ(label(m.instr[findInstr(k, "add.u32 r3")]), "DR");
  EXPECT_EQ(label(m.instr[findInstr(k, "add.u32 r5")]), "V");
}

TEST(Darsie, PromotionConditionPerComponent) {
  // tid.x repeats per warp when block.x divides the warp size.
  EXPECT_TRUE(depsRepeatPerWarp(kDepX, {16, 16, 1}, 32));
  EXPECT_FALSE(depsRepeatPerWarp(kDepX, {64, 1, 1}, 32));
  EXPECT_FALSE(depsRepeatPerWarp(kDepX, {12, 4, 1}, 32));  // 12 does not divide 32
  // tid.y when block.x * block.y divides it, or trivially when block.y is 1.
  EXPECT_FALSE(depsRepeatPerWarp(kDepY, {16, 16, 1}, 32));
  EXPECT_TRUE(depsRepeatPerWarp(kDepY, {8, 4, 2}, 32));
  EXPECT_TRUE(depsRepeatPerWarp(kDepY, {64, 1, 1}, 32));
  EXPECT_TRUE(depsRepeatPerWarp(kDepZ, {64, 2, 1}, 32));
  EXPECT_FALSE(depsRepeatPerWarp(kDepZ, {4, 4, 4}, 32));
  EXPECT_TRUE(depsRepeatPerWarp(kDepX | kDepY | kDepZ, {4, 2, 4}, 32));
  EXPECT_FALSE(depsRepeatPerWarp(kDepX | kDepY, {32, 2, 1}, 32));
}
