// The instruction cache (model/frontend/icache.h) on its own with a fake memory, and instruction
// fetch through it in the SM timing core: cold misses cost the fill latency, loops that fit hit,
// loops larger than the cache thrash, warps missing on one line merge, and a failed fill is a
// kernel fault.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "isa/assembler.h"
#include "isa/cfg.h"
#include "model/frontend/icache.h"
#include "model/sm/grid_engine.h"
#include "model/sm/grid_runner.h"

using namespace simtlm;
using frontend::ICache;

namespace {

// A memory whose reads complete when the test says so (or at once, inside read()).
struct FakeMemory : mem::Downstream {
  struct Read {
    uint64_t address;
    unsigned size;
    Done done;
  };
  std::vector<Read> reads;
  bool immediate = false, immediateOk = true;

  void read(uint64_t address, unsigned size, Done done) override {
    if (immediate) {
      std::vector<unsigned char> z(size, 0);
      done(immediateOk ? z.data() : nullptr, immediateOk);
      done = nullptr;
    }
    reads.push_back({address, size, std::move(done)});
  }
  void write(uint64_t, const unsigned char*, const unsigned char*, unsigned, Done) override {
    ADD_FAILURE() << "the I-cache never writes";
  }
  void atomic(uint64_t, isa::Op, const mem::WordOps&, Done) override {
    ADD_FAILURE() << "the I-cache never sends atomics";
  }
  void complete(size_t i, bool ok = true) {
    std::vector<unsigned char> z(reads.at(i).size, 0);
    reads[i].done(ok ? z.data() : nullptr, ok);
  }
};

struct Answer {
  uint64_t tag, address;
  bool ok;
  uint64_t cycle;
  bool operator==(const Answer& o) const {
    return tag == o.tag && address == o.address && ok == o.ok && cycle == o.cycle;
  }
};

// 2 sets x 2 ways of 128-byte lines, 2 MSHRs.
config::GpuConfig::Frontend smallFrontend() {
  config::GpuConfig c;
  c.frontend.icache_size = 512;
  c.frontend.icache_line = 128;
  c.frontend.icache_assoc = 2;
  c.frontend.icache_mshrs = 2;
  c.frontend.icache_hit_latency = 1;
  return c.frontend;
}

struct Rig {
  stats::Registry reg;
  FakeMemory mem;
  ICache ic;
  std::vector<Answer> answers;
  explicit Rig(const config::GpuConfig::Frontend& f = smallFrontend())
      : ic(f, mem, stats::Group(reg, "sm0.icache")) {
    ic.setRespond([this](uint64_t tag, uint64_t a, bool ok, uint64_t c) { answers.push_back({tag, a, ok, c}); });
  }
  uint64_t stat(const std::string& n) const { return static_cast<uint64_t>(reg.value("sm0.icache." + n).value()); }
};

}  // namespace

TEST(ICache, ColdMissFillsTheWholeLineThenHits) {
  Rig r;
  EXPECT_TRUE(r.ic.canAccept(0x1008));
  EXPECT_EQ(r.ic.access(0x1008, 7, 0), ICache::Outcome::Miss);
  ASSERT_EQ(r.mem.reads.size(), 1u);
  EXPECT_EQ(r.mem.reads[0].address, 0x1000u);  // the line
  EXPECT_EQ(r.mem.reads[0].size, 128u);
  EXPECT_FALSE(r.ic.idle());
  EXPECT_FALSE(r.ic.tick(1));  // nothing has arrived
  r.mem.complete(0);
  EXPECT_TRUE(r.answers.empty());  // answered from tick(), not from the memory's callback
  EXPECT_TRUE(r.ic.tick(5));
  EXPECT_EQ(r.answers, (std::vector<Answer>{{7, 0x1008, true, 5}}));
  EXPECT_TRUE(r.ic.idle());
  EXPECT_TRUE(r.ic.contains(0x107f));
  EXPECT_EQ(r.ic.access(0x1070, 8, 6), ICache::Outcome::Hit);
  EXPECT_EQ(r.mem.reads.size(), 1u);
  EXPECT_EQ(r.stat("accesses"), 2u);
  EXPECT_EQ(r.stat("hits"), 1u);
  EXPECT_EQ(r.stat("misses"), 1u);
  EXPECT_EQ(r.stat("fills"), 1u);
  EXPECT_EQ(r.stat("merged"), 0u);
  EXPECT_DOUBLE_EQ(r.reg.value("sm0.icache.hit_rate").value(), 0.5);
}

