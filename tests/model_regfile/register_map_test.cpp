// RegisterMap: base + length allocation, first fit, exhaustion, bank mapping.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

#include "model/common/config.h"
#include "model/common/stats.h"
#include "model/regfile/register_map.h"

using namespace simtlm;
using namespace simtlm::regfile;

TEST(RegisterMap, BankMappings) {
  EXPECT_EQ(bankOf(PhysReg{0}, 32, BankMapping::Interleaved), BankId{0});
  EXPECT_EQ(bankOf(PhysReg{33}, 32, BankMapping::Interleaved), BankId{1});
  EXPECT_EQ(bankOf(PhysReg{33}, 32, BankMapping::Skewed), BankId{2});  // (33 + 1) % 32
  EXPECT_EQ(bankOf(PhysReg{63}, 32, BankMapping::Skewed), BankId{0});  // (63 + 1) % 32
  EXPECT_EQ(bankOf(PhysReg{95}, 32, BankMapping::Skewed), BankId{1});  // (95 + 2) % 32
  EXPECT_EQ(kDefaultBankMapping, BankMapping::Skewed);
  // Each row of `banks` registers occupies every bank once, under both mappings.
  for (BankMapping m : {BankMapping::Interleaved, BankMapping::Skewed})
    for (uint32_t row = 0; row < 5; ++row) {
      std::set<uint32_t> seen;
      for (uint32_t p = row * 8; p < row * 8 + 8; ++p) seen.insert(index(bankOf(PhysReg{p}, 8, m)));
      EXPECT_EQ(seen.size(), 8u);
    }
  EXPECT_EQ(bankMappingByName("interleaved"), BankMapping::Interleaved);
  EXPECT_EQ(bankMappingByName("skewed"), BankMapping::Skewed);
  EXPECT_FALSE(bankMappingByName("xor").has_value());
  EXPECT_EQ(bankMappingName(BankMapping::Skewed), "skewed");
}

TEST(RegisterMap, SkewedIsWarpOffsetWhenRegistersFillRows) {
  // 32 registers per warp in 32 banks: warp w's rN is in bank (N + w) % 32.
  RegisterMap m(2048, 64, 32);
  std::vector<uint32_t> warps;
  for (uint32_t w = 0; w < 8; ++w) warps.push_back(w);
  ASSERT_TRUE(m.allocateBlock(warps, 32));
  for (uint32_t w = 0; w < 8; ++w)
    for (uint32_t r = 0; r < 32; ++r) EXPECT_EQ(m.bank(w, r), BankId{(r + w) % 32});
  RegisterMap plain(2048, 64, 32, BankMapping::Interleaved);
  ASSERT_TRUE(plain.allocateBlock(warps, 32));
  for (uint32_t w = 0; w < 8; ++w) EXPECT_EQ(plain.bank(w, 5), BankId{5});  // all in one bank
}

TEST(RegisterMap, BaseAndLengthFirstFit) {
  RegisterMap m(64, 8, 4, BankMapping::Interleaved);
  ASSERT_TRUE(m.allocateBlock({0, 1}, 10));
  EXPECT_EQ(m.base(0), 0u);
  EXPECT_EQ(m.base(1), 10u);
  EXPECT_EQ(m.length(1), 10u);
  EXPECT_EQ(m.phys(1, 3), PhysReg{13});
  EXPECT_EQ(m.bank(1, 3), BankId{1});
  ASSERT_TRUE(m.allocate(2, 20));
  EXPECT_EQ(m.base(2), 20u);
  m.free(1);  // hole [10, 20)
  EXPECT_FALSE(m.allocated(1));
  ASSERT_TRUE(m.allocate(3, 12));  // does not fit the hole
  EXPECT_EQ(m.base(3), 40u);
  ASSERT_TRUE(m.allocate(4, 8));  // first fit: the hole
  EXPECT_EQ(m.base(4), 10u);
  EXPECT_EQ(m.freeRegs(), 64u - 10 - 20 - 12 - 8);
  for (uint32_t w : {0u, 2u, 3u, 4u}) m.free(w);
  EXPECT_EQ(m.freeRegs(), 64u);
  EXPECT_EQ(m.largestFreeRange(), 64u);  // neighbours merged
  ASSERT_TRUE(m.allocate(5, 64));
  EXPECT_EQ(m.base(5), 0u);
}

TEST(RegisterMap, ExhaustionIsAllOrNothing) {
  RegisterMap m(64, 8, 4);
  stats::Registry reg;
  m.registerStats(stats::Group(reg, "sm0.regmap"));
  ASSERT_TRUE(m.allocate(0, 30));
  EXPECT_TRUE(m.canAllocate(1, 34));
  EXPECT_FALSE(m.canAllocate(2, 20));
  EXPECT_FALSE(m.allocateBlock({1, 2}, 20));  // 40 needed, 34 free
  EXPECT_FALSE(m.allocated(1));
  EXPECT_FALSE(m.allocated(2));
  EXPECT_EQ(m.freeRegs(), 34u);
  ASSERT_TRUE(m.allocateBlock({1}, 20));
  EXPECT_EQ(*reg.value("sm0.regmap.allocations"), 2.0);
  EXPECT_EQ(*reg.value("sm0.regmap.alloc_failures"), 1.0);
  EXPECT_EQ(*reg.value("sm0.regmap.peak_used"), 50.0);
}

TEST(RegisterMap, FragmentedSpaceNeedsAContiguousRange) {
  RegisterMap m(40, 4, 4);
  ASSERT_TRUE(m.allocateBlock({0, 1, 2, 3}, 10));
  m.free(0);
  m.free(2);
  EXPECT_EQ(m.freeRegs(), 20u);
  EXPECT_EQ(m.largestFreeRange(), 10u);
  EXPECT_FALSE(m.allocate(0, 15));
  EXPECT_TRUE(m.allocateBlock({0, 2}, 10));
  EXPECT_EQ(m.freeRegs(), 0u);
}

TEST(RegisterMap, MisuseThrows) {
  RegisterMap m(64, 4, 4);
  ASSERT_TRUE(m.allocate(0, 8));
  EXPECT_THROW(m.phys(0, 8), std::out_of_range);
  EXPECT_THROW(m.phys(1, 0), std::out_of_range);  // no registers
  EXPECT_THROW(m.phys(4, 0), std::out_of_range);  // no such slot
  EXPECT_THROW(m.allocate(0, 8), std::invalid_argument);  // already holds some
  EXPECT_THROW(m.allocateBlock({1, 1}, 8), std::invalid_argument);
  EXPECT_THROW(m.allocate(1, 0), std::invalid_argument);
  EXPECT_THROW(m.allocate(1, 65), std::invalid_argument);
  EXPECT_FALSE(m.allocated(1));
  m.free(3);  // nothing to free: no-op
  EXPECT_EQ(m.freeRegs(), 56u);
}

TEST(RegisterMap, FromConfig) {
  config::GpuConfig c;  // Pascal defaults: 65536 registers / 32 lanes = 2048 warp registers
  RegisterMap m = RegisterMap::fromConfig(c);
  EXPECT_EQ(m.physRegs(), 2048u);
  EXPECT_EQ(m.banks(), 32u);
  std::vector<uint32_t> all;
  for (uint32_t w = 0; w < 64; ++w) all.push_back(w);
  EXPECT_TRUE(m.allocateBlock(all, 32));  // 64 warps x 32 registers fill the file exactly
  EXPECT_EQ(m.freeRegs(), 0u);
}
