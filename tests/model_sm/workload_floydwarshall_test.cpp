// The floydwarshall workload (Pannotia's naive Floyd-Warshall, (16,16) blocks, one launch per
// intermediate vertex k): every launch runs in order, the final distance and next matrices equal
// the C++ triple loop bit for bit on the interpreter and on the timing model under baseline and
// DARSIE, the instruction counts are exact, the x-only work (i, i*dim, the dist[i][k] column
// gather) is TB-redundant, and a corrupted input or output, or a missing launch, is caught by
// verify().
#include <gtest/gtest.h>

#include <set>
#include <utility>

#include "isa/limit_study.h"
#include "tests/model_sm/workload_test_support.h"
#include "workloads/workload.h"

using namespace simtlm;

namespace {

// Per warp and launch: 31 instructions when no lane of the warp relaxes its entry (13 up to and
// including the bounds exit, 18 from ld.param K to the update exit), 36 when some lane does (+5:
// st dist, ld.param NEXT, add, st next, exit). As in Pannotia, i = bx*16 + tx and j = by*16 + ty:
// a 16x16 block has 8 warps, warp w holds tx = 0..15 and ty = 2w, 2w+1, so it covers 16
// consecutive i for 2 consecutive j and is the pair (i / 16, j / 2).
constexpr uint64_t kPlain = 31, kUpdate = 5;

// The triple loop replayed on the workload's own input (within one k no update changes
// dist[i][k] or dist[k][j], so the serial order is the kernel's): how many (launch, warp) pairs
// relax at least one entry; how many (launch, block) pairs see one value of dist[k][j] over the
// block's 16 j (then every warp's sum dist[i][k] + dist[k][j] is the same vector), one value of
// dist[i][k] over its 16 i (then the dist[i][k] load is uniform, not unstructured), or both
// (then the sum is uniform too).
struct Replay {
  uint64_t updatingWarps = 0, sameRowBlocks = 0, sameColumnBlocks = 0, sameBothBlocks = 0;
};
Replay replay(std::vector<uint32_t> d, long n) {
  Replay r;
  for (long k = 0; k < n; ++k) {
    for (long bx = 0; bx < n / 16; ++bx)
      for (long by = 0; by < n / 16; ++by) {
        bool column = true, row = true;
        for (long t = 0; t < 16; ++t) {
          column = column && d[(bx * 16 + t) * n + k] == d[bx * 16 * n + k];
          row = row && d[k * n + by * 16 + t] == d[k * n + by * 16];
        }
        r.sameColumnBlocks += column;
        r.sameRowBlocks += row;
        r.sameBothBlocks += column && row;
      }
    std::set<std::pair<long, long>> warps;
    for (long i = 0; i < n; ++i)
      for (long j = 0; j < n; ++j) {
        const int32_t s = static_cast<int32_t>(d[i * n + k]) + static_cast<int32_t>(d[k * n + j]);
        if (s < static_cast<int32_t>(d[i * n + j])) {
          d[i * n + j] = static_cast<uint32_t>(s);
          warps.insert({i / 16, j / 2});
        }
      }
    r.updatingWarps += warps.size();
  }
  return r;
}

uint64_t expectedCount(long n, uint64_t updating) {
  const uint64_t warps = static_cast<uint64_t>(n / 16) * static_cast<uint64_t>(n / 16) * 8;
  return static_cast<uint64_t>(n) * warps * kPlain + kUpdate * updating;
}

struct Interpreted {
  uint64_t warpInstructions = 0, updating = 0;
  Replay replay;
  std::string verify;
};

Interpreted interpret(const workloads::Options& o) {
  auto w = workloads::makeFloydWarshall(o);
  isa::GlobalMemory mem;
  Interpreted r;
  r.warpInstructions = workloads::runOnInterpreter(*w, mem).warpInstructions;
  r.verify = w->verify(mem);
  isa::GlobalMemory fresh;
  w->setup(fresh);
  r.replay = replay(fresh.words("dist"), o.count("n") ? o.at("n") : 128);
  r.updating = r.replay.updatingWarps;
  return r;
}

}  // namespace