TEST(ICache, SecondMissToALineInFlightMerges) {
  Rig r;
  EXPECT_EQ(r.ic.access(0x200, 1, 0), ICache::Outcome::Miss);
  EXPECT_EQ(r.ic.access(0x210, 2, 1), ICache::Outcome::Merged);
  EXPECT_EQ(r.ic.access(0x27f, 3, 2), ICache::Outcome::Merged);
  EXPECT_EQ(r.mem.reads.size(), 1u);  // one fill
  EXPECT_EQ(r.ic.mshrsInUse(), 1u);
  r.mem.complete(0);
  r.ic.tick(9);
  // Every waiter answered in merge order, in the tick that installed the line.
  EXPECT_EQ(r.answers, (std::vector<Answer>{{1, 0x200, true, 9}, {2, 0x210, true, 9}, {3, 0x27f, true, 9}}));
  EXPECT_EQ(r.stat("misses"), 3u);
  EXPECT_EQ(r.stat("merged"), 2u);
  EXPECT_EQ(r.stat("fills"), 1u);
}

TEST(ICache, AllMshrsBusyRefusesNewLinesButTakesHitsAndMerges) {
  Rig r;
  r.ic.access(0x0, 1, 0);
  r.mem.complete(0);
  r.ic.tick(1);  // line 0x0 present
  EXPECT_EQ(r.ic.access(0x100, 2, 2), ICache::Outcome::Miss);
  EXPECT_EQ(r.ic.access(0x400, 3, 3), ICache::Outcome::Miss);
  EXPECT_EQ(r.ic.mshrsInUse(), 2u);
  EXPECT_FALSE(r.ic.canAccept(0x800));  // a third line: no MSHR
  EXPECT_FALSE(r.ic.canAccept(0x880));
  EXPECT_TRUE(r.ic.canAccept(0x140));   // merges
  EXPECT_TRUE(r.ic.canAccept(0x10));    // hits
  EXPECT_EQ(r.stat("mshr_full_stalls"), 2u);
  EXPECT_THROW(r.ic.access(0x800, 4, 4), std::logic_error);
  r.mem.complete(1);
  r.ic.tick(5);
  EXPECT_TRUE(r.ic.canAccept(0x800));
  EXPECT_EQ(r.ic.access(0x800, 5, 6), ICache::Outcome::Miss);
}

TEST(ICache, LeastRecentlyUsedWayIsReplaced) {
  Rig r;  // 2 sets: lines 0x000, 0x100, 0x200 all map to set 0
  auto fill = [&](uint64_t a, uint64_t cycle) {
    ASSERT_EQ(r.ic.access(a, a, cycle), ICache::Outcome::Miss);
    r.mem.complete(r.mem.reads.size() - 1);
    r.ic.tick(cycle);
  };
  fill(0x000, 0);
  fill(0x100, 1);
  EXPECT_EQ(r.ic.access(0x000, 0, 2), ICache::Outcome::Hit);  // 0x100 is now least recently used
  fill(0x200, 3);
  EXPECT_TRUE(r.ic.contains(0x000));
  EXPECT_FALSE(r.ic.contains(0x100));
  EXPECT_TRUE(r.ic.contains(0x200));
  EXPECT_EQ(r.ic.access(0x080, 0, 4), ICache::Outcome::Miss);  // set 1 is untouched
}

