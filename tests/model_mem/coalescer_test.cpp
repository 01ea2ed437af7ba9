// Coalescer: transactions per access pattern (exact counts, order, lanes, spans) and the unit's
// one-transaction-per-cycle hand-off with downstream stalls. Pure C++.
#include "model/mem/coalescer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <vector>

using simtlm::mem::Coalescer;
using simtlm::mem::MemTransaction;

namespace {

std::array<std::uint64_t, 32> strided(std::uint64_t base, std::uint64_t stride) {
  std::array<std::uint64_t, 32> a{};
  for (unsigned l = 0; l < 32; ++l) a[l] = base + l * stride;
  return a;
}

struct Fixture {
  simtlm::stats::Registry reg;
  std::vector<std::pair<MemTransaction, std::uint64_t>> issued;
  bool accept_downstream = true;
  Coalescer c;
  explicit Fixture(unsigned segment = 128)
      : c(Coalescer::Config{segment, 32, 1},
          [this](const MemTransaction& t, std::uint64_t tag) {
            if (!accept_downstream) return false;
            issued.emplace_back(t, tag);
            return true;
          },
          simtlm::stats::Group(reg, "sm0.coalescer")) {}
  std::vector<MemTransaction> run(const std::array<std::uint64_t, 32>& a,
                                  std::uint32_t mask = 0xFFFFFFFFu) {
    std::vector<MemTransaction> out;
    c.coalesce(a.data(), mask, 4, out);
    return out;
  }
};

TEST(Coalescer, UnitStrideWordsIsOneTransaction) {
  Fixture f;
  auto t = f.run(strided(0x1000, 4));
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].address, 0x1000u);
  EXPECT_EQ(t[0].lanes, 0xFFFFFFFFu);
  EXPECT_EQ(t[0].begin, 0u);
  EXPECT_EQ(t[0].end, 128u);
  EXPECT_EQ(t[0].units, 32u);
}

TEST(Coalescer, MisalignedBaseTouchesTwoSegments) {
  Fixture f;
  auto t = f.run(strided(0x1040, 4));  // 0x1040..0x10bf
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].address, 0x1000u);
  EXPECT_EQ(t[0].lanes, 0x0000FFFFu);
  EXPECT_EQ(t[0].begin, 64u);
  EXPECT_EQ(t[0].end, 128u);
  EXPECT_EQ(t[1].address, 0x1080u);
  EXPECT_EQ(t[1].lanes, 0xFFFF0000u);
  EXPECT_EQ(t[1].units, 16u);
}

TEST(Coalescer, StrideTwoWordsIsTwoTransactions) {
  Fixture f;
  auto t = f.run(strided(0, 8));
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].lanes, 0x0000FFFFu);
  EXPECT_EQ(t[1].lanes, 0xFFFF0000u);
  EXPECT_EQ(t[0].units, 16u);
  EXPECT_EQ(t[0].end, 124u);
}

TEST(Coalescer, StrideOfASegmentIsOneTransactionPerLaneAscending) {
  Fixture f;
  auto a = strided(0, 128);
  std::reverse(a.begin(), a.end());  // lane 0 has the highest address
  auto t = f.run(a);
  ASSERT_EQ(t.size(), 32u);
  for (unsigned i = 0; i < 32; ++i) {
    EXPECT_EQ(t[i].address, i * 128u);
    EXPECT_EQ(t[i].lanes, 1u << (31 - i));
    EXPECT_EQ(t[i].units, 1u);
  }
}

TEST(Coalescer, SameAddressIsOneWord) {
  Fixture f;
  auto t = f.run(strided(0x2004, 0));
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].units, 1u);
  EXPECT_EQ(t[0].begin, 4u);
  EXPECT_EQ(t[0].end, 8u);
}

TEST(Coalescer, InactiveLanesAreIgnored) {
  Fixture f;
  auto t = f.run(strided(0, 128), 0x00000005u);  // lanes 0 and 2
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].address, 0u);
  EXPECT_EQ(t[1].address, 256u);
  EXPECT_TRUE(f.run(strided(0, 4), 0).empty());
}

