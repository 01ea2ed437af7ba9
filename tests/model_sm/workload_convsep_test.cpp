// The convsep workload (CUDA SDK convolutionTexture, 16x16 blocks, two launches: rows then
// columns): both passes equal the C++ reference bit for bit on the interpreter and on the
// timing model under baseline and DARSIE, with exact instruction counts per pass; the limit
// study finds the filter loads and the row pass's column clamps redundant; a corrupted input,
// intermediate or output is caught by verify().
#include <gtest/gtest.h>

#include "isa/limit_study.h"
#include "model/sm/grid_runner.h"
#include "tests/model_sm/workload_test_support.h"
#include "workloads/workload.h"

using namespace simtlm;

namespace {

// Per warp, no branch taken (the image is a multiple of the block): the row pass runs 162
// instructions (prologue 14, setup 7, 17 taps of 8 - add, max, min, shl, add, two loads, fma -
// minus the add of offset 0, store 6), the column pass 145 (prologue 14, setup 7, 17 taps of 7 -
// add, max, min, mad, two loads, fma - minus the add of offset 0, store 6).
constexpr uint64_t kRowsPerWarp = 162, kColsPerWarp = 145;
// TB-redundant per warp: rows 99 = prologue 10 (block constants, tid.x/ix, the bounds test,
// false everywhere) + setup 4 (SRC, imageW - 1, KERNEL, sum = 0) + 17 filter loads + the
// column clamps 16 * 4 + 3 + DST; columns 35 = prologue 10 + setup 7 (imageH - 1, the column
// pointer, the pitch, ...) + 17 filter loads + DST. Unstructured (tx-only): rows 2 + 67,
// columns 4 (tid.x, ix and the column pointer).
constexpr uint64_t kRedundantPerWarp = 99 + 35, kUnstructuredPerWarp = 69 + 4;

uint64_t interpret(const workloads::Options& o, std::string* verify, uint64_t* rowsOnly = nullptr) {
  auto w = workloads::makeConvSep(o);
  isa::GlobalMemory mem;
  const auto steps = w->launches(mem);
  const auto kernels = workloads::loadKernels(*w);
  uint64_t total = 0;
  for (size_t i = 0; i < steps.size(); ++i) {
    const auto c = isa::Interpreter(kernels.at(steps[i].kernel), mem).run(steps[i].launch);
    if (i == 0 && rowsOnly) *rowsOnly = c.warpInstructions;
    total += c.warpInstructions;
  }
  *verify = w->verify(mem);
  return total;
}

}  // namespace

TEST(WorkloadConvSep, TwoKernelsTwoLaunches) {
  auto w = workloads::makeConvSep({{"width", 32}, {"height", 16}});
  EXPECT_EQ(w->kernelFiles(), (std::vector<std::string>{"convsep_rows.s", "convsep_cols.s"}));
  isa::GlobalMemory mem;
  const auto steps = w->launches(mem);
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].kernel, 0u);
  EXPECT_EQ(steps[1].kernel, 1u);
  // rows: src -> tmp, columns: tmp -> dst; same grid, 16x16 blocks.
  EXPECT_EQ(steps[0].launch.params[0], mem.region("tmp").base);
  EXPECT_EQ(steps[0].launch.params[3], mem.region("src").base);
  EXPECT_EQ(steps[1].launch.params[0], mem.region("dst").base);
  EXPECT_EQ(steps[1].launch.params[3], mem.region("tmp").base);
  EXPECT_EQ(steps[1].launch.params[4], mem.region("kernel").base);
  EXPECT_EQ(steps[1].launch.grid.x, 2u);
  EXPECT_EQ(steps[1].launch.block.y, 16u);
}

TEST(WorkloadConvSep, InterpreterMatchesReferenceWithExactCounts) {
  std::string v;
  uint64_t rows = 0;
  EXPECT_EQ(interpret({{"width", 16}, {"height", 16}}, &v, &rows), 8 * (kRowsPerWarp + kColsPerWarp));
  EXPECT_EQ(rows, 8 * kRowsPerWarp);
  EXPECT_EQ(v, "");
  EXPECT_EQ(interpret({{"width", 48}, {"height", 80}, {"seed", 5}}, &v), 15 * 8 * (kRowsPerWarp + kColsPerWarp));
  EXPECT_EQ(v, "");
  EXPECT_EQ(interpret({}, &v), 628736u);  // the default 256x256: 2048 warps x 307
  EXPECT_EQ(v, "");
}

