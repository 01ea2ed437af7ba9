// WarpContext: the per-warp functional core shared by the interpreter and the timing model.
#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "isa/cfg.h"
#include "isa/warp.h"

using namespace simtlm::isa;

TEST(WarpContext, SplitMemoryExecutionAndDivergence) {
  Kernel k = assemble(R"(
.kernel w
  s2r r0, %laneid
  shl.b32 r1, r0, 2
  ld.global.b32 r2, [r1+256]
  setp.lt.u32 p0, r0, 3
  @p0 bra low
  add.u32 r3, r0, 100
low:
  exit
)", "w.s");
  LaunchConfig l;
  l.block = {6, 1, 1};
  l.warpSize = 8;
  WarpContext w(k, l, {0, 0, 0}, 0);
  EXPECT_EQ(w.liveMask(), 0x3Fu);  // six threads in an 8-wide warp
  w.executeAlu(k.instrs[0], w.execMask(k.instrs[0]));
  w.advance(k.instrs[0], w.execMask(k.instrs[0]), Cfg::kNoReconvergence);
  w.executeAlu(k.instrs[1], w.execMask(k.instrs[1]));
  w.advance(k.instrs[1], w.execMask(k.instrs[1]), Cfg::kNoReconvergence);
  // The load is split: addresses now, data whenever the memory system returns it.
  uint32_t addr[32] = {};
  w.addresses(k.instrs[2], w.execMask(k.instrs[2]), addr);
  for (uint32_t l2 = 0; l2 < 6; ++l2) EXPECT_EQ(addr[l2], 256 + 4 * l2);
  uint32_t data[32] = {};
  for (int i = 0; i < 8; ++i) data[i] = 1000 + i;
  w.writeLanes(k.instrs[2].d, data, w.execMask(k.instrs[2]));
  EXPECT_EQ(w.reg(2)[5], 1005u);
  EXPECT_EQ(w.reg(2)[6], 0u);  // lanes that do not exist are not written
  w.advance(k.instrs[2], w.execMask(k.instrs[2]), Cfg::kNoReconvergence);
  w.executeAlu(k.instrs[3], w.execMask(k.instrs[3]));
  EXPECT_EQ(w.pred(0), 0x07u);
  w.advance(k.instrs[3], w.execMask(k.instrs[3]), Cfg::kNoReconvergence);
  // Divergent branch at PC 32, reconverging at `low` (PC 48). The taken lanes 0-2 jump
  // straight to the reconvergence point, so their entry is popped at once and the not-taken
  // lanes 3-5 run the `add` at PC 40 next; below them waits the reconverged entry.
  EXPECT_TRUE(w.advance(k.instrs[4], w.execMask(k.instrs[4]), 48));
  EXPECT_EQ(w.pc(), 40u);
  EXPECT_EQ(w.activeMask(), 0x38u);
  ASSERT_EQ(w.stack().size(), 2u);
  EXPECT_EQ(w.stack()[0].pc, 48u);
  EXPECT_EQ(w.stack()[0].mask, 0x3Fu);
  w.executeAlu(k.instrs[5], w.execMask(k.instrs[5]));
  EXPECT_EQ(w.reg(3)[4], 104u);
  EXPECT_EQ(w.reg(3)[1], 0u);
  EXPECT_FALSE(w.advance(k.instrs[5], w.execMask(k.instrs[5]), 48));
  EXPECT_EQ(w.pc(), 48u);
  EXPECT_EQ(w.activeMask(), 0x3Fu);  // reconverged
  w.advance(k.instrs[6], w.execMask(k.instrs[6]), Cfg::kNoReconvergence);
  EXPECT_TRUE(w.done());
}
