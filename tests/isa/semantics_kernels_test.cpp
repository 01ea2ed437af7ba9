// Semantics of the opcodes of isa/opcodes.def (see tests/isa/semantics_cases.h): hand-written
// kernels for predication, memory and barriers, and special registers.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "isa/diagnostics.h"
#include "tests/isa/semantics_cases.h"
#include "tests/isa/test_support.h"

namespace simtlm::test {

// Predication (@p, @!p, @pt), predicate logic with per-lane predicates, divergence and
// reconvergence, selp from pt.
const char* const kPredicateKernel = R"(
.kernel preds
.regs 12
.param OUT
  s2r r0, %tid.x
  and.b32 r1, r0, 1
  setp.ne.b32 p1, r1, 0            // p1 = bit 0 of tid
  and.b32 r1, r0, 2
  setp.ne.b32 p2, r1, 0            // p2 = bit 1 of tid
  pand p3, p1, p2
  por p4, p1, p2
  pxor p5, p1, p2
  pnot p6, p1
  mov.b32 r2, 0
  @p3 or.b32 r2, r2, 1
  @p4 or.b32 r2, r2, 2
  @p5 or.b32 r2, r2, 4
  @p6 or.b32 r2, r2, 8
  @!p1 or.b32 r2, r2, 16
  @pt or.b32 r2, r2, 32
  pand p0, p1, pt                  // pt as a source
  @p0 or.b32 r2, r2, 64
  pnot p0, pt
  @p0 or.b32 r2, r2, 128           // never
  mov.b32 r3, 1; mov.b32 r4, 2
  selp.b32 r5, r3, r4, pt          // 1
  selp.b32 r6, r3, r4, p1          // 2 - bit0
  // divergence: odd lanes +100, even lanes +200, everybody + tid after the join
  mov.b32 r7, 0
  @p1 bra ODD
  add.u32 r7, r7, 200
  bra JOIN
ODD:
  add.u32 r7, r7, 100
JOIN:
  add.u32 r7, r7, r0
  nop
  shl.b32 r8, r0, 4                // 4 words per thread
  ld.param.b32 r9, [OUT]
  add.u32 r9, r9, r8
  st.global.b32 [r9], r2; st.global.b32 [r9+4], r5
  st.global.b32 [r9+8], r6; st.global.b32 [r9+12], r7
  exit
)";

TEST(SemanticsInterp, PredicationAndPredicateLogic) {
  RunResult r = runKernel(kPredicateKernel, {{"OUT", std::vector<uint32_t>(4 * 32, 0)}}, dim(1), dim(32));
  auto o = r["OUT"];
  for (uint32_t t = 0; t < 32; ++t) {
    bool p1 = t & 1, p2 = t & 2;
    uint32_t want = (p1 && p2 ? 1 : 0) | (p1 || p2 ? 2 : 0) | (p1 != p2 ? 4 : 0) | (!p1 ? 8 : 0) |
                    (!p1 ? 16 : 0) | 32 | (p1 ? 64 : 0);
    EXPECT_EQ(o[4 * t], want) << "tid " << t;
    EXPECT_EQ(o[4 * t + 1], 1u);
    EXPECT_EQ(o[4 * t + 2], p1 ? 1u : 2u);
    EXPECT_EQ(o[4 * t + 3], (p1 ? 100u : 200u) + t);
  }
  EXPECT_EQ(r.counts.divergentBranches, 1u);
}

