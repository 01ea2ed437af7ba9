// SharedMemory: bank-conflict degrees (exact), access timing, functional loads, stores and
// atomics in lane order, per-block regions, faults and statistics. Pure C++.
#include "model/mem/shared_memory.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <vector>

using simtlm::config::GpuConfig;
using simtlm::isa::Op;
using simtlm::mem::SharedMemory;
using simtlm::mem::SharedRequest;
using simtlm::mem::SharedResponse;

namespace {

GpuConfig::Shared cfg(int banks = 32, int width = 4, int latency = 24, int atomicLatency = 16) {
  return GpuConfig::Shared{16 * 1024, banks, width, latency, atomicLatency};
}

struct Got {
  std::uint64_t cycle, tag;
  std::array<std::uint32_t, 32> data;
  SharedResponse r;
};

struct Fixture {
  simtlm::stats::Registry reg;
  std::vector<Got> got;
  std::uint64_t now = 0;
  SharedMemory sm;
  explicit Fixture(GpuConfig::Shared c = cfg())
      : sm(c, 32, 4,
           [this](const SharedResponse& r) {
             Got g{now, r.tag, {}, r};
             for (unsigned l = 0; l < 32; ++l) g.data[l] = r.data[l];
             got.push_back(g);
           },
           simtlm::stats::Group(reg, "sm0.shared")) {}
  void run_until(std::uint64_t end) {
    for (; now <= end; ++now) sm.tick(now);
  }
};

SharedRequest request(SharedRequest::Kind kind, std::uint32_t stride, std::uint32_t base = 0) {
  SharedRequest r;
  r.kind = kind;
  r.mask = 0xFFFFFFFFu;
  for (unsigned l = 0; l < 32; ++l) r.address[l] = base + l * stride;
  return r;
}

TEST(SharedMemory, ConflictDegrees) {
  Fixture f;
  auto deg = [&](std::uint32_t stride) {
    return f.sm.conflictDegree(request(SharedRequest::Kind::Load, stride).address.data(),
                               0xFFFFFFFFu);
  };
  EXPECT_EQ(deg(4), 1u);      // stride 1 word
  EXPECT_EQ(deg(8), 2u);      // stride 2 words: 2-way
  EXPECT_EQ(deg(12), 1u);     // odd stride: conflict free
  EXPECT_EQ(deg(16), 4u);     // stride 4 words: 4-way
  EXPECT_EQ(deg(128), 32u);   // stride 32 words: all lanes in bank 0
  EXPECT_EQ(deg(0), 1u);      // broadcast
  auto half = request(SharedRequest::Kind::Load, 128);
  EXPECT_EQ(f.sm.conflictDegree(half.address.data(), 0x0000FFFFu), 16u);
  EXPECT_EQ(f.sm.conflictDegree(half.address.data(), 0u), 0u);
  // Lanes pairwise on one word, 16 words in bank 0: 16-way, broadcast within pairs.
  for (unsigned l = 0; l < 32; ++l) half.address[l] = (l / 2) * 128;
  EXPECT_EQ(f.sm.conflictDegree(half.address.data(), 0xFFFFFFFFu), 16u);
}

TEST(SharedMemory, WideBanksServeNeighbouringWordsTogether) {
  Fixture f(cfg(32, 8));
  auto r = request(SharedRequest::Kind::Load, 4);
  EXPECT_EQ(f.sm.conflictDegree(r.address.data(), 0xFFFFFFFFu), 1u);
  r = request(SharedRequest::Kind::Load, 256);  // every lane in bank 0, distinct 8-byte words
  EXPECT_EQ(f.sm.conflictDegree(r.address.data(), 0xFFFFFFFFu), 32u);
  Fixture g(cfg(32, 2));  // a word spans two banks
  r = request(SharedRequest::Kind::Load, 4);
  EXPECT_EQ(g.sm.conflictDegree(r.address.data(), 0xFFFFFFFFu), 2u);
}

TEST(SharedMemory, TimingIsLatencyPlusConflictCycles) {
  Fixture f;
  ASSERT_TRUE(f.sm.allocate(0, 8192));
  f.run_until(10);
  auto a = request(SharedRequest::Kind::Load, 4);
  a.tag = 1;
  ASSERT_TRUE(f.sm.canAccept());
  f.sm.accept(a, 10);  // conflict free: 10 + 24
  f.run_until(11);
  EXPECT_TRUE(f.sm.canAccept());
  auto b = request(SharedRequest::Kind::Load, 128);
  b.tag = 2;
  f.sm.accept(b, 11);  // 32-way: 11 + 24 + 31 = 66; banks busy until 43
  f.run_until(42);
  EXPECT_FALSE(f.sm.canAccept());
  f.run_until(43);
  EXPECT_TRUE(f.sm.canAccept());
  f.run_until(100);
  ASSERT_EQ(f.got.size(), 2u);
  EXPECT_EQ(f.got[0].cycle, 34u);
  EXPECT_EQ(f.got[0].tag, 1u);
  EXPECT_EQ(f.got[1].cycle, 66u);
  EXPECT_EQ(f.got[1].r.degree, 32u);
  EXPECT_TRUE(f.sm.idle());
  EXPECT_EQ(f.reg.value("sm0.shared.accesses"), 2.0);
  EXPECT_EQ(f.reg.value("sm0.shared.bank_conflicts"), 31.0);
  EXPECT_EQ(f.reg.value("sm0.shared.stalls"), 1.0);  // refused once, at cycle 42
  EXPECT_EQ(f.reg.value("sm0.shared.lane_accesses"), 64.0);
}

// An atomic is a read and a write of its bank word: lanes on one bank serialise, two bank cycles
// each, whether or not they share the word (no broadcast); Pascal measures 16 cycles alone and
// 78 for 32 lanes on one address (Jia et al. 2018, Table 4.2): 16 + 2 x 31.
TEST(SharedMemory, AtomicsSerialiseAsReadModifyWrites) {
  Fixture f;
  ASSERT_TRUE(f.sm.allocate(0, 8192));
  auto one = request(SharedRequest::Kind::Atomic, 0);
  one.op = Op::ATOM_S_ADD_U32;
  one.mask = 1u;
  one.tag = 1;
  one.b.fill(1);
  f.sm.accept(one, 0);  // one lane: 0 + 16
  f.run_until(1);
  EXPECT_FALSE(f.sm.canAccept());  // a read and a write of the bank: busy until 2
  f.run_until(2);
  ASSERT_TRUE(f.sm.canAccept());
  auto same = request(SharedRequest::Kind::Atomic, 0);  // 32 lanes on word 0
  same.op = Op::ATOM_S_ADD_U32;
  same.tag = 2;
  same.b.fill(1);
  f.sm.accept(same, 2);  // 2 + 16 + 2 x 31 = 80; busy until 2 + 64
  f.run_until(65);
  EXPECT_FALSE(f.sm.canAccept());
  f.run_until(66);
  ASSERT_TRUE(f.sm.canAccept());
  auto spread = request(SharedRequest::Kind::Atomic, 4);  // one word in each bank
  spread.op = Op::ATOM_S_ADD_U32;
  spread.tag = 3;
  f.sm.accept(spread, 66);  // 66 + 16
  f.run_until(200);
  ASSERT_EQ(f.got.size(), 3u);
  EXPECT_EQ(f.got[0].cycle, 16u);
  EXPECT_EQ(f.got[1].cycle, 80u);
  EXPECT_EQ(f.got[1].r.degree, 32u);
  EXPECT_EQ(f.got[2].cycle, 82u);
  EXPECT_EQ(f.got[2].r.degree, 1u);
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(f.got[1].data[l], 1 + l);  // after lane 0 of `one`
}

TEST(SharedMemory, StoresLoadsAndAtomicsInLaneOrder) {
  Fixture f(cfg(32, 4, 0, 0));
  ASSERT_TRUE(f.sm.allocate(1, 256));
  auto st = request(SharedRequest::Kind::Store, 4);
  st.slot = 1;
  for (unsigned l = 0; l < 32; ++l) st.b[l] = 100 + l;
  f.sm.accept(st, 0);
  auto add = request(SharedRequest::Kind::Atomic, 0, 128);  // every lane adds to word 32
  add.slot = 1;
  add.op = Op::ATOM_S_ADD_U32;
  for (unsigned l = 0; l < 32; ++l) add.b[l] = 1;
  f.sm.accept(add, 1);  // 32 lanes on one word: the banks are busy 64 cycles
  auto cas = request(SharedRequest::Kind::Atomic, 0, 132);  // lane l: cas(l -> l + 1)
  cas.slot = 1;
  cas.op = Op::ATOM_S_CAS;
  for (unsigned l = 0; l < 32; ++l) { cas.b[l] = l; cas.c[l] = l + 1; }
  f.sm.accept(cas, 65);
  auto ld = request(SharedRequest::Kind::Load, 4);
  ld.slot = 1;
  f.sm.accept(ld, 129);
  f.run_until(200);
  ASSERT_EQ(f.got.size(), 4u);
  for (unsigned l = 0; l < 32; ++l) {
    EXPECT_EQ(f.got[1].data[l], l);  // old values 0..31 in lane order
    EXPECT_EQ(f.got[2].data[l], l);
    EXPECT_EQ(f.got[3].data[l], 100 + l);
  }
  EXPECT_EQ(f.sm.read(1, 128), 32u);
  EXPECT_EQ(f.sm.read(1, 132), 32u);
}

TEST(SharedMemory, BlockRegionsAreSeparateZeroedAndBounded) {
  GpuConfig::Shared c = cfg();
  c.size = 1024;
  Fixture f(c);
  ASSERT_TRUE(f.sm.allocate(0, 100));  // rounded to one 128-byte bank row
  ASSERT_TRUE(f.sm.allocate(1, 512));
  EXPECT_EQ(f.sm.freeBytes(), 384u);
  EXPECT_FALSE(f.sm.allocate(2, 500));
  f.sm.write(0, 0, 7);
  f.sm.write(1, 0, 9);
  EXPECT_EQ(f.sm.read(0, 0), 7u);
  EXPECT_EQ(f.sm.read(1, 0), 9u);
  f.sm.release(0);
  ASSERT_TRUE(f.sm.allocate(2, 128));  // first fit: the hole at 0, zeroed
  EXPECT_EQ(f.sm.read(2, 0), 0u);
  EXPECT_THROW(f.sm.read(2, 128), std::out_of_range);
}

TEST(SharedMemory, OutOfBoundsLaneFaultsAfterEarlierLanes) {
  Fixture f(cfg(32, 4, 0));
  ASSERT_TRUE(f.sm.allocate(0, 20));  // words 0..4
  auto st = request(SharedRequest::Kind::Store, 4);
  for (unsigned l = 0; l < 32; ++l) st.b[l] = 1 + l;
  f.sm.accept(st, 0);
  f.run_until(1);
  ASSERT_EQ(f.got.size(), 1u);
  EXPECT_FALSE(f.got[0].r.ok);
  EXPECT_EQ(f.got[0].r.fault_lane, 5);
  EXPECT_EQ(f.got[0].r.fault_address, 20u);
  EXPECT_EQ(f.sm.read(0, 16), 5u);
}

}  // namespace