TEST(WorkloadFloydWarshall, InterpreterMatchesReferenceWithExactCounts) {
  // n = 16: 16 launches of one block; n = 32: 32 launches of 2x2 blocks; n = 48, another seed.
  // The updating-warp counts are those of the fixed-seed graphs (and the replay agrees).
  const struct {
    long n, seed;
    uint64_t updating;
  } cases[] = {{16, 1, 101}, {32, 1, 662}, {48, 7, 1866}};
  for (const auto& c : cases) {
    const Interpreted r = interpret({{"n", c.n}, {"seed", c.seed}});
    EXPECT_EQ(r.verify, "") << "n = " << c.n;
    EXPECT_EQ(r.updating, c.updating) << "n = " << c.n;
    EXPECT_EQ(r.warpInstructions, expectedCount(c.n, c.updating)) << "n = " << c.n;
  }
}

TEST(WorkloadFloydWarshall, DefaultSizeCount) {
  const Interpreted r = interpret({});
  EXPECT_EQ(r.verify, "");
  EXPECT_EQ(r.updating, 23818u);
  EXPECT_EQ(r.warpInstructions, 2150706u);  // n = 128: 128 x 64 blocks x 8 warps x 31 + 5 x 23818
  EXPECT_EQ(r.warpInstructions, expectedCount(128, r.updating));
}

TEST(WorkloadFloydWarshall, RunsOneLaunchPerVertexInOrder) {
  auto w = workloads::makeFloydWarshall({{"n", 32}});
  isa::GlobalMemory mem;
  const auto steps = w->launches(mem);
  ASSERT_EQ(steps.size(), 32u);
  for (size_t k = 0; k < steps.size(); ++k) {
    EXPECT_EQ(steps[k].kernel, 0u);
    EXPECT_EQ(steps[k].launch.grid.x, 2u);
    EXPECT_EQ(steps[k].launch.grid.y, 2u);
    EXPECT_EQ(steps[k].launch.block.x, 16u);
    EXPECT_EQ(steps[k].launch.block.y, 16u);
    ASSERT_EQ(steps[k].launch.params.size(), 4u);
    EXPECT_EQ(steps[k].launch.params[2], 32u);  // dim
    EXPECT_EQ(steps[k].launch.params[3], k);    // the intermediate vertex
  }
  // Only the first launch (k = 0) is not Floyd-Warshall: verify() must say so.
  isa::Interpreter(workloads::loadKernel(*w), mem).run(steps[0].launch);
  EXPECT_NE(w->verify(mem), "");
}

// Per warp and launch: uniform ctaid.x, ntid.x, ctaid.y, ntid.y, ld.param DIM/K/DIST, the i
// bound and the combined bound predicate (all false in every warp) - 9; unstructured tid.x, i,
// i*dim and the dist[i][k] address arithmetic and column load - 7 (tx repeats every 16 lanes).
// Everything on j = by*16 + ty differs between the warps, except the sum dist[i][k] +
// dist[k][j] in a block whose 16 values of j hold the same dist[k][j] - data-dependent,
// unstructured unless dist[i][k] is one value over the block's 16 i as well; the dist[i][k]
// load is uniform instead of unstructured in a block where it is one value. The update path
// runs with exited lanes, which the oracle never counts.
namespace {

void expectLimitStudy(long n, uint64_t sameRow, uint64_t sameColumn, uint64_t sameBoth) {
  auto w = workloads::makeFloydWarshall({{"n", n}});
  isa::GlobalMemory mem;
  isa::LimitStudy study;
  workloads::runOnInterpreter(*w, mem, &study);
  const auto& r = study.result();
  const Interpreted plain = interpret({{"n", n}});
  EXPECT_EQ(r.warpInstructions, expectedCount(n, plain.updating));
  EXPECT_EQ(plain.replay.sameRowBlocks, sameRow) << "n = " << n;
  EXPECT_EQ(plain.replay.sameColumnBlocks, sameColumn) << "n = " << n;
  EXPECT_EQ(plain.replay.sameBothBlocks, sameBoth) << "n = " << n;
  const uint64_t warps = static_cast<uint64_t>(n) * static_cast<uint64_t>(n / 16) * static_cast<uint64_t>(n / 16) * 8;
  EXPECT_EQ(r.tbByStructure[static_cast<int>(isa::Structure::Uniform)], 9 * warps + 8 * sameColumn + 8 * sameBoth);
  EXPECT_EQ(r.tbByStructure[static_cast<int>(isa::Structure::Unstructured)],
            7 * warps - 8 * sameColumn + 8 * (sameRow - sameBoth));
  EXPECT_EQ(r.tbByStructure[static_cast<int>(isa::Structure::Affine)], 0u);
  EXPECT_EQ(r.tbRedundant, 16 * warps + 8 * sameRow);
}

}  // namespace