// Global and shared loads and stores, [rA+off], [rA-off], [off] addressing, ld.param by name
// and by offset, bar.sync between two warps exchanging data through shared memory, membar.
const char* const kMemoryKernel = R"(
.kernel mem
.regs 10
.shared 264
.param IN
.param OUT
.param SCALE
  s2r r0, %tid.x                 // 0..63, two warps
  shl.b32 r1, r0, 2
  ld.param.b32 r2, [IN]
  add.u32 r2, r2, r1
  ld.global.b32 r3, [r2+4]       // IN[tid + 1]
  ld.global.nc.b32 r4, [r2-0]    // IN[tid], read-only path
  add.u32 r3, r3, r4
  ld.const.b32 r4, [r2+4]        // IN[tid + 1] again, through the constant cache
  add.u32 r3, r3, r4
  st.shared.b32 [r1+8], r3       // shared[tid + 2]
  setp.eq.b32 p0, r0, 0
  mov.b32 r7, 5
  @p0 st.shared.b32 [4], r7      // absolute shared address, read by everybody below
  membar
  bar.sync 0
  xor.b32 r5, r1, 128            // the partner thread in the other warp
  ld.shared.b32 r6, [r5+8]
  ld.shared.b32 r7, [4]          // 5, written by thread 0 before the barrier
  add.u32 r6, r6, r7
  ld.param.b32 r8, [8]           // SCALE by offset
  mul.lo.u32 r6, r6, r8
  bar.sync 1
  ld.param.b32 r9, [OUT]
  add.u32 r9, r9, r1
  st.global.b32 [r9], r6
  exit
)";

TEST(SemanticsInterp, MemoryAndBarrier) {
  std::vector<uint32_t> in(65);
  for (uint32_t i = 0; i < 65; ++i) in[i] = i * i;
  RunResult r = runKernel(kMemoryKernel, {{"IN", in}, {"OUT", std::vector<uint32_t>(64, 0)}},
                          dim(2), dim(64), 32, {3});
  auto o = r["OUT"];
  for (uint32_t t = 0; t < 64; ++t) {
    uint32_t p = t ^ 32;
    EXPECT_EQ(o[t], 3 * (in[p] + 2 * in[p + 1] + 5)) << "tid " << t;
  }
  EXPECT_EQ(r.counts.barriers, 4u);  // two barriers, two blocks
  EXPECT_EQ(r.counts.blocks, 2u);
}

// Local memory: each thread keeps 2 t at word 0 and t + 9 at word 3 (a based and an absolute
// offset), reads them back and writes their sum; warps of 8, so 4 warps and 2 blocks interleave.
const char* const kLocalKernel = R"(
.kernel loc
.local 16
.param OUT
  s2r r0, %ctaid.x
  s2r r1, %ntid.x
  s2r r2, %tid.x
  mad.lo.u32 r0, r0, r1, r2      // t
  add.u32 r3, r0, r0
  mov.b32 r4, 4
  st.local.b32 [r4-4], r3        // word 0
  add.u32 r5, r0, 9
  st.local.b32 [12], r5          // word 3
  ld.local.b32 r6, [0]
  ld.local.b32 r7, [r4+8]
  add.u32 r6, r6, r7
  shl.b32 r1, r0, 2
  ld.param.b32 r8, [OUT]
  add.u32 r8, r8, r1
  st.global.b32 [r8], r6
  exit
)";

TEST(SemanticsInterp, LocalMemoryIsPerThread) {
  RunResult r = runKernel(kLocalKernel, {{"OUT", std::vector<uint32_t>(32, 0)}}, dim(2), dim(16), 8);
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(r["OUT"][t], 3 * t + 9) << "thread " << t;
}

