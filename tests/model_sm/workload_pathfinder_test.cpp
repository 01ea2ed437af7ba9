// The pathfinder workload (Rodinia dynproc_kernel, 1024-thread blocks, one launch per strip of
// pyramid_height rows, alternating the two result buffers): both result buffers equal the C++
// dynamic program bit for bit on the interpreter and on the timing model under baseline and
// DARSIE, the instruction counts are exact, the limit study finds only uniform TB redundancy,
// and a corrupted input or output is caught by verify().
#include <gtest/gtest.h>

#include <algorithm>

#include "isa/limit_study.h"
#include "tests/model_sm/workload_test_support.h"
#include "workloads/workload.h"

using namespace simtlm;

namespace {

// Per warp and launch of `it` iterations (workloads/kernels/pathfinder.s): 43 instructions of
// prologue (through the loop set-up), per iteration 6 (i+1, the computed predicate, its branch)
// + 4 (bar.sync, i++, the break test and branch), 6 more for every iteration but the last (the
// guarded copy back, bar.sync, the two steps, bra loop), 8 when some lane of the warp computes
// in that iteration (the three shared loads, two mins, the gpuWall load, add, store), the
// guarded exit (1) and 5 when some lane computed in the last iteration (the result store).
uint64_t warpCount(long it, long anyIters, bool anyLast) {
  return 43 + 10 * it + 6 * (it - 1) + 1 + 8 * anyIters + (anyLast ? 5 : 0);
}

// The whole run: the host's strips and the kernel's ranges (small_block_cols, blkX, validX,
// IN_RANGE(tx, i+1, 1022-i)) decide which warps have a computing lane in which iteration.
uint64_t expectedCount(long cols, long rows, long height) {
  const long blockCols = (cols + (1024 - 2 * height) - 1) / (1024 - 2 * height);
  uint64_t total = 0;
  for (long t = 0; t < rows - 1; t += height) {
    const long it = std::min(height, rows - t - 1);
    for (long bx = 0; bx < blockCols; ++bx) {
      const long blkX = (1024 - 2 * it) * bx - height;
      const long vmin = std::max(-blkX, 0L), vmax = std::min(cols - 1 - blkX, 1023L);
      for (long w = 0; w < 32; ++w) {
        long anyIters = 0;
        bool anyLast = false;
        for (long i = 0; i < it; ++i) {
          const long lo = std::max({32 * w, i + 1, vmin}), hi = std::min({32 * w + 31, 1022 - i, vmax});
          if (lo <= hi) {
            ++anyIters;
            anyLast = i == it - 1;
          }
        }
        total += warpCount(it, anyIters, anyLast);
      }
    }
  }
  return total;
}

uint64_t interpret(const workloads::Options& o, std::string* verify) {
  auto w = workloads::makePathfinder(o);
  isa::GlobalMemory mem;
  const uint64_t n = workloads::runOnInterpreter(*w, mem).warpInstructions;
  *verify = w->verify(mem);
  return n;
}

}  // namespace

TEST(WorkloadPathfinder, InterpreterMatchesReferenceWithExactCounts) {
  std::string v;
  // cols = 984, rows = 21: one launch of 20 iterations, one block whose small block is exactly
  // the 984 columns (blkX = -20, validX = [20, 1003]); every warp has a computing lane in every
  // iteration, so each runs 43 + 200 + 114 + 1 + 160 + 5 = 523 instructions.
  EXPECT_EQ(interpret({{"cols", 984}, {"rows", 21}}, &v), 32u * 523);
  EXPECT_EQ(v, "");
  EXPECT_EQ(expectedCount(984, 21, 20), 32u * 523);
  // Ragged: 3000 columns (4 blocks, the last mostly beyond the edge), 50 rows (strips of 20,
  // 20, 9; the last launch's blocks are wider than the host's grid assumes), another seed.
  EXPECT_EQ(interpret({{"cols", 3000}, {"rows", 50}, {"seed", 3}}, &v), expectedCount(3000, 50, 20));
  EXPECT_EQ(expectedCount(3000, 50, 20), 155014u);
  EXPECT_EQ(v, "");
  // Pyramid height 1 (one row per launch, 7 launches) and a tall pyramid of 100 rows.
  EXPECT_EQ(interpret({{"cols", 1500}, {"rows", 8}, {"pyramid_height", 1}}, &v), expectedCount(1500, 8, 1));
  EXPECT_EQ(v, "");
  EXPECT_EQ(interpret({{"cols", 1500}, {"rows", 130}, {"pyramid_height", 100}}, &v), expectedCount(1500, 130, 100));
  EXPECT_EQ(v, "");
}

TEST(WorkloadPathfinder, DefaultSizeCount) {
  std::string v;
  // 55104 cols (56 x 984), 100 rows, height 20: 5 launches of 56 blocks (scenarios/pathfinder.yaml)
  EXPECT_EQ(interpret({}, &v), 4642444u);
  EXPECT_EQ(expectedCount(55104, 100, 20), 4642444u);
  EXPECT_EQ(expectedCount(8000, 100, 20), 724149u);  // the default before issue 16: 9 blocks
  EXPECT_EQ(v, "");
}

