// Semantics of the opcodes of isa/opcodes.def (see tests/isa/semantics_cases.h): atomics,
// their new memory word per row and their lane order on the interpreter.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/isa/semantics_cases.h"
#include "tests/isa/test_support.h"

namespace simtlm::test {

std::vector<Case> atomicCases() {
  std::vector<Case> v;
  for (Op add : {Op::ATOM_G_ADD_U32, Op::ATOM_S_ADD_U32}) {
    v.push_back({add, 5, 3, 0, 8});
    v.push_back({add, kAllOnes, 2, 0, 1});
  }
  for (Op add : {Op::ATOM_G_ADD_F32, Op::ATOM_S_ADD_F32}) {
    v.push_back({add, f(1.5f), f(2.25f), 0, f(3.75f)});
    v.push_back({add, f(1.0f), 0x33800000, 0, f(1.0f)});  // rounded like add.f32
    v.push_back({add, kInf, kNegInf, 0, kAnyNaN});
    v.push_back({add, kNaN, f(1.0f), 0, kAnyNaN});
  }
  for (Op mn : {Op::ATOM_G_MIN_S32, Op::ATOM_S_MIN_S32}) {
    v.push_back({mn, s(-1), 1, 0, s(-1)});
    v.push_back({mn, 1, s(-1), 0, s(-1)});
    v.push_back({mn, 4, 4, 0, 4});
  }
  for (Op mn : {Op::ATOM_G_MIN_U32, Op::ATOM_S_MIN_U32}) {
    v.push_back({mn, s(-1), 1, 0, 1});
    v.push_back({mn, 1, s(-1), 0, 1});
    v.push_back({mn, kIntMin, kIntMax, 0, kIntMax});
  }
  for (Op mx : {Op::ATOM_G_MAX_S32, Op::ATOM_S_MAX_S32}) {
    v.push_back({mx, s(-1), 1, 0, 1});
    v.push_back({mx, kIntMin, s(-5), 0, s(-5)});
  }
  for (Op mx : {Op::ATOM_G_MAX_U32, Op::ATOM_S_MAX_U32}) {
    v.push_back({mx, s(-1), 1, 0, kAllOnes});
    v.push_back({mx, 1, kIntMin, 0, kIntMin});
  }
  for (Op ex : {Op::ATOM_G_EXCH, Op::ATOM_S_EXCH}) {
    v.push_back({ex, 7, 9, 0, 9});
    v.push_back({ex, kAllOnes, 0, 0, 0});
  }
  for (Op cas : {Op::ATOM_G_CAS, Op::ATOM_S_CAS}) {
    v.push_back({cas, 7, 7, 42, 42});       // compare matches: swap
    v.push_back({cas, 7, 8, 42, 7});        // no match: unchanged
    v.push_back({cas, 0, 0, kAllOnes, kAllOnes});
    v.push_back({cas, kNegZero, kPosZero, 1, kNegZero});  // bitwise compare
  }
  return v;
}

TEST(SemanticsLane, AtomicNewWord) { checkTable(atomicCases()); }

// Atomics are performed lane by lane in lane order, and blocks run one after another.
const char* const kAtomicOrderKernel = R"(
.kernel atomics
.regs 12
.shared 16
.param CTR
.param OLD
  s2r r0, %tid.x
  s2r r1, %ctaid.x
  s2r r2, %ntid.x
  mad.lo.u32 r3, r1, r2, r0      // global thread id
  shl.b32 r4, r3, 2
  ld.param.b32 r5, [CTR]
  ld.param.b32 r6, [OLD]
  add.u32 r6, r6, r4             // OLD + 16 * gid, 4 words per thread
  add.u32 r6, r6, r4
  add.u32 r6, r6, r4
  add.u32 r6, r6, r4
  mov.b32 r7, 1
  atom.global.add.u32 r8, [r5], r7           // CTR[0]: counter
  st.global.b32 [r6], r8
  add.u32 r9, r3, 1
  atom.global.cas.b32 r8, [r5+4], r3, r9     // CTR[1]: lane l swaps l -> l+1
  st.global.b32 [r6+4], r8
  atom.global.exch.b32 r8, [r5+8], r3        // CTR[2]: last writer wins
  st.global.b32 [r6+8], r8
  mov.b32 r10, 0
  atom.shared.add.u32 r8, [r10], r7          // per block shared counter
  atom.shared.max.u32 r11, [r10+4], r3
  atom.shared.min.s32 r11, [r10+8], r3
  bar.sync
  ld.shared.b32 r11, [4]
  add.u32 r8, r8, r11            // shared counter old value + block's max gid
  st.global.b32 [r6+12], r8
  exit
)";

TEST(SemanticsInterp, AtomicsAreLaneOrdered) {
  const uint32_t threads = 64;  // 2 blocks of 32 threads, one warp each
  RunResult r = runKernel(kAtomicOrderKernel,
                          {{"CTR", {0, 0, 0xAAAA}}, {"OLD", std::vector<uint32_t>(4 * threads, 0)}},
                          dim(2), dim(32));
  auto ctr = r["CTR"], old = r["OLD"];
  EXPECT_EQ(ctr[0], threads);
  EXPECT_EQ(ctr[1], threads);       // the cas chain went all the way through
  EXPECT_EQ(ctr[2], threads - 1);   // last lane of the last block
  for (uint32_t g = 0; g < threads; ++g) {
    EXPECT_EQ(old[4 * g], g) << "add: lane order within a warp, block order across blocks";
    EXPECT_EQ(old[4 * g + 1], g) << "cas";
    EXPECT_EQ(old[4 * g + 2], g == 0 ? 0xAAAAu : g - 1) << "exch";
    uint32_t blockMax = (g / 32) * 32 + 31;
    EXPECT_EQ(old[4 * g + 3], g % 32 + blockMax) << "shared memory is per block and starts zeroed";
  }
}

// Shared atomics accept an absolute address [off] without a base register, like ld/st.shared.
const char* const kSharedAtomicAbsoluteKernel = R"(
.kernel satom
.shared 8
.param OUT
  s2r r0, %tid.x                 // r0 != 0: the address must not be taken from r0
  mov.b32 r1, 1
  atom.shared.add.u32 r2, [4], r1
  bar.sync 0
  ld.shared.b32 r3, [4]
  ld.param.b32 r4, [OUT]
  shl.b32 r5, r0, 3
  add.u32 r4, r4, r5
  st.global.b32 [r4], r2
  st.global.b32 [r4+4], r3
  exit
)";

TEST(SemanticsInterp, SharedAtomicAbsoluteAddress) {
  RunResult r = runKernel(kSharedAtomicAbsoluteKernel, {{"OUT", std::vector<uint32_t>(64, 0)}},
                          dim(1), dim(32));
  auto o = r["OUT"];
  for (uint32_t t = 0; t < 32; ++t) {
    EXPECT_EQ(o[2 * t], t) << "old value, lane " << t;
    EXPECT_EQ(o[2 * t + 1], 32u) << "final counter, lane " << t;
  }
}

}  // namespace simtlm::test