TEST(Coalescer, ThirtyTwoByteSectors) {
  Fixture f(32);
  auto t = f.run(strided(0, 4));
  ASSERT_EQ(t.size(), 4u);
  for (unsigned i = 0; i < 4; ++i) {
    EXPECT_EQ(t[i].address, 32u * i);
    EXPECT_EQ(t[i].lanes, 0xFFu << (8 * i));
    EXPECT_EQ(t[i].units, 8u);
  }
}

// Lanes that come back to an earlier segment, and one that straddles two segments (its
// second part is a word lane 1 already touched).
TEST(Coalescer, LanesReturningToASegmentAndAStraddlingLane) {
  Fixture f;
  std::array<std::uint64_t, 32> a{};
  a[0] = 0x1000;
  a[1] = 0x1080;
  a[2] = 0x1004;
  a[3] = 0x107E;  // bytes 0x107E..0x1081
  auto t = f.run(a, 0xFu);
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].address, 0x1000u);
  EXPECT_EQ(t[0].lanes, 0xDu);
  EXPECT_EQ(t[0].begin, 0u);
  EXPECT_EQ(t[0].end, 128u);
  EXPECT_EQ(t[0].units, 3u);  // words 0, 1 and 31
  EXPECT_EQ(t[1].address, 0x1080u);
  EXPECT_EQ(t[1].lanes, 0xAu);
  EXPECT_EQ(t[1].begin, 0u);
  EXPECT_EQ(t[1].end, 4u);
  EXPECT_EQ(t[1].units, 1u);
}

TEST(Coalescer, LargeSegmentCountsDistinctWords) {
  Fixture f(1024);  // more than 64 words: the quadratic path
  auto a = strided(0, 8);
  a[5] = a[4];  // lanes 4 and 5 share a word
  auto t = f.run(a);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].units, 31u);
}

TEST(Coalescer, UnitHandsOneTransactionPerCycleAndCountsStalls) {
  Fixture f;
  EXPECT_TRUE(f.c.idle());
  const auto a = strided(0, 256);  // lanes 0..2: three segments
  f.c.accept(a.data(), 0x7u, 4, 42, 10);
  EXPECT_FALSE(f.c.canAccept());
  EXPECT_EQ(f.c.remaining(), 3u);
  EXPECT_FALSE(f.c.tick(10));  // nothing leaves in the accept cycle
  EXPECT_TRUE(f.c.tick(11));
  f.accept_downstream = false;
  EXPECT_FALSE(f.c.tick(12));  // refused: a stall
  f.accept_downstream = true;
  EXPECT_TRUE(f.c.tick(13));
  EXPECT_FALSE(f.c.canAccept());
  EXPECT_TRUE(f.c.tick(14));
  EXPECT_TRUE(f.c.canAccept());
  EXPECT_TRUE(f.c.idle());
  ASSERT_EQ(f.issued.size(), 3u);
  EXPECT_EQ(f.issued[0].first.address, 0u);
  EXPECT_EQ(f.issued[2].first.address, 512u);
  EXPECT_EQ(f.issued[2].second, 42u);
  EXPECT_FALSE(f.issued[1].first.last);
  EXPECT_TRUE(f.issued[2].first.last);
  EXPECT_EQ(f.reg.value("sm0.coalescer.accesses"), 1.0);
  EXPECT_EQ(f.reg.value("sm0.coalescer.transactions"), 3.0);
  EXPECT_EQ(f.reg.value("sm0.coalescer.stalls"), 1.0);
}

}  // namespace