TEST(WorkloadConvSep, LimitStudyFindsFilterLoadsAndColumnClampsRedundant) {
  auto w = workloads::makeConvSep({{"width", 32}, {"height", 32}});
  isa::GlobalMemory mem;
  isa::LimitStudy study;
  workloads::runOnInterpreter(*w, mem, &study);  // the study's result sums both launches
  const auto& r = study.result();
  EXPECT_EQ(r.warpInstructions, 32 * (kRowsPerWarp + kColsPerWarp));
  EXPECT_EQ(r.tbRedundant, 32 * kRedundantPerWarp);
  EXPECT_EQ(r.tbByStructure[static_cast<int>(isa::Structure::Unstructured)], 32 * kUnstructuredPerWarp);
  EXPECT_EQ(r.tbByStructure[static_cast<int>(isa::Structure::Uniform)], 32u * (30 + 31));
  EXPECT_EQ(r.tbByStructure[static_cast<int>(isa::Structure::Affine)], 0u);
}

TEST(WorkloadConvSep, TimingModelBaselineEqualsInterpreter) {
  const auto t = test::runAgainstInterpreter(*workloads::makeConvSep({{"width", 64}, {"height", 64}}),
                                             config::Mechanism::Baseline);
  ASSERT_TRUE(test::matchesInterpreter(t));
  EXPECT_EQ(t.skipped, 0u);
  EXPECT_GT(t.cycles, 0u);
  ::testing::Test::RecordProperty("cycles", std::to_string(t.cycles));
}

TEST(WorkloadConvSep, TimingModelDarsieEqualsInterpreterAndSkips) {
  const auto t = test::runAgainstInterpreter(*workloads::makeConvSep({{"width", 64}, {"height", 64}}),
                                             config::Mechanism::Darsie);
  ASSERT_TRUE(test::matchesInterpreter(t));
  EXPECT_GT(t.skipped, 0u);
  // Only TB-redundant work can be skipped, and only by the 7 warps of each of the 16 blocks that
  // follow the leader.
  EXPECT_LE(t.skipped, 16 * 7 * kRedundantPerWarp);
  ::testing::Test::RecordProperty("cycles", std::to_string(t.cycles));
  ::testing::Test::RecordProperty("skipped", std::to_string(t.skipped));
}

TEST(WorkloadConvSep, CorruptedDataFailsVerification) {
  auto w = workloads::makeConvSep({{"width", 32}, {"height", 32}});
  isa::GlobalMemory good;
  workloads::runOnInterpreter(*w, good);
  ASSERT_EQ(w->verify(good), "");
  for (const char* buffer : {"tmp", "dst"}) {
    isa::GlobalMemory bad = good;
    auto words = bad.words(buffer);
    words[33] ^= 1u;  // one pixel's lowest bit
    bad.setWords(buffer, words);
    EXPECT_NE(w->verify(bad), "") << buffer;
  }
  // A changed input texel changes 17 row-pass pixels and the column pass around them.
  isa::GlobalMemory mem;
  const auto steps = w->launches(mem);
  auto src = mem.words("src");
  src[500] ^= 0x00000100u;
  mem.setWords("src", src);
  const auto kernels = workloads::loadKernels(*w);
  for (const auto& s : steps) isa::Interpreter(kernels.at(s.kernel), mem).run(s.launch);
  EXPECT_NE(w->verify(mem), "");
}

TEST(WorkloadConvSep, RejectsBadOptions) {
  EXPECT_THROW(workloads::makeConvSep({{"width", 40}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeConvSep({{"height", 8}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeConvSep({{"height", 8192}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeConvSep({{"radius", 4}}), std::invalid_argument);
  EXPECT_NO_THROW(workloads::makeConvSep({{"width", 16}, {"height", 4096}}));
}