// Special registers in a 3D block and 2D grid with a small warp size.
const char* const kSpecialKernel = R"(
.kernel specials
.regs 20
.param OUT
  s2r r0, %tid.x;   s2r r1, %tid.y;   s2r r2, %tid.z
  s2r r3, %ntid.x;  s2r r4, %ntid.y;  s2r r5, %ntid.z
  s2r r6, %ctaid.x; s2r r7, %ctaid.y; s2r r8, %ctaid.z
  s2r r9, %nctaid.x; s2r r10, %nctaid.y; s2r r11, %nctaid.z
  s2r r12, %laneid; s2r r13, %warpid
  // linear thread id in the grid
  mad.lo.u32 r14, r2, r4, r1
  mad.lo.u32 r14, r14, r3, r0          // tid in block
  mul.lo.u32 r15, r3, r4
  mul.lo.u32 r15, r15, r5              // threads per block
  mad.lo.u32 r16, r7, r9, r6           // block id
  mad.lo.u32 r16, r16, r15, r14        // global id
  mul.lo.u32 r16, r16, 56              // 14 words per thread
  ld.param.b32 r17, [OUT]
  add.u32 r17, r17, r16
  st.global.b32 [r17], r0;     st.global.b32 [r17+4], r1;   st.global.b32 [r17+8], r2
  st.global.b32 [r17+12], r3;  st.global.b32 [r17+16], r4;  st.global.b32 [r17+20], r5
  st.global.b32 [r17+24], r6;  st.global.b32 [r17+28], r7;  st.global.b32 [r17+32], r8
  st.global.b32 [r17+36], r9;  st.global.b32 [r17+40], r10; st.global.b32 [r17+44], r11
  st.global.b32 [r17+48], r12; st.global.b32 [r17+52], r13
  exit
)";

TEST(SemanticsInterp, Specials) {
  const uint32_t bx = 3, by = 2, bz = 2, gx = 2, gy = 3, warp = 8;
  const uint32_t perBlock = bx * by * bz, total = perBlock * gx * gy;
  RunResult r = runKernel(kSpecialKernel, {{"OUT", std::vector<uint32_t>(14 * total, 0)}},
                          dim(gx, gy), dim(bx, by, bz), warp);
  auto o = r["OUT"];
  for (uint32_t cy = 0; cy < gy; ++cy)
    for (uint32_t cx = 0; cx < gx; ++cx)
      for (uint32_t t = 0; t < perBlock; ++t) {
        uint32_t g = (cy * gx + cx) * perBlock + t;
        std::vector<uint32_t> got(o.begin() + 14 * g, o.begin() + 14 * g + 14);
        std::vector<uint32_t> want = {t % bx, (t / bx) % by, t / (bx * by), bx, by, bz, cx, cy, 0,
                                      gx, gy, 1, t % warp, t / warp};
        EXPECT_EQ(got, want) << "block (" << cx << "," << cy << ") thread " << t;
      }
  EXPECT_EQ(r.counts.warps, gx * gy * ((perBlock + warp - 1) / warp));
}

// bar.sync rules: a diverged warp at bar.sync is an error, and so is a barrier that some warp of
// the block never reaches.
const char* const kDivergedBarrierKernel = R"(
.kernel divbar
  s2r r0, %tid.x
  setp.lt.u32 p0, r0, 4
  @p0 bra SKIP
  bar.sync 0
SKIP:
  exit
)";

const char* const kMissedBarrierKernel = R"(
.kernel missbar
  s2r r0, %warpid
  setp.eq.b32 p0, r0, 1
  @p0 exit                   // warp 1 leaves: warp 0 waits forever
  bar.sync 0
  exit
)";

TEST(SemanticsInterp, BarrierErrors) {
  EXPECT_THROW(runKernel(kDivergedBarrierKernel, {}, dim(1), dim(32)), simtlm::ExecError);
  EXPECT_THROW(runKernel(kMissedBarrierKernel, {}, dim(1), dim(64)), simtlm::ExecError);
  try {
    runKernel(kDivergedBarrierKernel, {}, dim(1), dim(32));
  } catch (const simtlm::ExecError& e) {
    EXPECT_NE(std::string(e.what()).find("diverged"), std::string::npos) << e.what();
  }
  try {
    runKernel(kMissedBarrierKernel, {}, dim(1), dim(64));
  } catch (const simtlm::ExecError& e) {
    EXPECT_NE(std::string(e.what()).find("deadlock"), std::string::npos) << e.what();
  }
}

}  // namespace simtlm::test
