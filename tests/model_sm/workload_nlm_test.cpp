// The nlm workload (CUDA SDK imageDenoising NLM, 16x16 blocks): its output equals the C++
// reference bit for bit on the interpreter and on the timing model under baseline and DARSIE,
// with the exact instruction counts; the limit study finds the tx-only column clamps redundant
// across the 8 warps of a block; a corrupted input or output is caught by verify().
#include <gtest/gtest.h>

#include "isa/limit_study.h"
#include "model/sm/grid_runner.h"
#include "tests/model_sm/workload_test_support.h"
#include "workloads/workload.h"

using namespace simtlm;

namespace {

// Every warp runs the same 21913 instructions (no branch depends on the data or the position:
// the clamps are min/max; the loops as nvcc shapes them, gen_nlm.py): prologue 49 (18, the 7
// hoisted x + m columns 6 x 4 + 3, 4 movs); per i (7): 3 + 7 j iterations + 3; per j: 31
// (weightIJ = 0, ix + j, the 7 hoisted x + j + m columns 27, n = -3, the bra into the unrolled n
// loop) + 7 n iterations of 55 (two clamped row pointers 12, 7 taps of 6, n++) + 4 exit tests
// of 2 + 21 (weight 6, clrIJ fetch 8, accumulate 4, loop 3); epilogue 17.
// j: 31 + 7*55 + 4*2 + 21 = 445; i: 3 + 7*445 + 3 = 3121; 49 + 7*3121 + 17 = 21913.
constexpr uint64_t kPerWarp = 21913;
constexpr uint64_t kPerBlock = 8 * kPerWarp;  // 16x16 threads
// TB-redundant per warp (all 8 warps of a block repeat it): uniform 990 = prologue 16 (block
// constants, parameters, the bounds test, false everywhere, the 4 movs) + per i 5 (7) + per j 7
// (49: weightIJ = 0, n = -3, the geometric weight term 3, j++ and its compare) + n++ (343) +
// the n loop's compare (196) + the centre window (i = j = 0), whose distance is 0 in every
// warp: 49 fma + 4 (weight, ex2, compare) + epilogue 4 (lerpC, 1 - lerpC, DST); unstructured
// 1401 = tid.x, ix, the 27 hoisted x + m column instructions, per j (49) ix + j and the 27
// hoisted x + j + m column instructions.
constexpr uint64_t kRedundantPerWarp = 2391, kUnstructuredPerWarp = 1401;

uint64_t interpret(const workloads::Options& o, std::string* verify) {
  auto w = workloads::makeNlm(o);
  isa::GlobalMemory mem;
  auto counts = workloads::runOnInterpreter(*w, mem);
  *verify = w->verify(mem);
  return counts.warpInstructions;
}

}  // namespace

TEST(WorkloadNlm, InterpreterMatchesReferenceWithExactCounts) {
  std::string v;
  EXPECT_EQ(interpret({{"width", 16}, {"height", 16}}, &v), kPerBlock);
  EXPECT_EQ(v, "");
  EXPECT_EQ(interpret({{"width", 48}, {"height", 32}, {"seed", 7}}, &v), kPerBlock * 6);
  EXPECT_EQ(v, "");
  EXPECT_EQ(interpret({}, &v), kPerBlock * 56);  // the default 128x112 (scenarios/nlm.yaml)
  EXPECT_EQ(v, "");
}

TEST(WorkloadNlm, LimitStudyFindsColumnClampsRedundant) {
  auto w = workloads::makeNlm({{"width", 32}, {"height", 16}});
  isa::GlobalMemory mem;
  isa::LimitStudy study;
  workloads::runOnInterpreter(*w, mem, &study);
  const auto& r = study.result();
  EXPECT_EQ(r.warpInstructions, kPerBlock * 2);
  EXPECT_EQ(r.tbRedundant, kRedundantPerWarp * 16);
  EXPECT_EQ(r.tbByStructure[static_cast<int>(isa::Structure::Unstructured)], kUnstructuredPerWarp * 16);
  EXPECT_EQ(r.tbByStructure[static_cast<int>(isa::Structure::Uniform)],
            (kRedundantPerWarp - kUnstructuredPerWarp) * 16);
  EXPECT_EQ(r.tbByStructure[static_cast<int>(isa::Structure::Affine)], 0u);
}

TEST(WorkloadNlm, TimingModelBaselineEqualsInterpreter) {
  const auto t = test::runAgainstInterpreter(*workloads::makeNlm({{"width", 16}, {"height", 16}}),
                                             config::Mechanism::Baseline);
  ASSERT_TRUE(test::matchesInterpreter(t));
  EXPECT_EQ(t.skipped, 0u);
  EXPECT_GT(t.cycles, 0u);
  ::testing::Test::RecordProperty("cycles", std::to_string(t.cycles));
}

TEST(WorkloadNlm, TimingModelDarsieEqualsInterpreterAndSkips) {
  const auto t = test::runAgainstInterpreter(*workloads::makeNlm({{"width", 16}, {"height", 16}}),
                                             config::Mechanism::Darsie);
  ASSERT_TRUE(test::matchesInterpreter(t));
  EXPECT_GT(t.skipped, 0u);
  // Only TB-redundant work can be skipped, and only by the 7 warps that follow the leader.
  EXPECT_LE(t.skipped, kRedundantPerWarp * 7);
  ::testing::Test::RecordProperty("cycles", std::to_string(t.cycles));
  ::testing::Test::RecordProperty("skipped", std::to_string(t.skipped));
}

TEST(WorkloadNlm, CorruptedInputOrOutputFailsVerification) {
  auto w = workloads::makeNlm({{"width", 16}, {"height", 16}});
  isa::GlobalMemory mem;
  auto launch = w->setup(mem);
  auto src = mem.words("src");
  src[100] ^= 0x00000100u;  // one texel changes: every pixel within 6 of it changes
  mem.setWords("src", src);
  isa::Interpreter(workloads::loadKernel(*w), mem).run(launch);
  EXPECT_NE(w->verify(mem), "");

  isa::GlobalMemory good;
  workloads::runOnInterpreter(*w, good);
  ASSERT_EQ(w->verify(good), "");
  auto dst = good.words("dst");
  dst[255] ^= 1u;  // the last pixel's lowest bit
  good.setWords("dst", dst);
  EXPECT_NE(w->verify(good), "");
}

TEST(WorkloadNlm, RejectsBadOptions) {
  EXPECT_THROW(workloads::makeNlm({{"width", 24}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeNlm({{"height", 0}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeNlm({{"width", 8192}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeNlm({{"size", 32}}), std::invalid_argument);
  EXPECT_NO_THROW(workloads::makeNlm({{"width", 4096}, {"height", 16}}));
}
