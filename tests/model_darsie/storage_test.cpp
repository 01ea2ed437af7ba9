// DARSIE storage accounting (model/mechanisms/darsie/storage.h) against DARSIE Sec. 6.3 and a hand count.
#include <gtest/gtest.h>

#include "model/mechanisms/darsie/storage.h"

namespace simtlm::darsie {
namespace {

// The paper's machine: 32 TBs per SM, 8 skip entries and 32 rename entries per TB, 32-wide
// warps (32 warps per 1024-thread TB), 48-bit PC. These are the built-in (Pascal) defaults.
config::GpuConfig paperConfig() {
  config::GpuConfig c;
  c.gpu.warp_size = 32;
  c.sm.max_blocks = 32;
  c.sm.num_warps = 64;
  c.darsie.skip_entries = 8;
  c.darsie.rename_regs = 32;
  return c;
}

TEST(DarsieStorage, ReproducesPaperSection63) {
  const DarsieStorage s = computeStorage(paperConfig());
  EXPECT_EQ(s.maxTbs, 32);
  EXPECT_EQ(s.warpsPerTb, 32);
  // PC skip table: 8 x 32 = 256 entries of 48 + 32 + 1 + 1 = 82 bits. The paper prints
  // "20092 bits (2624 bytes)"; 256 x 82 = 20992 bits = 2624 bytes, so 20092 is a typo.
  EXPECT_EQ(s.skipTableEntries, 256u);
  EXPECT_EQ(s.skipTableEntryBits, 82u);
  EXPECT_EQ(s.skipTableBits, 20992u);
  EXPECT_EQ(s.skipTableBits / 8, 2624u);
  // Majority-path masks: 32 x 32 = 1024 bits (128 bytes).
  EXPECT_EQ(s.majorityMaskEntries, 32u);
  EXPECT_EQ(s.majorityMaskEntryBits, 32u);
  EXPECT_EQ(s.majorityMaskBits, 1024u);
  // Rename/version tables: 21 x 32 x 32 = 21504 bits (2688 bytes).
  EXPECT_EQ(s.renameEntries, 1024u);
  EXPECT_EQ(s.renameEntryBits, 21u);
  EXPECT_EQ(s.renameBits, 21504u);
  EXPECT_EQ(s.renameBits / 8, 2688u);
  // Total: 2624 + 128 + 2688 = 5440 bytes = 5.3125 kB ("5.31 kB").
  EXPECT_EQ(s.totalBits, 43520u);
  EXPECT_DOUBLE_EQ(s.totalBytes(), 5440.0);
  EXPECT_DOUBLE_EQ(s.totalKiB(), 5.3125);
}

TEST(DarsieStorage, DefaultConfigIsThePapers) {
  EXPECT_EQ(computeStorage(config::GpuConfig{}).totalBits, 43520u);
}

TEST(DarsieStorage, RowsListTheThreeStructures) {
  const auto rows = computeStorage(paperConfig()).rows();
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].name, "PC skip table");
  EXPECT_EQ(rows[0].entries, 256u);
  EXPECT_EQ(rows[0].bitsPerEntry, 82u);
  EXPECT_EQ(rows[0].bits, 20992u);
  EXPECT_EQ(rows[1].name, "majority-path masks");
  EXPECT_EQ(rows[1].bits, 1024u);
  EXPECT_EQ(rows[2].name, "rename/version tables");
  EXPECT_EQ(rows[2].bits, 21504u);
}

