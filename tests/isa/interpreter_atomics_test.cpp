// The golden functional interpreter: global and shared atomics from many threads and blocks
// (add, float add, cas loops, min/max signed and unsigned, exchange).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>

#include "isa/semantics.h"
#include "tests/isa/test_support.h"

using namespace simtlm;
using namespace simtlm::isa;
using namespace simtlm::test;

TEST(InterpAtomics, GlobalAddFromAllThreadsOfSeveralBlocks) {
  Kernel k = assemble(R"(
.kernel gadd
.param CTR
.param OLD
  s2r r0, %tid.x
  s2r r1, %ctaid.x
  s2r r2, %ntid.x
  mad.lo.u32 r3, r1, r2, r0    // g
  ld.param.b32 r4, [CTR]
  mov.b32 r5, 1
  atom.global.add.u32 r6, [r4], r5
  add.u32 r7, r0, 1
  atom.global.add.u32 r8, [r4+4], r7
  shl.b32 r9, r3, 2
  ld.param.b32 r10, [OLD]
  add.u32 r10, r10, r9
  st.global.b32 [r10], r6
  exit
)");
  const uint32_t blocks = 4, T = 96;
  GlobalMemory mem;
  uint32_t ctr = mem.allocate("ctr", 8), old = mem.allocate("old", blocks * T * 4);
  mem.setWords("ctr", {0, 1000});
  Interpreter(k, mem).run(launch({blocks}, {T}, {ctr, old}));
  EXPECT_EQ(mem.words("ctr"), (Words{blocks * T, 1000 + blocks * T * (T + 1) / 2}));
  Words o = mem.words("old");
  std::set<uint32_t> seen(o.begin(), o.end());
  EXPECT_EQ(seen.size(), size_t{blocks * T});  // distinct
  EXPECT_EQ(*seen.begin(), 0u);
  EXPECT_EQ(*seen.rbegin(), blocks * T - 1);
}

TEST(InterpAtomics, SharedAddPerBlockAndFloatAdd) {
  Kernel k = assemble(R"(
.kernel sadd
.shared 8
.param TOT
.param OLD
.param FSUM
  s2r r0, %tid.x
  s2r r1, %ctaid.x
  s2r r2, %ntid.x
  mov.b32 r3, 0
  mov.b32 r5, 1
  atom.shared.add.u32 r6, [r3], r5
  cvt.f32.u32 r7, r0
  atom.shared.add.f32 r8, [r3+4], r7
  ld.param.b32 r9, [FSUM]
  atom.global.add.f32 r8, [r9], r7
  bar.sync
  mad.lo.u32 r10, r1, r2, r0
  shl.b32 r10, r10, 2
  ld.param.b32 r11, [OLD]
  add.u32 r11, r11, r10
  st.global.b32 [r11], r6
  setp.ne.b32 p0, r0, 0
  @p0 exit
  ld.shared.b32 r12, [0]
  ld.shared.b32 r13, [4]
  shl.b32 r14, r1, 3
  ld.param.b32 r15, [TOT]
  add.u32 r15, r15, r14
  st.global.b32 [r15], r12
  st.global.b32 [r15+4], r13
  exit
)");
  const uint32_t blocks = 3, T = 72;
  GlobalMemory mem;
  uint32_t tot = mem.allocate("tot", blocks * 8), old = mem.allocate("old", blocks * T * 4),
           fsum = mem.allocate("fsum", 4);
  Interpreter(k, mem).run(launch({blocks}, {T}, {tot, old, fsum}));
  Words t = mem.words("tot"), o = mem.words("old");
  float perBlock = static_cast<float>(T * (T - 1) / 2);
  for (uint32_t b = 0; b < blocks; ++b) {
    EXPECT_EQ(t[2 * b], T) << "block " << b;
    EXPECT_EQ(t[2 * b + 1], U(perBlock)) << "block " << b;
    std::set<uint32_t> seen(o.begin() + b * T, o.begin() + (b + 1) * T);
    std::set<uint32_t> expect;
    for (uint32_t i = 0; i < T; ++i) expect.insert(i);
    EXPECT_EQ(seen, expect) << "block " << b;
  }
  EXPECT_EQ(mem.words("fsum")[0], U(perBlock * blocks));
}

TEST(InterpAtomics, SharedAtomicWithAbsoluteAddress) {
  // atom.shared with no base register addresses [offset] for every lane (r0 holds tid.x).
  Kernel k = assemble(R"(
.kernel sabs
.shared 16
.param OUT
  s2r r0, %tid.x
  mov.b32 r1, 1
  atom.shared.add.u32 r2, [8], r1
  bar.sync 0
  ld.shared.b32 r3, [8]
  shl.b32 r4, r0, 2
  ld.param.b32 r5, [OUT]
  add.u32 r5, r5, r4
  st.global.b32 [r5], r3
  exit
)");
  GlobalMemory mem;
  uint32_t out = mem.allocate("out", 16 * 4);
  Interpreter(k, mem).run(launch({1}, {16}, {out}));
  EXPECT_EQ(mem.words("out"), Words(16, 16u));
}