TEST(WorkloadPathfinder, LaunchesAlternateTheResultBuffers) {
  auto w = workloads::makePathfinder({{"cols", 3000}, {"rows", 50}});
  isa::GlobalMemory mem;
  const auto steps = w->launches(mem);
  ASSERT_EQ(steps.size(), 3u);  // t = 0, 20, 40
  const uint32_t r0 = mem.region("result0").base, r1 = mem.region("result1").base;
  const uint32_t want[3][4] = {{20, r0, r1, 0}, {20, r1, r0, 20}, {9, r0, r1, 40}};  // iteration, src, dst, t
  for (size_t s = 0; s < steps.size(); ++s) {
    const auto& l = steps[s].launch;
    EXPECT_EQ(l.grid.x, 4u);  // ceil(3000 / 984)
    EXPECT_EQ(l.block.x, 1024u);
    EXPECT_EQ(l.params[0], want[s][0]);
    EXPECT_EQ(l.params[2], want[s][1]);
    EXPECT_EQ(l.params[3], want[s][2]);
    EXPECT_EQ(l.params[6], want[s][3]);
    EXPECT_EQ(l.params[7], 20u);  // border = pyramid_height
  }
  isa::GlobalMemory one;
  EXPECT_EQ(workloads::makePathfinder({{"rows", 2}})->launches(one).size(), 1u);  // a single row step
}

TEST(WorkloadPathfinder, LimitStudyFindsOnlyUniformTbRedundancy) {
  auto w = workloads::makePathfinder({{"cols", 984}, {"rows", 21}});
  isa::GlobalMemory mem;
  isa::LimitStudy study;
  workloads::runOnInterpreter(*w, mem, &study);
  const auto& r = study.result();
  EXPECT_EQ(r.warpInstructions, 32u * 523);
  // A 1D block: everything on tid.x differs between the 32 warps. Per warp: the prologue's 21
  // block-uniform instructions (ctaid, the six ld.params, small_block_cols (3), blkX (2),
  // validXmin (2), validXmax (3), the no-iteration test, the row step, i = 0 and 1022), and per
  // iteration i+1, i++ and the break test (3 x 20) and 1022 - i (all but the last, 19).
  // isValid is all true in warps 1..30 only (validX = [20, 1003]): not in every warp.
  EXPECT_EQ(r.tbRedundant, 32u * (21 + 60 + 19));
  EXPECT_EQ(r.tbByStructure[static_cast<int>(isa::Structure::Uniform)], r.tbRedundant);
}

TEST(WorkloadPathfinder, TimingModelBaselineEqualsInterpreter) {
  const auto t = test::runAgainstInterpreter(*workloads::makePathfinder({{"cols", 2000}, {"rows", 30}}),
                                             config::Mechanism::Baseline);
  ASSERT_TRUE(test::matchesInterpreter(t));
  EXPECT_EQ(t.skipped, 0u);
  EXPECT_GT(t.cycles, 0u);
  ::testing::Test::RecordProperty("cycles", std::to_string(t.cycles));
}

TEST(WorkloadPathfinder, TimingModelDarsieEqualsInterpreter) {
  const auto t = test::runAgainstInterpreter(*workloads::makePathfinder({{"cols", 2000}, {"rows", 30}}),
                                             config::Mechanism::Darsie);
  ASSERT_TRUE(test::matchesInterpreter(t));
  EXPECT_GT(t.skipped, 0u);
  ::testing::Test::RecordProperty("cycles", std::to_string(t.cycles));
  ::testing::Test::RecordProperty("skipped", std::to_string(t.skipped));
}

TEST(WorkloadPathfinder, CorruptedInputOrOutputFailsVerification) {
  auto w = workloads::makePathfinder({{"cols", 2000}, {"rows", 30}});
  const auto kernel = workloads::loadKernel(*w);
  {
    isa::GlobalMemory mem;
    const auto steps = w->launches(mem);
    auto wall = mem.words("wall");
    wall[28 * 2000 + 777] += 100;  // a cost of the last row (gpuWall starts at row 1): in every path ending there
    mem.setWords("wall", wall);
    for (const auto& s : steps) isa::Interpreter(kernel, mem).run(s.launch);
    EXPECT_NE(w->verify(mem), "");
  }
  // Two launches: result0 holds the final row, result1 the first strip's; both are checked.
  for (const char* buffer : {"result0", "result1"}) {
    isa::GlobalMemory mem;
    workloads::runOnInterpreter(*w, mem);
    ASSERT_EQ(w->verify(mem), "");
    auto words = mem.words(buffer);
    words[1999] ^= 1u;
    mem.setWords(buffer, words);
    EXPECT_NE(w->verify(mem), "") << buffer;
  }
}

TEST(WorkloadPathfinder, RejectsBadOptions) {
  EXPECT_THROW(workloads::makePathfinder({{"cols", 0}}), std::invalid_argument);
  EXPECT_THROW(workloads::makePathfinder({{"rows", 1}}), std::invalid_argument);
  EXPECT_THROW(workloads::makePathfinder({{"pyramid_height", 0}}), std::invalid_argument);
  EXPECT_THROW(workloads::makePathfinder({{"pyramid_height", 512}}), std::invalid_argument);  // no small block left
  EXPECT_THROW(workloads::makePathfinder({{"cols", 1L << 22}, {"rows", 100}}), std::invalid_argument);
  EXPECT_THROW(workloads::makePathfinder({{"block", 256}}), std::invalid_argument);
  EXPECT_NO_THROW(workloads::makeWorkload("pathfinder", {{"pyramid_height", 511}, {"cols", 64}}));
}
