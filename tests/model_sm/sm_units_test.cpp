// Scoreboard, issue-scheduler policies and the instruction buffer, with exact outcomes.
#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "model/sm/ibuffer.h"
#include "model/sm/scoreboard.h"
#include "model/sm/warp_scheduler.h"

using namespace simtlm;

TEST(Scoreboard, BlocksRawAndWawUntilRelease) {
  isa::Kernel k = isa::assemble(R"(
.kernel s
  ld.global.b32 r1, [r2]
  add.u32 r3, r1, 1
  mov.b32 r1, 5
  add.u32 r4, r5, r6
  setp.lt.u32 p0, r4, 3
  @p0 add.u32 r7, r7, 1
)", "s.s");
  sm::Scoreboard sb(2);
  sb.reserve(0, k.instrs[0]);
  EXPECT_FALSE(sb.canIssue(0, k.instrs[1]));  // RAW on r1
  EXPECT_FALSE(sb.canIssue(0, k.instrs[2]));  // WAW on r1
  EXPECT_TRUE(sb.canIssue(0, k.instrs[3]));   // independent
  EXPECT_TRUE(sb.canIssue(1, k.instrs[1]));   // other warp
  sb.reserve(0, k.instrs[4]);                 // p0 pending
  EXPECT_FALSE(sb.canIssue(0, k.instrs[5]));  // guard predicate is a source
  sb.release(0, k.instrs[0]);
  EXPECT_TRUE(sb.canIssue(0, k.instrs[1]));
  EXPECT_FALSE(sb.idle(0));
  sb.release(0, k.instrs[4]);
  EXPECT_TRUE(sb.idle(0));
}

TEST(WarpScheduler, GreedyThenOldest) {
  auto s = sm::makeScheduler(config::SchedPolicy::Gto, 4);
  s->setAge(0, 30);
  s->setAge(1, 10);
  s->setAge(2, 20);
  s->setAge(3, 40);
  EXPECT_EQ(s->pick({true, true, true, true}), 1);    // oldest
  EXPECT_EQ(s->pick({true, true, true, true}), 1);    // greedy: stays
  EXPECT_EQ(s->pick({true, false, true, true}), 2);   // 1 stalls: next oldest
  EXPECT_EQ(s->pick({true, true, true, true}), 2);    // greedy on 2 now
  EXPECT_EQ(s->pick({false, false, false, false}), -1);
}

TEST(WarpScheduler, LooseRoundRobin) {
  auto s = sm::makeScheduler(config::SchedPolicy::Lrr, 4);
  EXPECT_EQ(s->pick({true, true, true, true}), 0);
  EXPECT_EQ(s->pick({true, true, true, true}), 1);
  EXPECT_EQ(s->pick({true, false, false, true}), 3);
  EXPECT_EQ(s->pick({true, true, false, false}), 0);
  EXPECT_EQ(s->pick({false, false, false, false}), -1);
}

// The SM walks priority() up to the first ready warp and reports it with issued(): the same
// warp as pick() over the same readiness.
TEST(WarpScheduler, PriorityWalkMatchesPick) {
  for (auto policy : {config::SchedPolicy::Gto, config::SchedPolicy::Lrr}) {
    auto picker = sm::makeScheduler(policy, 4), walker = sm::makeScheduler(policy, 4);
    for (int i = 0; i < 4; ++i) {
      picker->setAge(i, static_cast<uint64_t>((i * 7) % 4));
      walker->setAge(i, static_cast<uint64_t>((i * 7) % 4));
    }
    for (unsigned m : {15u, 15u, 13u, 15u, 6u, 0u, 9u, 9u, 2u}) {
      std::vector<bool> ready(4);
      for (int i = 0; i < 4; ++i) ready[i] = (m >> i) & 1u;
      const sm::WarpScheduler::Priority p = walker->priority();
      int walked = p.first >= 0 && ready[p.first] ? p.first : -1;
      for (int k = 0; k < p.n && walked < 0; ++k)
        if (ready[p.order[k]]) walked = p.order[k];
      if (walked >= 0) walker->issued(walked);
      EXPECT_EQ(walked, picker->pick(ready)) << "ready mask " << m;
    }
  }
}

TEST(IBuffer, TwoEntriesInOrderWithFlush) {
  sm::IBuffer b(2);
  EXPECT_TRUE(b.empty());
  b.push({0, {}});
  b.push({8, {}});
  EXPECT_TRUE(b.full());
  EXPECT_EQ(b.front().pc, 0u);
  b.pop();
  EXPECT_EQ(b.front().pc, 8u);
  b.flush();
  EXPECT_TRUE(b.empty());
}

