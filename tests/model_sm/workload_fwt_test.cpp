// The fwt workload (CUDA SDK fast Walsh transform, fwtBatch1Kernel, 256-thread blocks): its
// output equals the C++ reference bit for bit on the interpreter and on the timing model under
// baseline and DARSIE, with the exact instruction counts (also for an odd log2n, which runs
// the radix-2 stage), the limit study finds only uniform TB redundancy, and a corrupted input
// is caught by verify().
#include <gtest/gtest.h>

#include <cstdlib>

#include "isa/limit_study.h"
#include "model/sm/grid_runner.h"
#include "tests/model_sm/workload_test_support.h"
#include "workloads/workload.h"

using namespace simtlm;

namespace {

// N = 1024: 8 warps of 226 instructions (prologue 17, 4 copy-in iterations of 6, 5 radix-4
// stages of 30 plus 3 around them, no radix-2 stage (3), final barrier 1, copy-out 3 + 4 x 6,
// exit 1).
constexpr uint64_t kPerBlock = 8 * 226;

using test::TimedRun;

// SIMTLM_WORKLOAD_SIZE overrides the timing tests' batch count (to time the default by hand).
long timedBatches(long def) {
  const char* e = std::getenv("SIMTLM_WORKLOAD_SIZE");
  return e ? std::atol(e) : def;
}

TimedRun runTimed(const workloads::Options& o, config::Mechanism m) {
  return test::runAgainstInterpreter(*workloads::makeFwt(o), m);
}

uint64_t interpret(const workloads::Options& o, std::string* verify) {
  auto w = workloads::makeFwt(o);
  isa::GlobalMemory mem;
  auto counts = isa::Interpreter(workloads::loadKernel(*w), mem).run(w->setup(mem));
  *verify = w->verify(mem);
  return counts.warpInstructions;
}

}  // namespace

TEST(WorkloadFwt, InterpreterMatchesReferenceWithExactCounts) {
  std::string v;
  EXPECT_EQ(interpret({{"batches", 16}}, &v), kPerBlock * 16);
  EXPECT_EQ(v, "");
  EXPECT_EQ(interpret({{"batches", 3}, {"seed", 99}}, &v), kPerBlock * 3);
  EXPECT_EQ(v, "");
  // log2n = 9: 4 warps of 128 threads; 4 radix-4 stages and the radix-2 stage (2 iterations).
  EXPECT_EQ(interpret({{"batches", 3}, {"log2n", 9}}, &v), 2652u);
  EXPECT_EQ(v, "");
  // The smallest transforms: N = 4 (one thread) and N = 8 (two threads, radix-2 stage).
  EXPECT_EQ(interpret({{"batches", 3}, {"log2n", 2}}, &v), 318u);
  EXPECT_EQ(v, "");
  EXPECT_EQ(interpret({{"batches", 3}, {"log2n", 3}}, &v), 393u);
  EXPECT_EQ(v, "");
}

TEST(WorkloadFwt, DefaultSizeCount) {
  std::string v;
  EXPECT_EQ(interpret({}, &v), kPerBlock * 512);  // 512 transforms of 1024 points
  EXPECT_EQ(v, "");
}

TEST(WorkloadFwt, LimitStudyFindsUniformTbRedundancy) {
  auto w = workloads::makeFwt({{"batches", 16}});
  isa::GlobalMemory mem;
  isa::LimitStudy study;
  isa::Interpreter(workloads::loadKernel(*w), mem).run(w->setup(mem), &study);
  const auto& r = study.result();
  EXPECT_EQ(r.warpInstructions, kPerBlock * 16);
  // The block-uniform prologue and stride arithmetic: 38 instructions per warp. Every
  // butterfly index depends on threadIdx.x, which differs between the warps of a 1D block.
  EXPECT_EQ(r.tbRedundant, 38u * 8 * 16);
  EXPECT_EQ(r.tbByStructure[static_cast<int>(isa::Structure::Uniform)], r.tbRedundant);
}

TEST(WorkloadFwt, TimingModelBaselineEqualsInterpreter) {
  const TimedRun t = runTimed({{"batches", timedBatches(16)}}, config::Mechanism::Baseline);
  ASSERT_TRUE(test::matchesInterpreter(t));
  EXPECT_EQ(t.skipped, 0u);
  EXPECT_GT(t.cycles, 0u);
  ::testing::Test::RecordProperty("cycles", std::to_string(t.cycles));
}

TEST(WorkloadFwt, TimingModelDarsieEqualsInterpreter) {
  const TimedRun t = runTimed({{"batches", timedBatches(16)}}, config::Mechanism::Darsie);
  ASSERT_TRUE(test::matchesInterpreter(t));
  EXPECT_GT(t.skipped, 0u);
  ::testing::Test::RecordProperty("cycles", std::to_string(t.cycles));
  ::testing::Test::RecordProperty("skipped", std::to_string(t.skipped));
}

TEST(WorkloadFwt, TimingModelOddLog2nEqualsInterpreter) {
  const TimedRun t = runTimed({{"batches", 6}, {"log2n", 9}}, config::Mechanism::Darsie);
  ASSERT_TRUE(test::matchesInterpreter(t));
}

TEST(WorkloadFwt, CorruptedInputFailsVerification) {
  auto w = workloads::makeFwt({{"batches", 2}});
  isa::GlobalMemory mem;
  auto launch = w->setup(mem);
  auto src = mem.words("src");
  src[1500] ^= 0x00000100u;  // one input word of the second transform changes
  mem.setWords("src", src);
  isa::Interpreter(workloads::loadKernel(*w), mem).run(launch);
  EXPECT_NE(w->verify(mem), "");
}

TEST(WorkloadFwt, RejectsBadOptions) {
  EXPECT_THROW(workloads::makeFwt({{"batches", 0}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeFwt({{"log2n", 11}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeFwt({{"log2n", 1}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeFwt({{"size", 1024}}), std::invalid_argument);
}
