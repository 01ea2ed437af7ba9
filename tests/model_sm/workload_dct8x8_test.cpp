// The dct8x8 workload (CUDA SDK DCT8x8, 8x8 blocks): its output equals the C++ reference bit
// for bit on the interpreter and on the timing model under baseline and DARSIE, with the exact
// instruction count, the limit study finds the DCT-matrix half TB-redundant, and a corrupted
// input is caught by verify().
#include <gtest/gtest.h>

#include <cstdlib>

#include "isa/limit_study.h"
#include "model/sm/grid_runner.h"
#include "tests/model_sm/workload_test_support.h"
#include "workloads/workload.h"

using namespace simtlm;

namespace {

// 82 warp instructions per warp (no branch: every instruction runs once), 2 warps per block.
constexpr uint64_t kPerBlock = 164;

using test::TimedRun;

// SIMTLM_WORKLOAD_SIZE overrides the timing tests' size (to time the default size by hand).
long timedSize(long def) {
  const char* e = std::getenv("SIMTLM_WORKLOAD_SIZE");
  return e ? std::atol(e) : def;
}

TimedRun runTimed(const workloads::Options& o, config::Mechanism m) {
  return test::runAgainstInterpreter(*workloads::makeDct8x8(o), m);
}

}  // namespace

TEST(WorkloadDct8x8, InterpreterMatchesReferenceWithExactCounts) {
  for (long size : {8L, 64L}) {
    auto w = workloads::makeDct8x8({{"size", size}});
    isa::Kernel k = workloads::loadKernel(*w);
    isa::GlobalMemory mem;
    auto launch = w->setup(mem);
    auto counts = isa::Interpreter(k, mem).run(launch);
    EXPECT_EQ(w->verify(mem), "") << size;
    EXPECT_EQ(counts.warpInstructions, kPerBlock * (size / 8) * (size / 8)) << size;
  }
  // A rectangular image: 24 x 16 pixels, 3 x 2 blocks.
  auto w = workloads::makeDct8x8({{"width", 24}, {"height", 16}, {"seed", 7}});
  isa::GlobalMemory mem;
  auto counts = isa::Interpreter(workloads::loadKernel(*w), mem).run(w->setup(mem));
  EXPECT_EQ(w->verify(mem), "");
  EXPECT_EQ(counts.warpInstructions, kPerBlock * 6);
}

TEST(WorkloadDct8x8, DefaultSizeCount) {
  auto w = workloads::makeDct8x8({});
  isa::GlobalMemory mem;
  auto counts = isa::Interpreter(workloads::loadKernel(*w), mem).run(w->setup(mem));
  EXPECT_EQ(w->verify(mem), "");
  EXPECT_EQ(counts.warpInstructions, kPerBlock * 64 * 64);  // 512 x 512: 4096 blocks
}

TEST(WorkloadDct8x8, LimitStudyFindsTbRedundancy) {
  auto w = workloads::makeDct8x8({{"size", 64}});
  isa::GlobalMemory mem;
  isa::LimitStudy study;
  isa::Interpreter(workloads::loadKernel(*w), mem).run(w->setup(mem), &study);
  const auto& r = study.result();
  EXPECT_EQ(r.warpInstructions, kPerBlock * 64);
  // The second pass's DCT-matrix loads and their address arithmetic (they depend on tx only)
  // and the block-uniform prologue are the same in both warps of a block.
  EXPECT_GT(r.tbRedundant, 0u);
  EXPECT_LT(r.tbRedundant, r.warpInstructions / 2);
}

TEST(WorkloadDct8x8, TimingModelBaselineEqualsInterpreter) {
  const TimedRun t = runTimed({{"size", timedSize(64)}}, config::Mechanism::Baseline);
  ASSERT_TRUE(test::matchesInterpreter(t));
  EXPECT_EQ(t.skipped, 0u);
  EXPECT_GT(t.cycles, 0u);
  ::testing::Test::RecordProperty("cycles", std::to_string(t.cycles));
}

TEST(WorkloadDct8x8, TimingModelDarsieEqualsInterpreter) {
  const TimedRun t = runTimed({{"size", timedSize(64)}}, config::Mechanism::Darsie);
  ASSERT_TRUE(test::matchesInterpreter(t));
  EXPECT_GT(t.skipped, 0u);
  ::testing::Test::RecordProperty("cycles", std::to_string(t.cycles));
  ::testing::Test::RecordProperty("skipped", std::to_string(t.skipped));
}

TEST(WorkloadDct8x8, CorruptedInputFailsVerification) {
  auto w = workloads::makeDct8x8({{"size", 16}});
  isa::GlobalMemory mem;
  auto launch = w->setup(mem);
  auto src = mem.words("src");
  src[77] ^= 0x00400000u;  // one pixel changes
  mem.setWords("src", src);
  isa::Interpreter(workloads::loadKernel(*w), mem).run(launch);
  EXPECT_NE(w->verify(mem), "");
}

TEST(WorkloadDct8x8, RejectsBadOptions) {
  EXPECT_THROW(workloads::makeDct8x8({{"size", 12}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeDct8x8({{"size", 0}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeDct8x8({{"width", 8192}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeDct8x8({{"n", 64}}), std::invalid_argument);
}
