// L1Cache against a fake memory (pure C++): hit and miss timing, MSHR merging and stalls,
// write-through stores, atomics, stale fills, LRU replacement, bypass and errors.
#include "model/mem/l1_cache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <vector>

using simtlm::config::GpuConfig;
using simtlm::isa::Op;
using simtlm::mem::Downstream;
using simtlm::mem::L1Cache;
using simtlm::mem::L1Request;
using simtlm::mem::L1Response;
using simtlm::mem::WordOps;

namespace {

// Word memory whose requests complete only when the test says so (in request order or not).
struct FakeMemory : Downstream {
  struct Req {
    char kind;  // 'r', 'w', 'a'
    std::uint64_t address;
    unsigned size;
    Op op;
    WordOps ops;
    std::vector<unsigned char> data, be;
    Done done;
  };
  std::map<std::uint64_t, std::uint32_t> words;
  std::vector<Req> reqs;
  std::vector<std::size_t> pending;
  bool fail = false;

  void read(std::uint64_t a, unsigned n, Done d) override { add({'r', a, n, {}, {}, {}, {}, d}); }
  void write(std::uint64_t a, const unsigned char* data, const unsigned char* be, unsigned n,
             Done d) override {
    add({'w', a, n, {}, {}, {data, data + n}, be ? std::vector<unsigned char>(be, be + n)
                                                 : std::vector<unsigned char>(n, 0xff), d});
  }
  void atomic(std::uint64_t a, Op op, const WordOps& ops, Done d) override {
    add({'a', a, ops.count * 4, op, ops, {}, {}, d});
  }
  void add(Req r) {
    reqs.push_back(std::move(r));
    pending.push_back(reqs.size() - 1);
  }
  // Performs and answers pending request number i (index into reqs).
  void complete(std::size_t i) {
    Req& r = reqs[i];
    pending.erase(std::find(pending.begin(), pending.end(), i));
    std::vector<unsigned char> out(r.size, 0);
    if (r.kind == 'r') {
      for (unsigned k = 0; k < r.size; k += 4) {
        const std::uint32_t w = words[r.address + k];
        std::memcpy(&out[k], &w, 4);
      }
    } else if (r.kind == 'w') {
      for (unsigned k = 0; k < r.size; ++k)
        if (r.be[k]) reinterpret_cast<unsigned char*>(&words[(r.address + k) & ~3ull])[(r.address + k) & 3] =
              r.data[k];
    } else {
      std::vector<std::uint32_t> old(r.ops.count);
      simtlm::mem::applyAtomic(r.op, r.ops, r.address, old.data(), this,
          [](void* m, std::uint64_t a) { return static_cast<FakeMemory*>(m)->words[a]; },
          [](void* m, std::uint64_t a, std::uint32_t v) { static_cast<FakeMemory*>(m)->words[a] = v; });
      std::memcpy(out.data(), old.data(), out.size());
    }
    r.done(out.data(), !fail);
  }
  void completeAll() {
    while (!pending.empty()) complete(pending.front());
  }
};

GpuConfig::L1 small(int mshrs = 2, int merge = 2, bool enabled = true) {
  // 1 KB, 128-byte lines, 2 ways: 4 sets; hit latency 5.
  return GpuConfig::L1{enabled, 1024, 128, 2, 1, mshrs, merge, 5};
}

struct Got {
  std::uint64_t cycle;
  L1Response r;
  std::vector<std::uint32_t> words;
};

struct Fixture {
  simtlm::stats::Registry reg;
  FakeMemory mem;
  std::vector<Got> got;
  std::uint64_t now = 0;
  L1Cache l1;
  explicit Fixture(GpuConfig::L1 c = small())
      : l1(c, mem,
           [this](const L1Response& r) {
             got.push_back({now, r, std::vector<std::uint32_t>(r.words, r.words + r.count)});
           },
           simtlm::stats::Group(reg, "sm0.l1")) {
    for (std::uint32_t a = 0; a < 0x10000; a += 4) mem.words[a] = a;  // word = its address
  }
  void run_until(std::uint64_t end) {
    for (; now <= end; ++now) l1.tick(now);
  }
  void load(std::uint64_t address, std::uint64_t tag) {
    L1Request r;
    r.address = address;
    r.tag = tag;
    l1.accept(r, now);
  }
  void store(std::uint64_t address, std::uint32_t value, std::uint64_t tag = 0) {
    L1Request r;
    r.kind = L1Request::Kind::Store;
    r.address = address & ~127ull;
    r.ops.push(static_cast<std::uint32_t>(address & 127), value);
    r.tag = tag;
    l1.accept(r, now);
  }
  double stat(const char* n) { return *reg.value(std::string("sm0.l1.") + n); }
};

TEST(L1Cache, MissFillsThenHitsAfterHitLatency) {
  Fixture f;
  f.load(0x1004, 1);  // cycle 0: the fill leaves at cycle 5
  f.run_until(4);
  EXPECT_TRUE(f.mem.reqs.empty());
  f.run_until(5);
  ASSERT_EQ(f.mem.reqs.size(), 1u);
  EXPECT_EQ(f.mem.reqs[0].kind, 'r');
  EXPECT_EQ(f.mem.reqs[0].address, 0x1000u);
  EXPECT_EQ(f.mem.reqs[0].size, 128u);
  f.run_until(20);
  f.mem.complete(0);  // arrives during cycle 20: answered at tick 21
  EXPECT_FALSE(f.l1.idle());
  f.run_until(21);
  ASSERT_EQ(f.got.size(), 1u);
  EXPECT_EQ(f.got[0].cycle, 21u);
  EXPECT_FALSE(f.got[0].r.hit);
  EXPECT_EQ(f.got[0].r.address, 0x1000u);
  ASSERT_EQ(f.got[0].words.size(), 32u);
  EXPECT_EQ(f.got[0].words[7], 0x101Cu);
  EXPECT_TRUE(f.l1.idle());

  f.load(0x1070, 2);  // cycle 22: hit, answered at 27
  f.run_until(26);
  EXPECT_EQ(f.got.size(), 1u);
  f.run_until(27);
  ASSERT_EQ(f.got.size(), 2u);
  EXPECT_EQ(f.got[1].cycle, 27u);
  EXPECT_TRUE(f.got[1].r.hit);
  EXPECT_EQ(f.got[1].words[31], 0x107Cu);
  EXPECT_EQ(f.stat("hits"), 1);
  EXPECT_EQ(f.stat("misses"), 1);
  EXPECT_EQ(f.stat("transactions"), 1);
  EXPECT_EQ(f.stat("hit_rate"), 0.5);
}

TEST(L1Cache, MshrMergesUpToTheLimitThenAllocatesAnother) {
  Fixture f(small(4, 2));
  f.load(0x2000, 1);
  f.load(0x2040, 2);  // merged
  f.load(0x2000, 3);  // entry full: a second MSHR for the same line
  EXPECT_EQ(f.l1.mshrsInUse(), 2u);
  f.run_until(6);  // one request out per cycle: cycles 5 and 6
  ASSERT_EQ(f.mem.reqs.size(), 2u);
  f.mem.completeAll();
  f.run_until(7);
  ASSERT_EQ(f.got.size(), 3u);
  EXPECT_EQ(f.got[0].r.tag, 1u);
  EXPECT_EQ(f.got[1].r.tag, 2u);
  EXPECT_EQ(f.got[2].r.tag, 3u);
  EXPECT_EQ(f.stat("mshr_merges"), 1);
  EXPECT_EQ(f.stat("misses"), 3);
  EXPECT_TRUE(f.l1.idle());
}

TEST(L1Cache, StallsWhenMshrsAreFull) {
  Fixture f(small(2, 4));
  f.load(0x0000, 1);
  f.load(0x0080, 2);
  EXPECT_FALSE(f.l1.canAccept());
  L1Request same;
  same.address = 0x0010;  // merges into the first entry
  EXPECT_TRUE(f.l1.canAccept(same));
  L1Request other;
  other.address = 0x0100;
  EXPECT_FALSE(f.l1.canAccept(other));
  EXPECT_FALSE(f.l1.canAccept(other));  // counted once per cycle
  f.run_until(6);
  f.mem.complete(0);
  f.run_until(7);
  EXPECT_TRUE(f.l1.canAccept(other));
  EXPECT_EQ(f.stat("stalls"), 1);
}

TEST(L1Cache, StoresWriteThroughAndUpdateButNeverAllocate) {
  Fixture f;
  f.store(0x3008, 0xAAAA, 7);  // miss: not allocated
  f.run_until(5);
  ASSERT_EQ(f.mem.reqs.size(), 1u);
  EXPECT_EQ(f.mem.reqs[0].kind, 'w');
  EXPECT_EQ(f.mem.reqs[0].address, 0x3008u);
  EXPECT_EQ(f.mem.reqs[0].size, 4u);
  EXPECT_EQ(f.l1.outstandingWrites(), 1u);
  f.mem.completeAll();
  f.run_until(6);
  ASSERT_EQ(f.got.size(), 1u);
  EXPECT_EQ(f.got[0].r.kind, L1Request::Kind::Store);
  EXPECT_EQ(f.got[0].r.tag, 7u);
  EXPECT_FALSE(f.l1.contains(0x3000));
  EXPECT_EQ(f.mem.words[0x3008], 0xAAAAu);

  f.load(0x3000, 8);  // miss, fill
  f.run_until(12);
  f.mem.completeAll();
  f.run_until(13);
  f.store(0x3004, 0xBBBB);  // hit: the line is updated, and memory too
  f.load(0x3000, 9);
  f.run_until(30);
  f.mem.completeAll();
  f.run_until(31);
  ASSERT_EQ(f.got.size(), 4u);
  EXPECT_TRUE(f.got[2].r.hit);  // at cycle 19; got[3] is the store's acknowledgement
  EXPECT_EQ(f.got[2].words[1], 0xBBBBu);
  EXPECT_EQ(f.got[2].words[2], 0xAAAAu);
  EXPECT_EQ(f.got[3].r.kind, L1Request::Kind::Store);
  EXPECT_EQ(f.mem.words[0x3004], 0xBBBBu);
  EXPECT_EQ(f.stat("stores"), 2);
}

TEST(L1Cache, StoreSpanHasByteEnablesAndLaterLanesWin) {
  Fixture f;
  L1Request r;
  r.kind = L1Request::Kind::Store;
  r.address = 0x4000;
  r.ops.push(0x10, 1);
  r.ops.push(0x04, 2);
  r.ops.push(0x10, 3);  // same word as the first: lane order, this one wins
  f.l1.accept(r, 0);
  f.run_until(5);
  ASSERT_EQ(f.mem.reqs.size(), 1u);
  EXPECT_EQ(f.mem.reqs[0].address, 0x4004u);
  EXPECT_EQ(f.mem.reqs[0].size, 16u);
  std::vector<unsigned char> be(16, 0);
  std::fill_n(be.begin(), 4, 0xff);
  std::fill_n(be.begin() + 12, 4, 0xff);
  EXPECT_EQ(f.mem.reqs[0].be, be);
  f.mem.completeAll();
  EXPECT_EQ(f.mem.words[0x4010], 3u);
  EXPECT_EQ(f.mem.words[0x4008], 0x4008u);  // untouched
}

TEST(L1Cache, FillOlderThanAStoreIsNotInstalled) {
  Fixture f(small(4, 4));
  f.load(0x5000, 1);          // fill requested first
  f.store(0x5000, 0x1234);    // then the store: the fill in flight is stale
  f.load(0x5000, 2);          // must not merge into the stale entry
  EXPECT_EQ(f.l1.mshrsInUse(), 2u);
  f.run_until(10);
  ASSERT_EQ(f.mem.reqs.size(), 3u);  // read, write, read, in accept order
  EXPECT_EQ(f.mem.reqs[1].kind, 'w');
  f.mem.complete(0);  // the old data: answers load 1 only, not installed
  f.run_until(11);
  ASSERT_EQ(f.got.size(), 1u);
  EXPECT_EQ(f.got[0].words[0], 0x5000u);
  EXPECT_FALSE(f.l1.contains(0x5000));
  f.mem.complete(1);
  f.mem.complete(2);
  f.run_until(12);
  ASSERT_EQ(f.got.size(), 3u);
  EXPECT_EQ(f.got[2].r.tag, 2u);
  EXPECT_EQ(f.got[2].words[0], 0x1234u);
  EXPECT_TRUE(f.l1.contains(0x5000));
}

TEST(L1Cache, AtomicsGoToMemoryAndInvalidate) {
  Fixture f;
  f.load(0x6000, 1);
  f.run_until(5);
  f.mem.completeAll();
  f.run_until(6);
  ASSERT_TRUE(f.l1.contains(0x6000));
  L1Request a;
  a.kind = L1Request::Kind::Atomic;
  a.op = Op::ATOM_G_ADD_U32;
  a.address = 0x6000;
  a.tag = 2;
  for (unsigned l = 0; l < 4; ++l) a.ops.push(0x10, 10);  // four lanes on one word
  a.ops.push(0x20, 1);
  f.l1.accept(a, f.now);
  EXPECT_FALSE(f.l1.contains(0x6000));
  f.run_until(12);  // accepted at 7, leaves at 12
  ASSERT_EQ(f.mem.reqs.size(), 2u);
  EXPECT_EQ(f.mem.reqs[1].kind, 'a');
  EXPECT_EQ(f.mem.reqs[1].size, 20u);
  f.mem.completeAll();
  f.run_until(13);
  ASSERT_EQ(f.got.size(), 2u);
  EXPECT_EQ(f.got[1].r.kind, L1Request::Kind::Atomic);
  EXPECT_EQ(f.got[1].words, (std::vector<std::uint32_t>{0x6010, 0x601A, 0x6024, 0x602E, 0x6020}));
  EXPECT_EQ(f.mem.words[0x6010], 0x6038u);
  EXPECT_EQ(f.stat("atomics"), 1);
  EXPECT_TRUE(f.l1.idle());
}

TEST(L1Cache, LeastRecentlyUsedWayIsEvicted) {
  Fixture f(small(4, 4));
  // 4 sets of 128-byte lines: 0x0000, 0x0200, 0x0400 share set 0 (2 ways).
  auto fill = [&](std::uint64_t a, std::uint64_t tag) {
    f.load(a, tag);
    f.run_until(f.now + 5);
    f.mem.completeAll();
    f.run_until(f.now);
  };
  fill(0x0000, 1);
  fill(0x0200, 2);
  f.load(0x0000, 3);  // hit: 0x0200 is now least recent
  f.run_until(f.now + 5);
  fill(0x0400, 4);
  EXPECT_TRUE(f.l1.contains(0x0000));
  EXPECT_FALSE(f.l1.contains(0x0200));
  EXPECT_TRUE(f.l1.contains(0x0400));
  EXPECT_EQ(f.stat("hits"), 1);
  EXPECT_EQ(f.stat("misses"), 3);
}

TEST(L1Cache, DisabledCacheReadsEveryLoadAndKeepsNothing) {
  Fixture f(small(4, 4, false));
  f.load(0x7000, 1);
  f.load(0x7000, 2);
  f.run_until(6);
  ASSERT_EQ(f.mem.reqs.size(), 2u);
  f.mem.completeAll();
  f.run_until(7);
  EXPECT_EQ(f.got.size(), 2u);
  EXPECT_FALSE(f.l1.contains(0x7000));
  EXPECT_EQ(f.stat("mshr_merges"), 0);
}

TEST(L1Cache, MemoryErrorsReachTheRequester) {
  Fixture f;
  f.mem.fail = true;
  f.load(0x8000, 1);
  f.run_until(5);
  f.mem.completeAll();
  f.run_until(6);
  ASSERT_EQ(f.got.size(), 1u);
  EXPECT_FALSE(f.got[0].r.ok);
  EXPECT_FALSE(f.l1.contains(0x8000));
}

TEST(L1Cache, NextEventCycleForClockGating) {
  Fixture f;
  EXPECT_EQ(f.l1.nextEventCycle(), std::numeric_limits<std::uint64_t>::max());
  f.load(0x9000, 1);
  EXPECT_EQ(f.l1.nextEventCycle(), 5u);
  int wakes = 0;
  f.l1.setWakeup([&] { ++wakes; });
  f.run_until(5);
  EXPECT_EQ(f.l1.nextEventCycle(), std::numeric_limits<std::uint64_t>::max());
  f.mem.completeAll();
  EXPECT_EQ(wakes, 1);
  EXPECT_EQ(f.l1.nextEventCycle(), 5u);  // now: a response waits for the next tick
}

}  // namespace