TEST(InterpAtomics, CasLockFreeIncrement) {
  // Every thread increments a global and a shared counter with a compare-and-swap retry loop
  // and records the value it replaced.
  Kernel k = assemble(R"(
.kernel casinc
.shared 4
.param CTR
.param OLD
.param SOLD
  s2r r0, %tid.x
  s2r r1, %ctaid.x
  s2r r2, %ntid.x
  mad.lo.u32 r3, r1, r2, r0
  shl.b32 r3, r3, 2
  ld.param.b32 r4, [CTR]
RETRY:
  ld.global.b32 r5, [r4]
  add.u32 r6, r5, 1
  atom.global.cas.b32 r7, [r4], r5, r6
  setp.ne.b32 p0, r7, r5
  @p0 bra RETRY
  mov.b32 r8, 0
SRETRY:
  ld.shared.b32 r5, [0]
  add.u32 r6, r5, 1
  atom.shared.cas.b32 r9, [r8], r5, r6
  setp.ne.b32 p0, r9, r5
  @p0 bra SRETRY
  ld.param.b32 r10, [OLD]
  add.u32 r10, r10, r3
  st.global.b32 [r10], r7
  ld.param.b32 r10, [SOLD]
  add.u32 r10, r10, r3
  st.global.b32 [r10], r9
  exit
)");
  const uint32_t blocks = 3, T = 40;
  GlobalMemory mem;
  uint32_t ctr = mem.allocate("ctr", 4), old = mem.allocate("old", blocks * T * 4),
           sold = mem.allocate("sold", blocks * T * 4);
  ExecCounts c = Interpreter(k, mem).run(launch({blocks}, {T}, {ctr, old, sold}, 8));
  EXPECT_EQ(mem.words("ctr")[0], blocks * T);
  Words o = mem.words("old"), s = mem.words("sold");
  std::set<uint32_t> g(o.begin(), o.end());
  EXPECT_EQ(g.size(), size_t{blocks * T});
  EXPECT_EQ(*g.rbegin(), blocks * T - 1);
  for (uint32_t b = 0; b < blocks; ++b) {
    std::set<uint32_t> sb(s.begin() + b * T, s.begin() + (b + 1) * T);
    EXPECT_EQ(sb.size(), size_t{T});
    EXPECT_EQ(*sb.begin(), 0u);
    EXPECT_EQ(*sb.rbegin(), T - 1);
  }
  EXPECT_GT(c.divergentBranches, 0u);  // lanes that lost the race retry
}

