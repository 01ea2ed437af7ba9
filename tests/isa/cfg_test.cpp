// Control-flow graph: basic blocks, edges, dominators, post-dominators, reconvergence points and
// influence regions of small hand-written kernels whose graphs are known exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "isa/assembler.h"
#include "isa/cfg.h"
#include "tests/isa/test_support.h"

using namespace simtlm;
using namespace simtlm::isa;
using simtlm::test::labelPc;

namespace {

using Ints = std::vector<int>;

Ints sorted(Ints v) {
  std::sort(v.begin(), v.end());
  return v;
}

// Block boundaries as (first, last) instruction index pairs.
std::vector<std::pair<size_t, size_t>> spans(const Cfg& c) {
  std::vector<std::pair<size_t, size_t>> out;
  for (const auto& b : c.blocks()) out.push_back({b.first, b.last});
  return out;
}

// Every reachable block comes after its immediate dominator in reverse post-order.
void checkRpo(const Cfg& c) {
  const auto& rpo = c.reversePostOrder();
  ASSERT_FALSE(rpo.empty());
  EXPECT_EQ(rpo.front(), 0);
  for (size_t i = 0; i < rpo.size(); ++i) {
    int b = rpo[i];
    if (b == 0) continue;
    auto pos = std::find(rpo.begin(), rpo.end(), c.idom(b));
    ASSERT_NE(pos, rpo.end()) << "idom of block " << b << " not in RPO";
    EXPECT_LT(static_cast<size_t>(pos - rpo.begin()), i) << "block " << b;
  }
}

const char* kIfElse = R"(
.kernel ifelse
  s2r r0, %tid.x           // 0  B0
  setp.lt.u32 p0, r0, 4    // 1
  @p0 bra THEN             // 2
  mov.b32 r1, 2            // 3  B1 (else)
  bra JOIN                 // 4
THEN:
  mov.b32 r1, 1            // 5  B2 (then)
JOIN:
  add.u32 r1, r1, 1        // 6  B3
  exit                     // 7
)";

}  // namespace

TEST(Cfg, IfElseBlocksAndEdges) {
  Kernel k = assemble(kIfElse);
  Cfg c(k);
  ASSERT_EQ(c.numBlocks(), 4);
  EXPECT_EQ(c.exitNode(), 4);
  using P = std::pair<size_t, size_t>;
  EXPECT_EQ(spans(c), (std::vector<P>{{0, 2}, {3, 4}, {5, 5}, {6, 7}}));
  EXPECT_EQ(c.blockOf(0), 0);
  EXPECT_EQ(c.blockOf(2), 0);
  EXPECT_EQ(c.blockOf(3), 1);
  EXPECT_EQ(c.blockOf(5), 2);
  EXPECT_EQ(c.blockOf(7), 3);
  EXPECT_EQ(sorted(c.blocks()[0].succs), (Ints{1, 2}));
  EXPECT_EQ(c.blocks()[1].succs, (Ints{3}));
  EXPECT_EQ(c.blocks()[2].succs, (Ints{3}));
  EXPECT_EQ(c.blocks()[3].succs, (Ints{c.exitNode()}));
  EXPECT_TRUE(c.blocks()[0].preds.empty());
  EXPECT_EQ(c.blocks()[1].preds, (Ints{0}));
  EXPECT_EQ(c.blocks()[2].preds, (Ints{0}));
  EXPECT_EQ(sorted(c.blocks()[3].preds), (Ints{1, 2}));
}

TEST(Cfg, IfElseDominatorsAndReconvergence) {
  Kernel k = assemble(kIfElse);
  Cfg c(k);
  EXPECT_EQ(c.idom(0), -1);
  EXPECT_EQ(c.idom(1), 0);
  EXPECT_EQ(c.idom(2), 0);
  EXPECT_EQ(c.idom(3), 0);  // the join is reached from both arms
  EXPECT_EQ(c.ipdom(0), 3);
  EXPECT_EQ(c.ipdom(1), 3);
  EXPECT_EQ(c.ipdom(2), 3);
  EXPECT_EQ(c.ipdom(3), c.exitNode());
  EXPECT_TRUE(c.dominates(0, 3));
  EXPECT_TRUE(c.dominates(3, 3));
  EXPECT_FALSE(c.dominates(1, 3));
  EXPECT_FALSE(c.dominates(2, 3));
  EXPECT_TRUE(c.postDominates(3, 0));
  EXPECT_TRUE(c.postDominates(3, 1));
  EXPECT_FALSE(c.postDominates(1, 0));
  EXPECT_FALSE(c.postDominates(0, 3));
  EXPECT_EQ(c.reconvergencePc(0), labelPc(k, "JOIN"));
  EXPECT_EQ(c.reconvergencePc(0), Kernel::pcOf(6));
  EXPECT_EQ(c.reconvergencePc(3), Cfg::kNoReconvergence);
  EXPECT_EQ(c.influenceRegion(0), (Ints{1, 2}));
  EXPECT_TRUE(c.influenceRegion(3).empty());  // its only successor is the exit
  checkRpo(c);
  EXPECT_EQ(c.reversePostOrder().size(), 4u);
}