TEST(ICache, WayHintNeverGivesAStaleHit) {
  Rig r;
  unsigned hint = ICache::kNoWay;
  EXPECT_EQ(r.ic.access(0x000, 1, 0, &hint), ICache::Outcome::Miss);
  r.mem.complete(0);
  r.ic.tick(1);
  EXPECT_EQ(r.ic.access(0x008, 1, 2, &hint), ICache::Outcome::Hit);
  EXPECT_NE(hint, ICache::kNoWay);
  EXPECT_EQ(r.ic.access(0x010, 1, 3, &hint), ICache::Outcome::Hit);  // through the hint
  // Evict line 0x000 (set 0 holds two ways): 0x100 then 0x200, touching 0x100 last.
  for (uint64_t a : {0x100u, 0x200u}) {
    r.ic.access(a, 2, 4);
    r.mem.complete(r.mem.reads.size() - 1);
    r.ic.tick(5);
  }
  EXPECT_FALSE(r.ic.contains(0x000));
  EXPECT_EQ(r.ic.access(0x018, 1, 6, &hint), ICache::Outcome::Miss);
  EXPECT_EQ(hint, ICache::kNoWay);
  EXPECT_EQ(r.stat("hits"), 2u);
}

TEST(ICache, FillErrorAnswersEveryWaiterAndInstallsNothing) {
  Rig r;
  r.ic.access(0x300, 1, 0);
  r.ic.access(0x308, 2, 1);
  r.mem.complete(0, false);
  r.ic.tick(4);
  EXPECT_EQ(r.answers, (std::vector<Answer>{{1, 0x300, false, 4}, {2, 0x308, false, 4}}));
  EXPECT_FALSE(r.ic.contains(0x300));
  EXPECT_EQ(r.stat("fill_errors"), 1u);
  EXPECT_TRUE(r.ic.idle());
}

TEST(ICache, MemoryAnsweringInsideReadFillsAtOnce) {
  Rig r;
  r.mem.immediate = true;
  unsigned hint = ICache::kNoWay;
  EXPECT_EQ(r.ic.access(0x40, 1, 0, &hint), ICache::Outcome::Filled);
  EXPECT_TRUE(r.ic.contains(0x0));
  EXPECT_TRUE(r.ic.idle());
  EXPECT_EQ(r.ic.mshrsInUse(), 0u);
  EXPECT_NE(hint, ICache::kNoWay);
  EXPECT_FALSE(r.ic.tick(0));
  EXPECT_TRUE(r.answers.empty());  // nobody waits
  EXPECT_EQ(r.ic.access(0x48, 2, 1, &hint), ICache::Outcome::Hit);
  EXPECT_EQ(r.stat("misses"), 1u);
  EXPECT_EQ(r.stat("fills"), 1u);
  // An error answered inside read() is reported by the next tick.
  r.mem.immediateOk = false;
  EXPECT_EQ(r.ic.access(0x100, 3, 2), ICache::Outcome::Miss);
  EXPECT_TRUE(r.answers.empty());
  r.ic.tick(2);
  EXPECT_EQ(r.answers, (std::vector<Answer>{{3, 0x100, false, 2}}));
  EXPECT_FALSE(r.ic.contains(0x100));
}

TEST(ICache, InvalidateDropsLinesAndFillsInFlight) {
  Rig r;
  r.ic.access(0x000, 1, 0);
  r.mem.complete(0);
  r.ic.tick(1);
  r.ic.access(0x100, 2, 2);  // in flight
  r.ic.invalidate();
  EXPECT_FALSE(r.ic.contains(0x000));
  r.mem.complete(1);
  r.ic.tick(3);
  EXPECT_EQ(r.answers.size(), 1u);  // only the fill before the invalidation was answered
  EXPECT_FALSE(r.ic.contains(0x100));
  EXPECT_TRUE(r.ic.idle());
}

