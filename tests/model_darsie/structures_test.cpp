// DARSIE's structures in isolation: the rename pool's versions, references and freelist, the
// skip table's lookup and eviction order, the value taxonomy, and launch-time marking.
#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "isa/cfg.h"
#include "isa/darsie_analysis.h"
#include "model/mechanisms/darsie/launch_marking.h"
#include "model/mechanisms/darsie/rename_pool.h"
#include "model/mechanisms/darsie/skip_table.h"

using namespace simtlm;
using darsie::RenamePool;
using darsie::SkipTable;
using darsie::ValueKind;

TEST(RenamePool, VersionsAreReleasedWhenNothingRefersToThem) {
  RenamePool pool(2, 4, 3, 8);
  const int v1 = pool.take(5);  // the entry's reference
  EXPECT_EQ(pool.freeCount(), 1);
  EXPECT_EQ(pool.regOf(v1), 5);
  EXPECT_EQ(pool.versionOf(v1), 0);
  pool.map(0, 5, v1);  // leader
  pool.map(1, 5, v1);  // follower
  EXPECT_FALSE(pool.release(v1));  // entry gone, two warps still map it
  const int v2 = pool.take(5);
  EXPECT_EQ(pool.versionOf(v2), 1);  // the second write of r5 in this block
  EXPECT_EQ(pool.take(6), -1);       // freelist empty
  pool.map(0, 5, v2);                // warp 0 moves to the new version
  EXPECT_EQ(pool.mapped(0, 5), v2);
  EXPECT_EQ(pool.unmap(1, 5), v1);   // last reference to v1: back on the freelist
  EXPECT_EQ(pool.freeCount(), 1);
  EXPECT_EQ(pool.versionsReleased(), 1u);
  EXPECT_EQ(pool.mappedMask(0), uint64_t{1} << 5);
  EXPECT_EQ(pool.mappedMask(1), 0u);
}

TEST(RenamePool, RowsHoldValuesPerRegister) {
  RenamePool pool(2, 4, 1, 4);
  const int a = pool.take(0), b = pool.take(1);
  pool.row(a)[3] = 7;
  pool.row(b)[0] = 9;
  EXPECT_EQ(pool.row(a)[3], 7u);
  EXPECT_EQ(pool.row(b)[0], 9u);
  EXPECT_NE(pool.row(a), pool.row(b));
}

TEST(RenamePool, ReleasingAFreeRegisterIsALogicError) {
  RenamePool pool(1, 4, 1, 4);
  const int a = pool.take(0);
  EXPECT_TRUE(pool.release(a));
  EXPECT_THROW(pool.release(a), std::logic_error);
}

TEST(SkipTable, FindsLiveEntriesAndEvictsTheOldestIdleOne) {
  SkipTable t(3);
  for (int i = 0; i < 3; ++i) {
    const int s = t.freeSlot();
    ASSERT_EQ(s, i);
    t[s].valid = true;
    t[s].pc = 0x100 + 8 * static_cast<uint32_t>(i);
    t[s].created = static_cast<uint64_t>(10 - i);  // slot 2 is the oldest
    t[s].leaderWB = true;
  }
  EXPECT_EQ(t.freeSlot(), -1);
  EXPECT_EQ(t.find(0x108), 1);
  EXPECT_EQ(t.find(0x200), -1);
  EXPECT_EQ(t.occupancy(), 3);
  EXPECT_EQ(t.evictable(), 2);
  t[2].pendingSkips = 1;  // a follower's skip still refers to it
  EXPECT_EQ(t.evictable(), 1);
  t[1].leaderWB = false;  // followers wait for its leader
  t[0].waiting = 1;       // a synchronization point in progress
  EXPECT_EQ(t.evictable(), -1);
  t[0].stale = true;  // left over from before a barrier: never found again
  EXPECT_EQ(t.find(0x100), -1);
}

TEST(ValueKind, ClassifiesUniformAffineAndUnstructured) {
  const uint32_t u[4] = {3, 3, 3, 3}, a[4] = {4, 8, 12, 16}, g[4] = {1, 5, 2, 9};
  EXPECT_EQ(darsie::classify(u, 4), ValueKind::Uniform);
  EXPECT_EQ(darsie::classify(a, 4), ValueKind::Affine);
  EXPECT_EQ(darsie::classify(g, 4), ValueKind::Unstructured);
}

namespace {

// r1 = tid.x * 4 (CR on x), r2 = ctaid.x + 1 (DR), r3 = tid.y + r1 (CR on x,y), r4 = warpid (V).
isa::Kernel markedKernel() {
  isa::Kernel k = isa::assemble(
      ".kernel marking\n"
      ".regs 8\n"
      "s2r r0, %tid.x\n"
      "shl.b32 r1, r0, 2\n"
      "s2r r5, %ctaid.x\n"
      "add.u32 r2, r5, 1\n"
      "s2r r6, %tid.y\n"
      "add.u32 r3, r6, r1\n"
      "s2r r4, %warpid\n"
      "st.global.b32 [r2], r3\n"
      "exit\n",
      "marking.s");
  isa::applyStaticHints(k, isa::markRedundancy(k, isa::Cfg(k)));
  return k;
}

}  // namespace

TEST(LaunchMarking, PromotesByBlockShape) {
  const isa::Kernel k = markedKernel();
  // 2D block 16x2: x divides 32 and x*y divides 32: tid.x and tid.y values repeat per warp.
  auto m = darsie::markForLaunch(k, {16, 2, 1}, 32, true);
  EXPECT_EQ(m.skippable, (std::vector<uint8_t>{1, 1, 1, 1, 1, 1, 0, 0, 0}));
  // Without the tid.y generalization (the paper), tid.y values are vector.
  m = darsie::markForLaunch(k, {16, 2, 1}, 32, false);
  EXPECT_EQ(m.skippable, (std::vector<uint8_t>{1, 1, 1, 1, 0, 0, 0, 0, 0}));
  // x = 24 does not divide the warp: only definitely redundant values are skipped.
  m = darsie::markForLaunch(k, {24, 2, 1}, 32, true);
  EXPECT_EQ(m.skippable, (std::vector<uint8_t>{0, 0, 1, 1, 0, 0, 0, 0, 0}));
  // 1D block of 256: tid.x differs between warps; tid.y is 0 everywhere, hence redundant.
  m = darsie::markForLaunch(k, {256, 1, 1}, 32, true);
  EXPECT_EQ(m.skippable, (std::vector<uint8_t>{0, 0, 1, 1, 1, 0, 0, 0, 0}));
  // 3D block 8x2x2 = 32 threads: every component repeats.
  m = darsie::markForLaunch(k, {8, 2, 2}, 32, true);
  EXPECT_EQ(m.skippableCount, 6u);
}

TEST(LaunchMarking, BinaryWithoutHintsSkipsNothing) {
  isa::Kernel k = markedKernel();
  for (auto& in : k.instrs) in.darsie = isa::Redundancy::Vector;
  EXPECT_EQ(darsie::markForLaunch(k, {16, 2, 1}, 32, true).skippableCount, 0u);
}
