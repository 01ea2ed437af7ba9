// Liveness: use/def sets per instruction and backward liveness across loops and branches.
#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "isa/liveness.h"

using namespace simtlm::isa;

namespace {

Kernel asmKernel(const std::string& body) {
  return assemble(".kernel t\n.regs 24\n.param P\n" + body);
}
Instr one(const std::string& line) { return asmKernel(line + "\nexit\n").instrs[0]; }
RegSet gprs(std::initializer_list<int> rs, std::initializer_list<int> ps = {}) {
  RegSet s;
  for (int r : rs) s.gpr |= uint64_t{1} << r;
  for (int p : ps) s.pred = static_cast<uint8_t>(s.pred | 1u << p);
  return s;
}

}  // namespace

TEST(Liveness, UsesAndWritesPerFormat) {
  EXPECT_EQ(usesOf(one("add.u32 r1, r2, 5")), gprs({2}));
  EXPECT_EQ(usesOf(one("mad.lo.u32 r1, r2, r3, r4")), gprs({2, 3, 4}));
  EXPECT_EQ(usesOf(one("selp.b32 r1, r2, r3, p4")), gprs({2, 3}, {4}));
  EXPECT_EQ(usesOf(one("selp.b32 r1, r2, r3, pt")), gprs({2, 3}));  // pt is never tracked
  EXPECT_EQ(usesOf(one("st.global.b32 [r5+8], r6")), gprs({5, 6}));
  EXPECT_EQ(usesOf(one("st.shared.b32 [8], r7")), gprs({7}));
  EXPECT_EQ(usesOf(one("ld.param.b32 r1, [P]")), gprs({}));
  EXPECT_EQ(usesOf(one("atom.global.add.u32 r1, [r2], r3")), gprs({2, 3}));
  EXPECT_EQ(usesOf(one("atom.global.cas.b32 r1, [r2+4], r3, r4")), gprs({2, 3, 4}));
  EXPECT_EQ(writesOf(one("atom.global.cas.b32 r1, [r2+4], r3, r4")), gprs({1}));
  EXPECT_EQ(usesOf(one("pand p1, p2, pt")), gprs({}, {2}));
  EXPECT_EQ(writesOf(one("setp.lt.u32 p3, r1, r2")), gprs({}, {3}));
  EXPECT_EQ(usesOf(one("s2r r1, %tid.x")), gprs({}));
  // A guarded write reads its guard and its old destination, and kills nothing.
  Instr g = one("@!p3 ld.global.b32 r5, [r6]");
  EXPECT_EQ(usesOf(g), gprs({5, 6}, {3}));
  EXPECT_EQ(writesOf(g), gprs({5}));
  EXPECT_TRUE(killsOf(g).empty());
  EXPECT_EQ(killsOf(one("ld.global.b32 r5, [r6]")), gprs({5}));
  EXPECT_EQ(usesOf(one("@p2 setp.eq.b32 p1, r0, 1")), gprs({0}, {1, 2}));
  EXPECT_EQ(usesOf(one("@p2 exit")), gprs({}, {2}));
}

TEST(Liveness, StraightLineKill) {
  Kernel k = asmKernel(R"(
  mov.b32 r1, 5           // 0
  add.u32 r2, r1, 1       // 1
  mov.b32 r1, 7           // 2: kills r1
  add.u32 r3, r1, r2      // 3
  st.shared.b32 [r3], r2  // 4
  exit                    // 5
)");
  Cfg cfg(k);
  Liveness lv(k, cfg);
  EXPECT_TRUE(lv.liveIn(0).empty());
  EXPECT_EQ(lv.liveOut(0), gprs({1}));
  EXPECT_EQ(lv.liveOut(1), gprs({2}));  // r1 is dead until its redefinition
  EXPECT_EQ(lv.liveOut(2), gprs({1, 2}));
  EXPECT_EQ(lv.liveOut(3), gprs({2, 3}));
  EXPECT_TRUE(lv.liveOut(4).empty());
}