// configs/tiny.ini's SM (16 warps, 8 TBs) with 4 skip and 16 rename entries per TB, by hand:
//   warps per TB = min(1024 / 32, 16) = 16
//   skip table   4 x 8 = 32 entries x (48 + 16 + 1 + 1 = 66) = 2112 bits (264 bytes)
//   masks        8 x 16                                       =  128 bits ( 16 bytes)
//   rename      16 x 8 = 128 entries x (8 + 8 + 5 = 21)       = 2688 bits (336 bytes)
//   total                                                     = 4928 bits (616 bytes = 0.6015625 kB)
TEST(DarsieStorage, SmallSmByHand) {
  config::GpuConfig c;
  c.sm.num_warps = 16;
  c.sm.max_blocks = 8;
  c.darsie.skip_entries = 4;
  c.darsie.rename_regs = 16;
  const DarsieStorage s = computeStorage(c);
  EXPECT_EQ(s.warpsPerTb, 16);
  EXPECT_EQ(s.skipTableEntries, 32u);
  EXPECT_EQ(s.skipTableEntryBits, 66u);
  EXPECT_EQ(s.skipTableBits, 2112u);
  EXPECT_EQ(s.majorityMaskBits, 128u);
  EXPECT_EQ(s.renameEntries, 128u);
  EXPECT_EQ(s.renameBits, 2688u);
  EXPECT_EQ(s.totalBits, 4928u);
  EXPECT_DOUBLE_EQ(s.totalBytes(), 616.0);
  EXPECT_DOUBLE_EQ(s.totalKiB(), 0.6015625);
}

// Designer widths: 32-bit PC, 6 + 7 + 3 = 16-bit rename entries, warp size 8 (1024 / 8 = 128
// warps per TB, capped at sm.num_warps = 48), 2 TBs, 3 skip and 5 rename entries per TB:
//   skip table   3 x 2 = 6 entries x (32 + 48 + 1 + 1 = 82) = 492 bits (61.5 bytes)
//   masks        2 x 48                                     =  96 bits
//   rename       5 x 2 = 10 entries x 16                    = 160 bits
//   total                                                   = 748 bits (93.5 bytes)
TEST(DarsieStorage, DesignerWidthsAndSmallWarps) {
  config::GpuConfig c;
  c.gpu.warp_size = 8;
  c.sm.num_warps = 48;
  c.sm.max_blocks = 2;
  c.darsie.skip_entries = 3;
  c.darsie.rename_regs = 5;
  StorageParams p;
  p.pcBits = 32;
  p.namedRegBits = 6;
  p.physTagBits = 7;
  p.versionBits = 3;
  const DarsieStorage s = computeStorage(c, p);
  EXPECT_EQ(s.warpsPerTb, 48);
  EXPECT_EQ(s.skipTableBits, 492u);
  EXPECT_EQ(s.majorityMaskBits, 96u);
  EXPECT_EQ(s.renameEntryBits, 16u);
  EXPECT_EQ(s.renameBits, 160u);
  EXPECT_EQ(s.totalBits, 748u);
  EXPECT_DOUBLE_EQ(s.totalBytes(), 93.5);
  // An explicit warps-per-TB below the cap is taken as is.
  p.maxWarpsPerTb = 20;
  EXPECT_EQ(computeStorage(c, p).majorityMaskBits, 40u);
}

TEST(DarsieStorage, ZeroRenameRegistersCostNothing) {
  config::GpuConfig c;
  c.darsie.rename_regs = 0;
  const DarsieStorage s = computeStorage(c);
  EXPECT_EQ(s.renameBits, 0u);
  EXPECT_EQ(s.totalBits, 20992u + 1024u);
}

TEST(DarsieStorage, RejectsBadWidths) {
  StorageParams p;
  p.pcBits = 0;
  EXPECT_THROW(computeStorage(config::GpuConfig{}, p), std::invalid_argument);
  p = {};
  p.versionBits = 65;
  EXPECT_THROW(computeStorage(config::GpuConfig{}, p), std::invalid_argument);
  p = {};
  p.maxWarpsPerTb = -1;
  EXPECT_THROW(computeStorage(config::GpuConfig{}, p), std::invalid_argument);
}

TEST(DarsieStorage, FormatsTheTable) {
  const std::string t = formatStorage(computeStorage(paperConfig()));
  EXPECT_NE(t.find("PC skip table               256          82      20992       2624"), std::string::npos) << t;
  EXPECT_NE(t.find("5.3125 kB"), std::string::npos) << t;
  const nlohmann::json j = toJson(computeStorage(paperConfig()));
  EXPECT_EQ(j["total"]["bits"], 43520);
  EXPECT_EQ(j["structures"][2]["bits"], 21504);
}

}  // namespace
}  // namespace simtlm::darsie