TEST(ICache, BadGeometryIsRefused) {
  FakeMemory m;
  stats::Registry reg;
  auto f = smallFrontend();
  f.icache_line = 96;
  EXPECT_THROW(ICache(f, m, stats::Group(reg, "a")), std::invalid_argument);
  f = smallFrontend();
  f.icache_size = 384;
  EXPECT_THROW(ICache(f, m, stats::Group(reg, "b")), std::invalid_argument);
}

// ---- Instruction fetch through the I-cache in the SM timing core ----

namespace {

config::GpuConfig oneSm() {
  config::GpuConfig c;
  c.gpu.num_sms = 1;
  return c;
}

isa::LaunchConfig oneWarp() {
  isa::LaunchConfig l;
  l.block = {32, 1, 1};
  return l;
}

uint64_t stat(const stats::Registry& reg, const std::string& n) {
  return static_cast<uint64_t>(reg.value("sm0.icache." + n).value());
}

// `n` independent adds, then exit.
isa::Kernel straightLine(int n) {
  std::string src = ".kernel straight\n";
  for (int i = 0; i < n; ++i) src += "  add.u32 r" + std::to_string(1 + i % 8) + ", r0, 1\n";
  src += "  exit\n";
  return isa::assemble(src, "straight.s");
}

// A loop of `body` independent adds run `iterations` times: 1 + body + 3 + 1 instructions.
isa::Kernel loop(int body, int iterations) {
  std::string src = ".kernel loop\n  mov.b32 r1, 0\ntop:\n";
  for (int i = 0; i < body; ++i) src += "  add.u32 r" + std::to_string(2 + i % 8) + ", r0, 1\n";
  src += "  add.u32 r1, r1, 1\n  setp.lt.u32 p0, r1, " + std::to_string(iterations) +
         "\n  @p0 bra top\n  exit\n";
  return isa::assemble(src, "loop.s");
}

sm::GridResult run(const isa::Kernel& k, const config::GpuConfig& c, stats::Registry& reg, int codeLatency,
                   const isa::LaunchConfig& l = oneWarp()) {
  isa::GlobalMemory mem;
  return sm::runGrid(c, k, l, mem, reg, 100, codeLatency);
}

}  // namespace

TEST(SmFetch, ColdMissCostsExactlyTheFillLatency) {
  // One warp, `exit` only: the fetch at cycle 0 misses, the fill is installed at cycle M and
  // the instruction is in the I-buffer at M + L (L = icache_hit_latency); from there issue and
  // retirement take a fixed number P of cycles (the back end's business): M + L + P in all.
  auto k = isa::assemble(".kernel e\n  exit\n", "e.s");
  int64_t pipeline = -1;
  for (int hit : {1, 3})
    for (int m : {10, 57, 200}) {
      auto c = oneSm();
      c.frontend.icache_hit_latency = hit;
      stats::Registry reg;
      auto r = run(k, c, reg, m);
      ASSERT_EQ(r.error, "");
      const int64_t p = static_cast<int64_t>(r.cycles) - m - hit;
      if (pipeline < 0) pipeline = p;
      EXPECT_EQ(p, pipeline) << "hit " << hit << ", fill " << m;
      EXPECT_GE(p, 2);
      EXPECT_EQ(stat(reg, "accesses"), 1u);
      EXPECT_EQ(stat(reg, "misses"), 1u);
      EXPECT_EQ(stat(reg, "fills"), 1u);
      EXPECT_EQ(stat(reg, "hits"), 0u);
    }
}