TEST(Liveness, LoopCarriesValuesAroundBackEdge) {
  Kernel k = asmKernel(R"(
  mov.b32 r0, 0             // 0
  mov.b32 r1, 0             // 1
  mov.b32 r5, 3             // 2: used only after the loop
loop:
  add.u32 r1, r1, r0        // 3
  add.u32 r0, r0, 1         // 4
  setp.lt.u32 p0, r0, 10    // 5
  @p0 bra loop              // 6
  add.u32 r1, r1, r5        // 7
  st.shared.b32 [0], r1     // 8
  exit                      // 9
)");
  Cfg cfg(k);
  Liveness lv(k, cfg);
  EXPECT_TRUE(lv.liveIn(0).empty());
  EXPECT_EQ(lv.liveIn(3), gprs({0, 1, 5}));
  EXPECT_EQ(lv.liveOut(5), gprs({0, 1, 5}, {0}));
  EXPECT_EQ(lv.liveIn(6), gprs({0, 1, 5}, {0}));
  EXPECT_EQ(lv.liveOut(6), gprs({0, 1, 5}));  // the back edge keeps r0 live after the branch
  EXPECT_EQ(lv.liveIn(7), gprs({1, 5}));       // the loop counter is dead after the loop
  EXPECT_EQ(lv.liveOut(7), gprs({1}));
}

TEST(Liveness, IfElseJoin) {
  Kernel k = asmKernel(R"(
  s2r r0, %tid.x              // 0
  mov.b32 r4, 11              // 1: used only in the then branch
  setp.lt.u32 p1, r0, 4       // 2
  @p1 bra then                // 3
  mov.b32 r2, 1               // 4: else
  bra join                    // 5
then:
  mov.b32 r3, 9               // 6: dead
  add.u32 r2, r0, r4          // 7
join:
  st.shared.b32 [r0], r2      // 8
  exit                        // 9
)");
  Cfg cfg(k);
  Liveness lv(k, cfg);
  EXPECT_EQ(lv.liveOut(2), gprs({0, 4}, {1}));
  EXPECT_EQ(lv.liveOut(3), gprs({0, 4}));
  EXPECT_EQ(lv.liveIn(4), gprs({0}));          // r4 is not live on the else path
  EXPECT_EQ(lv.liveOut(4), gprs({0, 2}));
  EXPECT_EQ(lv.liveIn(6), gprs({0, 4}));
  EXPECT_EQ(lv.liveOut(6), gprs({0, 4}));      // r3 is never read
  EXPECT_EQ(lv.liveIn(8), gprs({0, 2}));
  EXPECT_FALSE(lv.liveIn(0).hasGpr(2));
}

TEST(Liveness, GuardedDefinitionKeepsOldValueLive) {
  Kernel guardedK = asmKernel(R"(
  mov.b32 r1, 1               // 0
  setp.eq.b32 p2, r0, 0       // 1
  @p2 mov.b32 r1, 2           // 2
  st.shared.b32 [0], r1       // 3
  exit
)");
  Cfg cfg(guardedK);
  Liveness lv(guardedK, cfg);
  EXPECT_EQ(lv.liveIn(0), gprs({0}));  // r0 is read before any write (zero-initialized)
  EXPECT_EQ(lv.liveOut(0), gprs({0, 1}));
  EXPECT_EQ(lv.liveIn(2), gprs({1}, {2}));
  EXPECT_EQ(lv.liveOut(2), gprs({1}));

  Kernel plain = asmKernel(R"(
  mov.b32 r1, 1
  setp.eq.b32 p2, r0, 0
  mov.b32 r1, 2
  st.shared.b32 [0], r1
  exit
)");
  Cfg cfg2(plain);
  Liveness lv2(plain, cfg2);
  EXPECT_EQ(lv2.liveOut(0), gprs({0}));  // the unguarded redefinition kills r1
  EXPECT_TRUE(lv2.liveIn(2).empty());
}

TEST(Liveness, GuardedExitKeepsFallThroughLive) {
  Kernel k = asmKernel(R"(
  mov.b32 r1, 4               // 0
  setp.eq.b32 p0, r0, 0       // 1
  @p0 exit                    // 2
  st.shared.b32 [0], r1       // 3
  exit                        // 4
)");
  Cfg cfg(k);
  Liveness lv(k, cfg);
  EXPECT_EQ(lv.liveIn(2), gprs({1}, {0}));
  EXPECT_EQ(lv.liveOut(2), gprs({1}));
  EXPECT_TRUE(lv.liveOut(3).empty());
}