TEST(WorkloadFloydWarshall, LimitStudyFindsXOnlyWorkTbRedundant) {
  expectLimitStudy(32, 0, 2, 0);  // two (launch, block) pairs load a single dist[i][k]
  expectLimitStudy(64, 4, 24, 0);  // 131,104 TB-redundant, 73,920 uniform
  // n = 128 (scenarios/floydwarshall.yaml): 1,051,264 TB-redundant, 592,272 uniform.
  expectLimitStudy(128, 336, 248, 58);
}

TEST(WorkloadFloydWarshall, TimingModelBaselineEqualsInterpreter) {
  const auto t = test::runAgainstInterpreter(*workloads::makeFloydWarshall({{"n", 32}}), config::Mechanism::Baseline);
  ASSERT_TRUE(test::matchesInterpreter(t));
  EXPECT_EQ(t.skipped, 0u);
  EXPECT_GT(t.cycles, 0u);
  ::testing::Test::RecordProperty("cycles", std::to_string(t.cycles));
}

TEST(WorkloadFloydWarshall, TimingModelDarsieEqualsInterpreter) {
  const auto t = test::runAgainstInterpreter(*workloads::makeFloydWarshall({{"n", 32}}), config::Mechanism::Darsie);
  ASSERT_TRUE(test::matchesInterpreter(t));
  EXPECT_GT(t.skipped, 0u);
  ::testing::Test::RecordProperty("cycles", std::to_string(t.cycles));
  ::testing::Test::RecordProperty("skipped", std::to_string(t.skipped));
}

TEST(WorkloadFloydWarshall, CorruptedInputOrOutputFailsVerification) {
  auto w = workloads::makeFloydWarshall({{"n", 32}});
  const auto kernel = workloads::loadKernel(*w);
  {
    isa::GlobalMemory mem;
    const auto steps = w->launches(mem);
    auto d = mem.words("dist");
    d[3 * 32 + 17] = 1;  // a new short edge 3 -> 17
    mem.setWords("dist", d);
    for (const auto& s : steps) isa::Interpreter(kernel, mem).run(s.launch);
    EXPECT_NE(w->verify(mem), "");
  }
  {
    isa::GlobalMemory mem;
    workloads::runOnInterpreter(*w, mem);
    ASSERT_EQ(w->verify(mem), "");
    auto next = mem.words("next");
    next[5] ^= 1u;  // one predecessor entry is wrong
    mem.setWords("next", next);
    EXPECT_NE(w->verify(mem), "");
  }
}

TEST(WorkloadFloydWarshall, RejectsBadOptions) {
  EXPECT_THROW(workloads::makeFloydWarshall({{"n", 0}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeFloydWarshall({{"n", 24}}), std::invalid_argument);  // not a multiple of 16
  EXPECT_THROW(workloads::makeFloydWarshall({{"n", 2048}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeFloydWarshall({{"seed", -1}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeFloydWarshall({{"size", 64}}), std::invalid_argument);
  EXPECT_NO_THROW(workloads::makeWorkload("floydwarshall", {{"n", 16}}));
}