TEST(SmFetch, StraightLineCodeMissesOncePerLineAndEachMissCostsTheFillLatency) {
  // 64 adds + exit = 520 bytes = 5 lines of 128 bytes; 2-instruction fetches: 33 accesses.
  // Each line's first fetch misses and stalls the warp for the whole fill: a fill latency of
  // M cycles costs exactly M - 20 more cycles per line than one of 20 cycles. (With very short
  // fills the last miss, on `exit`, can hide behind the last add's write-back.)
  auto k = straightLine(64);
  stats::Registry twenty;
  auto base = run(k, oneSm(), twenty, 20);
  ASSERT_EQ(base.error, "");
  for (int m : {0, 1, 20, 57, 100}) {
    stats::Registry reg;
    auto r = run(k, oneSm(), reg, m);
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(stat(reg, "misses"), 5u);
    EXPECT_EQ(stat(reg, "fills"), 5u);
    EXPECT_EQ(stat(reg, "accesses"), 33u);
    EXPECT_EQ(stat(reg, "hits"), 28u);
    if (m >= 20) EXPECT_EQ(r.cycles - base.cycles, 5u * static_cast<uint64_t>(m - 20)) << "fill latency " << m;
    else EXPECT_LT(r.cycles, base.cycles);
  }
}

TEST(SmFetch, CodeBaseAddressPlacesTheLines) {
  // 60 adds + exit = 488 bytes: 4 lines at a line-aligned base, 5 when the code starts 64 bytes
  // into a line. Driven through the GridEngine to choose the base.
  auto k = straightLine(60);
  auto misses = [&](uint64_t base) {
    auto c = oneSm();
    isa::GlobalMemory mem;
    stats::Registry reg;
    sm::IdealGlobalMemory port(mem, 100);
    sm::IdealCodeMemory code(k.code, base, 50);
    sm::GridEngine engine(c, {&port}, {&code}, reg);
    sm::KernelImage image;
    image.kernel = &k;
    image.launch = oneWarp();
    image.reconvergence = isa::Cfg(k).reconvergenceTable();
    image.codeBase = base;
    EXPECT_EQ(engine.start(image), "");
    do code.tick(engine.cycles());
    while (engine.tick() == sm::GridEngine::State::Running);
    EXPECT_EQ(engine.state(), sm::GridEngine::State::Done) << engine.error();
    EXPECT_EQ(code.reads(), stat(reg, "fills"));
    return stat(reg, "misses");
  };
  EXPECT_EQ(misses(0), 4u);
  EXPECT_EQ(misses(0x10000), 4u);
  EXPECT_EQ(misses(0x10040), 5u);
}

TEST(SmFetch, LoopThatFitsOnlyMissesColdButALargerLoopThrashes) {
  // A 4-line, fully associative I-cache (one set of 4 ways, LRU).
  auto c = oneSm();
  c.frontend.icache_size = 512;
  c.frontend.icache_line = 128;
  c.frontend.icache_assoc = 4;
  const int iterations = 5;
  // 45 instructions = 3 lines: after the cold misses every fetch hits.
  stats::Registry fit;
  auto a = run(loop(40, iterations), c, fit, 100);
  ASSERT_EQ(a.error, "");
  EXPECT_EQ(stat(fit, "misses"), 3u);
  EXPECT_EQ(stat(fit, "fills"), 3u);
  // 95 instructions = 6 lines, all in the loop: cycling through 6 lines in 4 LRU ways evicts
  // each line before its reuse, so every line misses on every iteration.
  stats::Registry thrash;
  auto b = run(loop(90, iterations), c, thrash, 100);
  ASSERT_EQ(b.error, "");
  EXPECT_EQ(stat(thrash, "misses"), 6u * iterations);
  EXPECT_EQ(stat(thrash, "fills"), 6u * iterations);
  EXPECT_GT(stat(thrash, "misses"), 5 * stat(fit, "misses"));
  // With the default 4 KB I-cache the large loop fits as well.
  stats::Registry big;
  ASSERT_EQ(run(loop(90, iterations), oneSm(), big, 100).error, "");
  EXPECT_EQ(stat(big, "misses"), 6u);
}

