// Coalescer::coalesceStrided (transactions from base and stride, no address compared) against
// coalesce() on the same addresses: exact equality over random bases, strides, masks, sizes and
// segments, plus the unit's strided entry point (same queue, separate statistics). Pure C++.
#include "model/mem/coalescer.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

using simtlm::mem::Coalescer;
using simtlm::mem::MemTransaction;

namespace {

Coalescer make(simtlm::stats::Registry& reg, unsigned segment, unsigned warp,
               std::vector<MemTransaction>* issued = nullptr) {
  return Coalescer(Coalescer::Config{segment, warp, 1},
                   [issued](const MemTransaction& t, std::uint64_t) {
                     if (issued) issued->push_back(t);
                     return true;
                   },
                   simtlm::stats::Group(reg, "sm0.coalescer"));
}

std::vector<MemTransaction> byAddresses(const Coalescer& c, std::uint32_t base, std::uint32_t stride,
                                        std::uint32_t mask, unsigned size) {
  std::uint64_t a[32];
  for (unsigned l = 0; l < 32; ++l) a[l] = base + stride * l;  // 32-bit arithmetic, as the lanes
  std::vector<MemTransaction> out;
  c.coalesce(a, mask, size, out);
  return out;
}

void expectSame(const std::vector<MemTransaction>& want, const std::vector<MemTransaction>& got,
                const std::string& what) {
  ASSERT_EQ(want.size(), got.size()) << what;
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(want[i].address, got[i].address) << what << " #" << i;
    EXPECT_EQ(want[i].lanes, got[i].lanes) << what << " #" << i;
    EXPECT_EQ(want[i].begin, got[i].begin) << what << " #" << i;
    EXPECT_EQ(want[i].end, got[i].end) << what << " #" << i;
    EXPECT_EQ(want[i].units, got[i].units) << what << " #" << i;
  }
}

TEST(CoalescerStrided, EqualsCoalesceOnRandomAccesses) {
  std::mt19937 rng(18);
  const unsigned segments[] = {32, 128, 512};
  const unsigned sizes[] = {1, 2, 4, 8, 32};
  const std::int64_t strides[] = {0, 4, -4, 8, -8, 12, 16, 128, 256, -128, 1, 2, 3, 6, 0x7FFFFFFC, -0x7FFFFFFC};
  for (int n = 0; n < 20000; ++n) {
    const unsigned seg = segments[rng() % 3], warp = rng() % 4 == 0 ? 16 : 32;
    unsigned size = sizes[rng() % 5];
    if (size > seg) size = 4;
    std::uint32_t base = rng();
    if (rng() % 2) base &= ~(size - 1);                               // usually aligned
    if (rng() % 8 == 0) base = rng() % 2 ? 0xFFFFFF00u + base % 256 : base % 256;  // near the ends
    std::uint32_t stride = rng() % 4 == 0 ? static_cast<std::uint32_t>(rng())
                                          : static_cast<std::uint32_t>(strides[rng() % std::size(strides)]);
    if (rng() % 3 == 0) stride &= ~(size - 1);
    const unsigned m = rng() % 4;
    const std::uint32_t mask = m == 0 ? ~0u : m == 1 ? static_cast<std::uint32_t>(rng()) : m == 2 ? 1u << (rng() % 32) : 0u;
    simtlm::stats::Registry reg;
    const Coalescer c = make(reg, seg, warp);
    std::vector<MemTransaction> got;
    c.coalesceStrided(base, stride, mask, size, got);
    expectSame(byAddresses(c, base, stride, mask, size), got,
               "base " + std::to_string(base) + " stride " + std::to_string(static_cast<std::int32_t>(stride)) +
                   " mask " + std::to_string(mask) + " size " + std::to_string(size) + " seg " + std::to_string(seg) +
                   " warp " + std::to_string(warp));
    if (HasFailure()) return;
  }
}

// Hand-derived cases: 32 lanes of 8-byte stride are 256 bytes, two 128-byte segments; stride 0
// is one word; a negative stride lists segments in ascending address order.
TEST(CoalescerStrided, HandDerivedCases) {
  simtlm::stats::Registry reg;
  const Coalescer c = make(reg, 128, 32);
  std::vector<MemTransaction> t;
  c.coalesceStrided(0x1000, 8, ~0u, 4, t);
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].address, 0x1000u);
  EXPECT_EQ(t[0].lanes, 0xFFFFu);
  EXPECT_EQ(t[0].units, 16u);
  EXPECT_EQ(t[1].lanes, 0xFFFF0000u);
  EXPECT_EQ(t[1].end, 124u);
  c.coalesceStrided(0x1004, 0, ~0u, 4, t);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].units, 1u);
  EXPECT_EQ(t[0].begin, 4u);
  c.coalesceStrided(0x10FC, static_cast<std::uint32_t>(-4), ~0u, 4, t);  // 0x1080..0x10FC
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].address, 0x1080u);
  c.coalesceStrided(0x1100, static_cast<std::uint32_t>(-128), 0x5u, 4, t);  // lanes 0 and 2
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].address, 0x1000u);
  EXPECT_EQ(t[0].lanes, 0x4u);
  EXPECT_EQ(t[1].lanes, 0x1u);
}

TEST(CoalescerStrided, UnitQueuesInOrderAndCountsApart) {
  simtlm::stats::Registry reg;
  std::vector<MemTransaction> issued;
  Coalescer c = make(reg, 128, 32, &issued);
  c.acceptStrided(0, 8, ~0u, 4, 7, 10);
  EXPECT_FALSE(c.canAccept());
  EXPECT_FALSE(c.tick(10));  // nothing leaves in the accept cycle
  EXPECT_TRUE(c.tick(11));
  EXPECT_TRUE(c.tick(12));
  EXPECT_TRUE(c.canAccept());
  ASSERT_EQ(issued.size(), 2u);
  EXPECT_FALSE(issued[0].last);
  EXPECT_TRUE(issued[1].last);
  EXPECT_EQ(reg.value("sm0.coalescer.compact_accesses"), 1.0);
  EXPECT_EQ(reg.value("sm0.coalescer.compact_transactions"), 2.0);
  EXPECT_EQ(reg.value("sm0.coalescer.accesses"), 0.0);
  EXPECT_EQ(reg.value("sm0.coalescer.transactions"), 0.0);
}

}  // namespace