namespace {

// The definition, by brute force: the largest number of distinct bank words one bank is asked
// for (every byte of a lane's 4-byte word counts).
unsigned referenceDegree(const std::uint32_t* address, std::uint32_t mask, unsigned banks,
                         unsigned width) {
  std::vector<std::vector<std::uint32_t>> words(banks);
  for (unsigned l = 0; l < 32; ++l) {
    if (!(mask >> l & 1u)) continue;
    for (std::uint32_t byte = address[l]; byte < address[l] + 4; ++byte) {
      const std::uint32_t u = byte / width;
      auto& v = words[u % banks];
      if (std::find(v.begin(), v.end(), u) == v.end()) v.push_back(u);
    }
  }
  unsigned d = 0;
  for (const auto& v : words) d = std::max<unsigned>(d, static_cast<unsigned>(v.size()));
  return d;
}

}  // namespace

TEST(SharedMemory, ConflictDegreeMatchesTheDefinitionOnRandomPatterns) {
  std::uint64_t seed = 12345;
  auto next = [&seed] {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::uint32_t>(seed >> 33);
  };
  for (auto [banks, width] : {std::pair{32, 4}, {16, 8}, {32, 2}, {7, 4}, {128, 4}}) {
    Fixture f(cfg(banks, width));
    for (int trial = 0; trial < 2000; ++trial) {
      std::array<std::uint32_t, 32> a{};
      const std::uint32_t span = 1u << (2 + next() % 10);  // few or many distinct words
      for (auto& x : a) x = (next() % span) & ~3u;
      if (trial % 7 == 0) a[next() % 32] |= 2;  // a misaligned lane now and then
      const std::uint32_t mask = trial % 3 == 0 ? 0xFFFFFFFFu : next();
      ASSERT_EQ(f.sm.conflictDegree(a.data(), mask), referenceDegree(a.data(), mask, banks, width))
          << "banks " << banks << " width " << width << " trial " << trial;
    }
  }
}