namespace {

// The transactions of an access by the definition, lane by lane: every segment a lane's bytes
// touch, its lanes, its byte span and its distinct units (a lane's unit in a segment is the one
// its first byte there lies in), in ascending segment order.
std::vector<MemTransaction> reference(const std::array<std::uint64_t, 32>& a, std::uint32_t mask, unsigned size,
                                      unsigned segment) {
  std::vector<MemTransaction> out;
  std::vector<std::vector<std::uint64_t>> units;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(mask >> l & 1u)) continue;
    for (std::uint64_t byte = a[l]; byte < a[l] + size; ++byte) {
      const std::uint64_t s = byte / segment * segment;
      auto it = std::find_if(out.begin(), out.end(), [&](const MemTransaction& t) { return t.address == s; });
      if (it == out.end()) {
        out.push_back(MemTransaction{s, 0, ~0u, 0, 0, false});
        units.emplace_back();
        it = out.end() - 1;
      }
      auto& u = units[static_cast<std::size_t>(it - out.begin())];
      it->lanes |= 1u << l;
      it->begin = std::min(it->begin, static_cast<std::uint32_t>(byte - s));
      it->end = std::max(it->end, static_cast<std::uint32_t>(byte - s + 1));
      // A lane's unit in a segment: the one its first byte there lies in.
      const std::uint64_t unit = (std::max(a[l], s) - s) / size;
      if (std::find(u.begin(), u.end(), unit) == u.end()) u.push_back(unit);
    }
  }
  for (std::size_t i = 0; i < out.size(); ++i) out[i].units = static_cast<std::uint32_t>(units[i].size());
  std::sort(out.begin(), out.end(), [](const MemTransaction& x, const MemTransaction& y) { return x.address < y.address; });
  return out;
}

// Addresses non-decreasing with the lane (steps of 0, a unit, a segment or more), aligned or
// not, two rows of lanes over the same segments, and shuffled ones: the same transactions as
// the definition.
TEST(Coalescer, RandomAccessesMatchTheDefinition) {
  std::uint64_t seed = 12345;
  auto next = [&] {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return seed >> 33;
  };
  for (unsigned segment : {32u, 128u, 512u}) {
    Fixture f(segment);
    for (int trial = 0; trial < 2000; ++trial) {
      const unsigned size = 1u << (next() % 4);  // 1, 2, 4 or 8 bytes
      std::array<std::uint64_t, 32> a{};
      std::uint64_t at = 0x10000 + next() % 4096 * size;
      // (Misaligned accesses, which the ISA faults, only where a segment has at most 64 units:
      // above, a lane that straddles into a segment is not seen by the next lane's de-duplication.)
      const bool unaligned = next() % 8 == 0 && segment / size <= 64, shuffled = next() % 4 == 0;
      for (unsigned l = 0; l < 32; ++l) {
        const unsigned kind = next() % 4;
        at += kind == 0 ? 0 : kind == 1 ? size : kind == 2 ? segment : size * (next() % 64);
        a[l] = at + (unaligned && l == 7 ? 1 : 0);
      }
      if (next() % 4 == 0)  // two rows of a 2D block: lanes 16..31 come back to lanes 0..15's segments
        for (unsigned l = 16; l < 32; ++l) a[l] = a[l - 16] + size * (next() % 3);
      if (shuffled) std::swap(a[next() % 32], a[next() % 32]);
      const std::uint32_t mask = next() % 3 == 0 ? static_cast<std::uint32_t>(next()) : 0xFFFFFFFFu;
      std::vector<MemTransaction> got;
      f.c.coalesce(a.data(), mask, size, got);
      const auto want = reference(a, mask, size, segment);
      ASSERT_EQ(got.size(), want.size()) << "trial " << trial;
      for (std::size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(got[i].address, want[i].address) << "trial " << trial;
        EXPECT_EQ(got[i].lanes, want[i].lanes) << "trial " << trial;
        EXPECT_EQ(got[i].begin, want[i].begin) << "trial " << trial;
        EXPECT_EQ(got[i].end, want[i].end) << "trial " << trial;
        EXPECT_EQ(got[i].units, want[i].units) << "trial " << trial;
        EXPECT_FALSE(got[i].last);
      }
    }
  }
}

}  // namespace