// Skips take no room, so the ring outgrows its inline entries (wrapped round when it does) and
// moves to the heap with its order kept; a copy keeps the entries wherever they live.
TEST(IBuffer, GrowsPastInlineEntriesInOrderAndCopies) {
  sm::IBuffer b(2);
  b.push({0, {}});
  b.pop();  // head now at slot 1: the next pushes wrap round
  sm::IBufferEntry skip{8, {}};
  skip.skip = true;
  b.push(skip);
  b.push({16, {}});
  b.push({24, {}});  // third entry: past the inline two
  EXPECT_TRUE(b.full());
  EXPECT_EQ(b.count(), 3);
  EXPECT_EQ(b.skips(), 1);
  const sm::IBuffer copy = b;
  for (const sm::IBuffer* x : {static_cast<const sm::IBuffer*>(&b), &copy}) {
    ASSERT_EQ(x->count(), 3);
    EXPECT_EQ(x->entry(0).pc, 8u);
    EXPECT_TRUE(x->entry(0).skip);
    EXPECT_EQ(x->entry(1).pc, 16u);
    EXPECT_EQ(x->entry(2).pc, 24u);
  }
  b.pop();
  EXPECT_EQ(b.front().pc, 16u);
  EXPECT_EQ(b.skips(), 0);
  EXPECT_EQ(copy.front().pc, 8u);  // the copy is its own
  sm::IBuffer big(3);  // a capacity past the inline entries starts on the heap
  for (uint32_t pc : {0u, 8u, 16u}) big.push({pc, {}});
  EXPECT_TRUE(big.full());
  EXPECT_EQ(big.entry(2).pc, 16u);
}

// The SM looks for a ready warp in priority() order and stops at the first: the same choice as
// pick() over the whole readiness vector, for both policies and any sequence of masks.
TEST(WarpScheduler, PriorityOrderMatchesPick) {
  for (auto policy : {config::SchedPolicy::Gto, config::SchedPolicy::Lrr}) {
    auto picker = sm::makeScheduler(policy, 5), scanner = sm::makeScheduler(policy, 5);
    for (int i = 0; i < 5; ++i) {
      picker->setAge(i, static_cast<uint64_t>((i * 3) % 5));
      scanner->setAge(i, static_cast<uint64_t>((i * 3) % 5));
    }
    int picks = 0;
    for (unsigned m : {31u, 31u, 29u, 31u, 6u, 0u, 9u, 9u, 2u, 16u, 31u, 12u}) {
      std::vector<bool> ready(5);
      for (int i = 0; i < 5; ++i) ready[i] = (m >> i) & 1u;
      const auto p = scanner->priority();
      int found = p.first >= 0 && ready[p.first] ? p.first : -1;
      for (int k = 0; k < p.n && found < 0; ++k)
        if (ready[p.order[k]]) found = p.order[k];
      if (found >= 0) scanner->issued(found);
      const int expected = picker->pick(ready);
      EXPECT_EQ(found, expected) << "ready mask " << m;
      picks += expected >= 0;
    }
    EXPECT_EQ(picks, 11);
  }
}

// The issue stage visits only candidate warps, ordered by Priority::position: it must be the
// inverse of order, after any issue (LRR rotates) and any change of ages (GTO re-sorts).
TEST(WarpScheduler, PositionIsTheInverseOfOrder) {
  for (auto policy : {config::SchedPolicy::Gto, config::SchedPolicy::Lrr}) {
    auto s = sm::makeScheduler(policy, 6);
    for (int step = 0; step < 12; ++step) {
      if (step % 3 == 0) s->setAge(step % 6, static_cast<uint64_t>(100 - step));
      else s->issued((step * 5) % 6);
      const auto p = s->priority();
      ASSERT_EQ(p.n, 6);
      std::vector<int> seen(6, 0);
      for (int k = 0; k < p.n; ++k) {
        EXPECT_EQ(p.position[p.order[k]], k) << "step " << step << ", place " << k;
        seen[static_cast<size_t>(p.order[k])]++;
      }
      EXPECT_EQ(seen, std::vector<int>(6, 1)) << "step " << step;
    }
  }
  // LRR after issuing warp 3 of 6 looks at 4, 5, 0, 1, 2, 3: warp 0 stands third.
  auto lrr = sm::makeScheduler(config::SchedPolicy::Lrr, 6);
  lrr->issued(3);
  EXPECT_EQ(lrr->priority().position[0], 2);
  EXPECT_EQ(lrr->priority().position[3], 5);
}