TEST(Cfg, NestedIfElse) {
  Kernel k = assemble(R"(
.kernel nested
  s2r r0, %tid.x            // 0  B0
  setp.lt.u32 p0, r0, 16    // 1
  @!p0 bra OUTER_ELSE       // 2
  setp.lt.u32 p1, r0, 8     // 3  B1
  @!p1 bra INNER_ELSE       // 4
  mov.b32 r1, 1             // 5  B2
  bra INNER_JOIN            // 6
INNER_ELSE:
  mov.b32 r1, 2             // 7  B3
INNER_JOIN:
  add.u32 r1, r1, 10        // 8  B4
  bra OUTER_JOIN            // 9
OUTER_ELSE:
  mov.b32 r1, 3             // 10 B5
OUTER_JOIN:
  add.u32 r1, r1, 100       // 11 B6
  exit                      // 12
)");
  Cfg c(k);
  ASSERT_EQ(c.numBlocks(), 7);
  using P = std::pair<size_t, size_t>;
  EXPECT_EQ(spans(c), (std::vector<P>{{0, 2}, {3, 4}, {5, 6}, {7, 7}, {8, 9}, {10, 10}, {11, 12}}));
  EXPECT_EQ(sorted(c.blocks()[0].succs), (Ints{1, 5}));
  EXPECT_EQ(sorted(c.blocks()[1].succs), (Ints{2, 3}));
  EXPECT_EQ(c.blocks()[2].succs, (Ints{4}));
  EXPECT_EQ(c.blocks()[4].succs, (Ints{6}));
  EXPECT_EQ(sorted(c.blocks()[6].preds), (Ints{4, 5}));

  EXPECT_EQ(c.idom(1), 0);
  EXPECT_EQ(c.idom(2), 1);
  EXPECT_EQ(c.idom(3), 1);
  EXPECT_EQ(c.idom(4), 1);
  EXPECT_EQ(c.idom(5), 0);
  EXPECT_EQ(c.idom(6), 0);
  EXPECT_EQ(c.ipdom(0), 6);
  EXPECT_EQ(c.ipdom(1), 4);
  EXPECT_EQ(c.ipdom(2), 4);
  EXPECT_EQ(c.ipdom(3), 4);
  EXPECT_EQ(c.ipdom(4), 6);
  EXPECT_EQ(c.ipdom(5), 6);
  EXPECT_EQ(c.ipdom(6), c.exitNode());
  EXPECT_TRUE(c.dominates(1, 4));
  EXPECT_FALSE(c.dominates(1, 6));
  EXPECT_TRUE(c.postDominates(4, 1));
  EXPECT_TRUE(c.postDominates(6, 1));
  EXPECT_FALSE(c.postDominates(4, 0));

  EXPECT_EQ(c.reconvergencePc(0), labelPc(k, "OUTER_JOIN"));
  EXPECT_EQ(c.reconvergencePc(1), labelPc(k, "INNER_JOIN"));
  EXPECT_EQ(c.influenceRegion(0), (Ints{1, 2, 3, 4, 5}));
  EXPECT_EQ(c.influenceRegion(1), (Ints{2, 3}));
  checkRpo(c);
}

TEST(Cfg, LoopWithBreak) {
  Kernel k = assemble(R"(
.kernel loopbreak
  s2r r0, %tid.x            // 0  B0
  mov.b32 r1, 0             // 1
LOOP:
  add.u32 r1, r1, 1         // 2  B1: header
  setp.ge.u32 p0, r1, r0    // 3
  @p0 bra DONE              // 4  break
  setp.lt.u32 p1, r1, 10    // 5  B2: latch
  @p1 bra LOOP              // 6  back edge
DONE:
  exit                      // 7  B3
)");
  Cfg c(k);
  ASSERT_EQ(c.numBlocks(), 4);
  using P = std::pair<size_t, size_t>;
  EXPECT_EQ(spans(c), (std::vector<P>{{0, 1}, {2, 4}, {5, 6}, {7, 7}}));
  EXPECT_EQ(c.blocks()[0].succs, (Ints{1}));
  EXPECT_EQ(sorted(c.blocks()[1].succs), (Ints{2, 3}));
  EXPECT_EQ(sorted(c.blocks()[2].succs), (Ints{1, 3}));
  EXPECT_EQ(sorted(c.blocks()[1].preds), (Ints{0, 2}));
  EXPECT_EQ(sorted(c.blocks()[3].preds), (Ints{1, 2}));

  EXPECT_EQ(c.idom(1), 0);
  EXPECT_EQ(c.idom(2), 1);
  EXPECT_EQ(c.idom(3), 1);
  EXPECT_EQ(c.ipdom(0), 1);
  EXPECT_EQ(c.ipdom(1), 3);
  EXPECT_EQ(c.ipdom(2), 3);
  EXPECT_EQ(c.ipdom(3), c.exitNode());
  EXPECT_TRUE(c.dominates(1, 2));
  EXPECT_FALSE(c.dominates(2, 1));
  EXPECT_TRUE(c.postDominates(3, 0));
  EXPECT_TRUE(c.postDominates(1, 0));
  EXPECT_FALSE(c.postDominates(2, 1));

  // Both the break and the back edge reconverge after the loop.
  EXPECT_EQ(c.reconvergencePc(1), labelPc(k, "DONE"));
  EXPECT_EQ(c.reconvergencePc(2), labelPc(k, "DONE"));
  EXPECT_EQ(c.reconvergencePc(0), labelPc(k, "LOOP"));
  // The loop body is under both branches, the header included (through the back edge).
  EXPECT_EQ(c.influenceRegion(1), (Ints{1, 2}));
  EXPECT_EQ(c.influenceRegion(2), (Ints{1, 2}));
  checkRpo(c);
}