TEST(SmFetch, WarpsMissingOnOneLineShareItsFill) {
  // 8 warps fetch `exit` in cycles 0..7: one fill, seven merged misses, all answered when the
  // line is installed at M. The whole grid therefore waits for one fill: a longer fill latency
  // adds exactly its difference (with the 2 MSHRs and no merging it would add it 4 times).
  auto k = isa::assemble(".kernel e\n  exit\n", "e.s");
  isa::LaunchConfig l;
  l.block = {256, 1, 1};
  stats::Registry reg, slower;
  auto r = run(k, oneSm(), reg, 100, l);
  auto s = run(k, oneSm(), slower, 160, l);
  ASSERT_EQ(r.error, "");
  ASSERT_EQ(s.error, "");
  EXPECT_EQ(stat(reg, "accesses"), 8u);
  EXPECT_EQ(stat(reg, "misses"), 8u);
  EXPECT_EQ(stat(reg, "merged"), 7u);
  EXPECT_EQ(stat(reg, "fills"), 1u);
  EXPECT_EQ(s.cycles - r.cycles, 60u);
}

TEST(SmFetch, OneMshrSerializesFillsOfDifferentLines) {
  // Warps of a block diverge to two far-apart code regions; with one MSHR, the second region's
  // first fetch waits for the first region's fill (counted as mshr_full_stalls).
  std::string src = ".kernel two\n  s2r r0, %warpid\n  setp.eq.b32 p0, r0, 0\n  @p0 bra far\n";
  for (int i = 0; i < 40; ++i) src += "  add.u32 r" + std::to_string(1 + i % 8) + ", r0, 1\n";
  src += "  exit\nfar:\n";
  for (int i = 0; i < 40; ++i) src += "  add.u32 r" + std::to_string(1 + i % 8) + ", r0, 2\n";
  src += "  exit\n";
  auto k = isa::assemble(src, "two.s");
  isa::LaunchConfig l;
  l.block = {64, 1, 1};
  auto c = oneSm();
  stats::Registry two, one;
  auto a = run(k, c, two, 100, l);
  c.frontend.icache_mshrs = 1;
  auto b = run(k, c, one, 100, l);
  ASSERT_EQ(a.error, "");
  ASSERT_EQ(b.error, "");
  EXPECT_EQ(stat(two, "mshr_full_stalls"), 0u);
  EXPECT_GT(stat(one, "mshr_full_stalls"), 0u);
  EXPECT_EQ(stat(one, "fills"), stat(two, "fills"));
  EXPECT_GT(b.cycles, a.cycles);
}

TEST(SmFetch, FillErrorIsAKernelFault) {
  // The instruction memory holds the code at 0x1000 but the kernel says it starts at 0: the
  // first line fill gets an error response.
  auto k = straightLine(4);
  auto c = oneSm();
  isa::GlobalMemory mem;
  stats::Registry reg;
  sm::IdealGlobalMemory port(mem, 100);
  sm::IdealCodeMemory code(k.code, 0x1000, 30);
  sm::GridEngine engine(c, {&port}, {&code}, reg);
  sm::KernelImage image;
  image.kernel = &k;
  image.launch = oneWarp();
  image.reconvergence = isa::Cfg(k).reconvergenceTable();
  ASSERT_EQ(engine.start(image), "");
  do code.tick(engine.cycles());
  while (engine.tick() == sm::GridEngine::State::Running);
  ASSERT_EQ(engine.state(), sm::GridEngine::State::Faulted);
  EXPECT_NE(engine.error().find("instruction fetch failed at address 0x0"), std::string::npos) << engine.error();
  EXPECT_NE(engine.error().find("warp 0, PC 0x0"), std::string::npos) << engine.error();
  EXPECT_EQ(engine.cycles(), 31u);  // faulted in the cycle the fill's answer arrived
  EXPECT_EQ(stat(reg, "fill_errors"), 1u);
}
