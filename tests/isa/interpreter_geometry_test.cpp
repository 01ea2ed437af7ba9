// The golden functional interpreter: thread geometry. Every special register of every thread
// in 1D, 2D and 3D grids and blocks, with partial last warps and several warp sizes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "tests/isa/test_support.h"

using namespace simtlm;
using namespace simtlm::isa;
using namespace simtlm::test;

namespace {
// Each thread writes its 14 special registers, its linear thread id and its global id to
// OUT[g * 16 ...].
const char* kSpecials = R"(
.kernel specials
.param OUT
  s2r r0, %tid.x
  s2r r1, %tid.y
  s2r r2, %tid.z
  s2r r3, %ntid.x
  s2r r4, %ntid.y
  s2r r5, %ntid.z
  s2r r6, %ctaid.x
  s2r r7, %ctaid.y
  s2r r8, %ctaid.z
  s2r r9, %nctaid.x
  s2r r10, %nctaid.y
  s2r r11, %nctaid.z
  s2r r12, %laneid
  s2r r13, %warpid
  mad.lo.u32 r14, r4, r2, r1     // tid.y + ntid.y * tid.z
  mad.lo.u32 r14, r3, r14, r0    // t
  mad.lo.u32 r15, r10, r8, r7
  mad.lo.u32 r15, r9, r15, r6    // linear block
  mul.lo.u32 r16, r3, r4
  mul.lo.u32 r16, r16, r5
  mad.lo.u32 r16, r15, r16, r14  // g
  shl.b32 r17, r16, 6
  ld.param.b32 r18, [OUT]
  add.u32 r18, r18, r17
  st.global.b32 [r18], r0
  st.global.b32 [r18+4], r1
  st.global.b32 [r18+8], r2
  st.global.b32 [r18+12], r3
  st.global.b32 [r18+16], r4
  st.global.b32 [r18+20], r5
  st.global.b32 [r18+24], r6
  st.global.b32 [r18+28], r7
  st.global.b32 [r18+32], r8
  st.global.b32 [r18+36], r9
  st.global.b32 [r18+40], r10
  st.global.b32 [r18+44], r11
  st.global.b32 [r18+48], r12
  st.global.b32 [r18+52], r13
  st.global.b32 [r18+56], r14
  st.global.b32 [r18+60], r16
  exit
)";

void checkSpecials(Dim3 grid, Dim3 block, uint32_t ws) {
  SCOPED_TRACE("grid " + grid.str() + " block " + block.str() + " warp " + std::to_string(ws));
  Kernel k = assemble(kSpecials);
  GlobalMemory mem;
  uint32_t T = static_cast<uint32_t>(block.count());
  uint32_t total = static_cast<uint32_t>(grid.count()) * T;
  // Exactly sized: a phantom lane of the last partial warp would write past the end and fault.
  uint32_t out = mem.allocate("out", total * 64);
  Recorder rec;
  ExecCounts c = Interpreter(k, mem).run(launch(grid, block, {out}, ws), &rec);
  Words w = mem.words("out");
  uint32_t warpsPerBlock = (T + ws - 1) / ws;
  for (uint32_t bz = 0; bz < grid.z; ++bz)
    for (uint32_t by = 0; by < grid.y; ++by)
      for (uint32_t bx = 0; bx < grid.x; ++bx)
        for (uint32_t t = 0; t < T; ++t) {
          uint32_t b = bx + grid.x * (by + grid.y * bz);
          uint32_t g = b * T + t;
          Words expect = {t % block.x, (t / block.x) % block.y, t / (block.x * block.y),
                          block.x, block.y, block.z, bx, by, bz, grid.x, grid.y, grid.z,
                          t % ws, t / ws, t, g};
          Words got(w.begin() + g * 16, w.begin() + g * 16 + 16);
          ASSERT_EQ(got, expect) << "block (" << bx << "," << by << "," << bz << ") thread " << t;
        }
  EXPECT_EQ(c.blocks, grid.count());
  EXPECT_EQ(c.warps, grid.count() * warpsPerBlock);
  EXPECT_EQ(c.threads, total);
  EXPECT_EQ(c.warpInstructions, c.warps * k.size());
  EXPECT_EQ(c.threadInstructions, uint64_t{total} * k.size());
  EXPECT_EQ(c.divergentBranches, 0u);
  // Every step of a warp issues exactly the lanes that exist.
  for (const auto& s : rec.steps) {
    uint32_t lanes = std::min(ws, T - s.warp * ws);
    uint32_t m = lanes == 32 ? 0xFFFFFFFFu : (1u << lanes) - 1;
    ASSERT_EQ(s.warpMask, m) << "warp " << s.warp;
    ASSERT_EQ(s.active, m) << "warp " << s.warp;
  }
  EXPECT_EQ(rec.blockStarts, static_cast<int>(grid.count()));
  EXPECT_EQ(rec.blockEnds, static_cast<int>(grid.count()));
  EXPECT_EQ(rec.launches, 1);
  EXPECT_EQ(rec.gridEnds, 1);
  for (uint32_t nw : rec.warpsPerBlock) EXPECT_EQ(nw, warpsPerBlock);
}
}  // namespace

TEST(InterpGeometry, OneDimensionalWithPartialLastWarp) {
  checkSpecials({3}, {40}, 32);  // 32 + 8 lanes
  checkSpecials({1}, {40}, 8);
  checkSpecials({2}, {40}, 4);
  checkSpecials({1}, {1}, 32);   // a single thread
  checkSpecials({2}, {33}, 32);  // a last warp of one lane
}

TEST(InterpGeometry, TwoDimensional) {
  checkSpecials({2, 3}, {4, 5}, 8);   // warps span rows; last warp has 4 lanes
  checkSpecials({3, 2}, {16, 4}, 32);
  checkSpecials({1, 2}, {7, 3}, 4);
}

TEST(InterpGeometry, ThreeDimensional) {
  checkSpecials({2, 2, 2}, {3, 2, 4}, 4);
  checkSpecials({1, 1, 3}, {4, 4, 4}, 32);
  checkSpecials({2, 1, 2}, {5, 3, 3}, 8);  // 45 threads: last warp of 5 lanes
}

TEST(InterpGeometry, WarpSizeOne) {
  checkSpecials({1}, {5}, 1);
}