TEST(InterpAtomics, MinMaxSignedAndUnsigned) {
  // Values v(g) = (g * 37) % 101 - 50 (signed, in [-50, 50]).
  Kernel k = assemble(R"(
.kernel minmax
.shared 16
.param R
.param OLDS
  s2r r0, %tid.x
  s2r r1, %ctaid.x
  s2r r2, %ntid.x
  mad.lo.u32 r3, r1, r2, r0
  mul.lo.u32 r4, r3, 37
  rem.u32 r4, r4, 101
  sub.u32 r4, r4, 50
  ld.param.b32 r5, [R]
  atom.global.min.s32 r6, [r5], r4
  atom.global.max.s32 r7, [r5+4], r4
  atom.global.min.u32 r8, [r5+8], r4
  atom.global.max.u32 r9, [r5+12], r4
  mov.b32 r10, 0
  setp.ne.b32 p0, r0, 0
  @p0 bra SKIP_INIT
  mov.b32 r11, 0x7fffffff
  st.shared.b32 [0], r11
  mov.b32 r11, 0x80000000
  st.shared.b32 [4], r11
  mov.b32 r11, 0xffffffff
  st.shared.b32 [8], r11
  st.shared.b32 [12], r10
SKIP_INIT:
  bar.sync 0
  atom.shared.min.s32 r12, [r10], r4
  atom.shared.max.s32 r12, [r10+4], r4
  atom.shared.min.u32 r12, [r10+8], r4
  atom.shared.max.u32 r12, [r10+12], r4
  bar.sync 0
  @p0 exit
  shl.b32 r13, r1, 4
  ld.param.b32 r14, [R]
  add.u32 r14, r14, r13
  ld.shared.b32 r15, [0]
  st.global.b32 [r14+16], r15
  ld.shared.b32 r15, [4]
  st.global.b32 [r14+20], r15
  ld.shared.b32 r15, [8]
  st.global.b32 [r14+24], r15
  ld.shared.b32 r15, [12]
  st.global.b32 [r14+28], r15
  ld.param.b32 r14, [OLDS]
  st.global.b32 [r14], r6
  exit
)");
  const uint32_t blocks = 2, T = 50;
  GlobalMemory mem;
  uint32_t r = mem.allocate("r", 4 * 4 + blocks * 16), olds = mem.allocate("olds", 4);
  Words init(4 + 4 * blocks, 0);
  init[0] = 0x7fffffff;  // min.s32 identity
  init[1] = 0x80000000;  // max.s32 identity
  init[2] = 0xffffffff;  // min.u32 identity
  init[3] = 0;           // max.u32 identity
  mem.setWords("r", init);
  Interpreter(k, mem).run(launch({blocks}, {T}, {r, olds}, 8));
  auto v = [](uint32_t g) { return static_cast<int32_t>((g * 37) % 101) - 50; };
  int32_t mn = INT32_MAX, mx = INT32_MIN;
  uint32_t umn = UINT32_MAX, umx = 0;
  Words w = mem.words("r");
  for (uint32_t b = 0; b < blocks; ++b) {
    int32_t bmn = INT32_MAX, bmx = INT32_MIN;
    uint32_t bumn = UINT32_MAX, bumx = 0;
    for (uint32_t t = 0; t < T; ++t) {
      int32_t x = v(b * T + t);
      uint32_t u = static_cast<uint32_t>(x);
      bmn = std::min(bmn, x); bmx = std::max(bmx, x);
      bumn = std::min(bumn, u); bumx = std::max(bumx, u);
    }
    EXPECT_EQ(w[4 + 4 * b + 0], static_cast<uint32_t>(bmn)) << "block " << b;
    EXPECT_EQ(w[4 + 4 * b + 1], static_cast<uint32_t>(bmx)) << "block " << b;
    EXPECT_EQ(w[4 + 4 * b + 2], bumn) << "block " << b;
    EXPECT_EQ(w[4 + 4 * b + 3], bumx) << "block " << b;
    mn = std::min(mn, bmn); mx = std::max(mx, bmx);
    umn = std::min(umn, bumn); umx = std::max(umx, bumx);
  }
  EXPECT_EQ(w[0], static_cast<uint32_t>(mn));
  EXPECT_EQ(w[1], static_cast<uint32_t>(mx));
  EXPECT_EQ(w[2], umn);
  EXPECT_EQ(w[3], umx);
  EXPECT_EQ(mn, -50);
  EXPECT_EQ(mx, 50);
  EXPECT_EQ(umn, 0u);                         // v = 0 occurs
  EXPECT_EQ(umx, static_cast<uint32_t>(-1));  // v = -1 occurs
  // Thread 0 of block 1 stored last the old global minimum it replaced: block 0's minimum.
  int32_t block0Min = INT32_MAX;
  for (uint32_t t = 0; t < T; ++t) block0Min = std::min(block0Min, v(t));
  EXPECT_EQ(mem.words("olds")[0], static_cast<uint32_t>(block0Min));
}

TEST(InterpAtomics, ExchangeReturnsEveryValueOnce) {
  // Each thread swaps tid+1 into one word; the old values plus the final word are exactly
  // {0 (initial), 1, ..., n}.
  Kernel k = assemble(R"(
.kernel exch
.shared 4
.param SLOT
.param OLD
  s2r r0, %tid.x
  add.u32 r1, r0, 1
  ld.param.b32 r2, [SLOT]
  atom.global.exch.b32 r3, [r2], r1
  mov.b32 r4, 0
  atom.shared.exch.b32 r5, [r4], r1
  shl.b32 r6, r0, 3
  ld.param.b32 r7, [OLD]
  add.u32 r7, r7, r6
  st.global.b32 [r7], r3
  st.global.b32 [r7+4], r5
  bar.sync 0
  setp.ne.b32 p0, r0, 0
  @p0 exit
  ld.shared.b32 r8, [0]
  st.global.b32 [r2+4], r8
  exit
)");
  const uint32_t n = 70;
  GlobalMemory mem;
  uint32_t slot = mem.allocate("slot", 8), old = mem.allocate("old", n * 8);
  Interpreter(k, mem).run(launch({1}, {n}, {slot, old}, 16));
  Words o = mem.words("old"), s = mem.words("slot");
  std::multiset<uint32_t> g, sh, expect;
  for (uint32_t t = 0; t < n; ++t) {
    g.insert(o[2 * t]);
    sh.insert(o[2 * t + 1]);
  }
  g.insert(s[0]);
  sh.insert(s[1]);
  for (uint32_t i = 0; i <= n; ++i) expect.insert(i);
  EXPECT_EQ(g, expect);
  EXPECT_EQ(sh, expect);
}