TEST(Cfg, EarlyExitReconvergesOnlyAtKernelExit) {
  Kernel k = assemble(R"(
.kernel early
  s2r r0, %tid.x            // 0  B0
  setp.lt.u32 p0, r0, 4     // 1
  @p0 bra EARLY             // 2
  mov.b32 r1, 1             // 3  B1
  exit                      // 4
EARLY:
  mov.b32 r1, 2             // 5  B2
  exit                      // 6
)");
  Cfg c(k);
  ASSERT_EQ(c.numBlocks(), 3);
  EXPECT_EQ(sorted(c.blocks()[0].succs), (Ints{1, 2}));
  EXPECT_EQ(c.blocks()[1].succs, (Ints{c.exitNode()}));
  EXPECT_EQ(c.blocks()[2].succs, (Ints{c.exitNode()}));
  EXPECT_EQ(c.ipdom(0), c.exitNode());
  EXPECT_EQ(c.ipdom(1), c.exitNode());
  EXPECT_EQ(c.reconvergencePc(0), Cfg::kNoReconvergence);
  EXPECT_EQ(c.influenceRegion(0), (Ints{1, 2}));
  EXPECT_FALSE(c.postDominates(1, 0));
  EXPECT_FALSE(c.postDominates(2, 0));
  EXPECT_TRUE(c.postDominates(c.exitNode(), 0));
  checkRpo(c);
}

TEST(Cfg, GuardedExitEndsABlockWithTwoSuccessors) {
  Kernel k = assemble(R"(
.kernel gexit
  s2r r0, %tid.x            // 0  B0
  setp.ge.u32 p0, r0, 20    // 1
  @p0 exit                  // 2
  add.u32 r1, r0, 1         // 3  B1
  setp.lt.u32 p1, r1, 5     // 4
  @p1 bra SKIP              // 5
  add.u32 r1, r1, 1         // 6  B2
SKIP:
  exit                      // 7  B3
)");
  Cfg c(k);
  ASSERT_EQ(c.numBlocks(), 4);
  EXPECT_EQ(sorted(c.blocks()[0].succs), (Ints{1, c.exitNode()}));
  EXPECT_EQ(c.ipdom(0), c.exitNode());
  EXPECT_EQ(c.reconvergencePc(0), Cfg::kNoReconvergence);
  // An if without else reconverges at its target.
  EXPECT_EQ(c.ipdom(1), 3);
  EXPECT_EQ(c.reconvergencePc(1), labelPc(k, "SKIP"));
  EXPECT_EQ(c.influenceRegion(1), (Ints{2}));
  EXPECT_EQ(c.idom(3), 1);
}

TEST(Cfg, UnreachableCodeAndEndlessLoop) {
  Kernel k = assemble(R"(
.kernel odd
  s2r r0, %tid.x            // 0  B0
  setp.eq.b32 p0, r0, 0     // 1
  @p0 bra SPIN              // 2
  exit                      // 3  B1
  add.u32 r1, r1, 1         // 4  B2: unreachable
  exit                      // 5
SPIN:
  bra SPIN                  // 6  B3: never reaches the exit
)");
  Cfg c(k);
  ASSERT_EQ(c.numBlocks(), 4);
  EXPECT_EQ(c.blocks()[3].succs, (Ints{3}));
  EXPECT_EQ(c.idom(2), -1);  // unreachable
  auto rpo = c.reversePostOrder();
  EXPECT_EQ(std::count(rpo.begin(), rpo.end(), 2), 0);
  EXPECT_EQ(rpo.size(), 3u);
  EXPECT_EQ(c.ipdom(3), c.exitNode());  // an endless loop is post-dominated by the exit
  // Paths that never end do not count for post-dominance: the branch into the endless loop
  // "reconverges" at the exit block (lanes in the loop only ever leave through the watchdog).
  EXPECT_EQ(c.ipdom(0), 1);
  EXPECT_EQ(c.reconvergencePc(0), Kernel::pcOf(3));
  EXPECT_FALSE(c.dominates(0, 2));
}
