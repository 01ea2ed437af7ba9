// The binomial workload (CUDA SDK binomialOptions, 256-thread blocks, one option per block):
// its call values and call buffer equal the C++ reference bit for bit on the interpreter and on
// the timing model under baseline and DARSIE, with exact instruction, barrier and limit-study
// counts; the prices approach Black-Scholes; corrupted inputs or outputs are caught by verify().
#include <gtest/gtest.h>

#include <cmath>

#include "isa/limit_study.h"
#include "isa/semantics.h"
#include "model/sm/grid_runner.h"
#include "tests/model_sm/workload_test_support.h"
#include "workloads/workload.h"

using namespace simtlm;

namespace {

// Per warp w (tid = 32w .. 32w+31), every warp: prologue 16 (tid, ctaid, the frame and option
// pointers, the 5 option words), the leaf-loop test 2, its set-up 5 (when a lane enters),
// 13 per leaf pass, the tree entry 4, per pass i: c_base = 0 and the i loop control 4, per
// tile: c_start/c_end/pointer 6, bar, the load test 2, k 1, 16 double half-steps of 15, the
// flush bar and test 3, the c_base loop control 3 = 256, plus 2 where some lane of the warp
// loads (tid <= c_start) and 2 where some lane flushes (tid <= c_end); the exit test 2; thread
// 0's warp the call-value store 6 more.
//
// steps = 256: passes i = 256..32 (8); 9 tiles (c_start, c_end) = (255, 223), (32, 0), then
// (i, i - 32) for i = 224..32. Every warp has 2365 + 13 x leaf passes (2 in warp 0, 1 in the
// others); loads in 9+9+7+6+5+4+3+2 = 45 warp-tiles, flushes in 9+7+6+5+4+3+2+0 = 36:
// 8 x 2365 + 13 x 9 + 2 x (45 + 36) + 6 = 19205 per block.
constexpr uint64_t kBlock256 = 19205;
// steps = 64: passes 64, 32; tiles (64, 32), (32, 0). Warps 0 and 1 run one leaf pass, warp 2
// only lane 64 (5 + 13), warps 3..7 none (their leaf-loop test alone); per warp
// 16 + 2 + 4 + 2 x 4 + 2 x 256 + 2 = 544; loads 2 + 2 + 1, flushes 2 + 1:
// 8 x 544 + 3 x 18 + 2 x (5 + 3) + 6 = 4428 per block.
constexpr uint64_t kBlock64 = 4428;

struct BinomialRun {
  isa::ExecCounts counts;
  isa::LimitStudyResult limit;
  std::string verify;
};

BinomialRun interpret(const workloads::Options& o) {
  auto w = workloads::makeBinomial(o);
  isa::GlobalMemory mem;
  isa::LimitStudy study;
  BinomialRun r;
  r.counts = isa::Interpreter(workloads::loadKernel(*w), mem).run(w->setup(mem), &study);
  r.limit = study.result();
  r.verify = w->verify(mem);
  return r;
}

void timed(config::Mechanism m) {
  const test::TimedRun t =
      test::runAgainstInterpreter(*workloads::makeBinomial({{"options", 6}, {"steps", 128}}), m);
  ASSERT_TRUE(test::matchesInterpreter(t));
  EXPECT_GT(t.cycles, 0u);
  if (m == config::Mechanism::Darsie)
    EXPECT_GT(t.skipped, 0u);
  else
    EXPECT_EQ(t.skipped, 0u);
  ::testing::Test::RecordProperty("cycles", std::to_string(t.cycles));
  ::testing::Test::RecordProperty("skipped", std::to_string(t.skipped));
}

}  // namespace

TEST(WorkloadBinomial, InterpreterMatchesReferenceWithExactCounts) {
  BinomialRun r = interpret({{"options", 3}, {"steps", 256}});
  EXPECT_EQ(r.verify, "");
  EXPECT_EQ(r.counts.warpInstructions, 3 * kBlock256);
  EXPECT_EQ(r.counts.barriers, 3u * 9 * 34);  // per tile: load, 32 half-steps, flush
  r = interpret({{"options", 4}, {"steps", 64}, {"seed", 7}});
  EXPECT_EQ(r.verify, "");
  EXPECT_EQ(r.counts.warpInstructions, 4 * kBlock64);
  EXPECT_EQ(r.counts.barriers, 4u * 2 * 34);
}

TEST(WorkloadBinomial, DefaultSizeCount) {
  const BinomialRun r = interpret({});  // 64 options x 256 steps
  EXPECT_EQ(r.verify, "");
  EXPECT_EQ(r.counts.warpInstructions, 64 * kBlock256);
}

TEST(WorkloadBinomial, OtherStepCountsVerify) {
  // Tiles that straddle c_base = 224, 448, ... and the SDK's NUM_STEPS = 2048.
  for (long steps : {32L, 288L, 480L, 2048L}) EXPECT_EQ(interpret({{"options", 2}, {"steps", steps}}).verify, "") << steps;
}

TEST(WorkloadBinomial, CallValuesApproachBlackScholes) {
  // An absolute check, independent of the reference's tree: the binomial price converges to the
  // Black-Scholes price, as the SDK sample checks. T comes back from vDt = V * sqrt(T / steps).
  // At 256 steps the error is about 6e-4 of the summed prices (the SDK's 2048 steps give 1e-4);
  // swapping puByDf and pdByDf, or shifting the leaves by one node, is far off.
  constexpr long kSteps = 256;
  auto w = workloads::makeBinomial({{"options", 32}, {"steps", kSteps}});
  isa::GlobalMemory mem;
  workloads::runOnInterpreter(*w, mem);
  const auto data = mem.words("option_data"), call = mem.words("call_value");
  const double R = 0.06f, V = 0.10f;
  auto normal = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
  double sumError = 0, sumPrice = 0;
  for (size_t o = 0; o < call.size(); ++o) {
    const double S = isa::F(data[o * 5]), X = isa::F(data[o * 5 + 1]), vDt = isa::F(data[o * 5 + 2]);
    const double T = kSteps * (vDt / V) * (vDt / V), vSqrtT = V * std::sqrt(T);
    const double d1 = (std::log(S / X) + (R + 0.5 * V * V) * T) / vSqrtT, d2 = d1 - vSqrtT;
    const double price = S * normal(d1) - X * std::exp(-R * T) * normal(d2);
    const double error = std::fabs(isa::F(call[o]) - price);
    EXPECT_LT(error, 0.02) << "option " << o << ": binomial " << isa::F(call[o]) << ", Black-Scholes " << price;
    sumError += error;
    sumPrice += price;
  }
  EXPECT_GT(sumPrice, 32.0);  // not all options out of the money
  EXPECT_LT(sumError / sumPrice, 1e-3);
}

TEST(WorkloadBinomial, LimitStudyFindsUniformTbRedundancy) {
  // 1D blocks: only block-uniform work is TB-redundant. Per warp at 256 steps: 15 prologue
  // values (ctaid, the frame and option pointers, the 5 option words), (float)NUM_STEPS and -X,
  // the tree entry test and i, 3 per pass (c_base = 0, i -= 32 and its test: 8 passes), 6 per
  // tile (i - c_base, c_start, c_end, k, c_base += 224 and its test: 9 tiles) and the half-step loop's
  // k -= 2 and test (16 x 9): 15 + 2 + 2 + 24 + 54 + 288 = 385. These 3 options are all worth
  // more than 0 (an option worth 0 has all-zero tiles, identical in every warp).
  const BinomialRun r = interpret({{"options", 3}, {"steps", 256}});
  EXPECT_EQ(r.limit.tbRedundant, 3u * 8 * 385);
  EXPECT_EQ(r.limit.tbByStructure[static_cast<int>(isa::Structure::Uniform)], r.limit.tbRedundant);
}

TEST(WorkloadBinomial, TimingModelBaselineEqualsInterpreter) { timed(config::Mechanism::Baseline); }
TEST(WorkloadBinomial, TimingModelDarsieEqualsInterpreter) { timed(config::Mechanism::Darsie); }

TEST(WorkloadBinomial, CorruptedInputFailsVerification) {
  auto w = workloads::makeBinomial({{"options", 3}, {"steps", 64}});
  isa::GlobalMemory mem;
  auto launch = w->setup(mem);
  auto data = mem.words("option_data");
  data[5 + 3] ^= 0x00000100u;  // option 1's puByDf
  mem.setWords("option_data", data);
  isa::Interpreter(workloads::loadKernel(*w), mem).run(launch);
  const std::string v = w->verify(mem);
  EXPECT_NE(v.find("call_value[1]"), std::string::npos) << v;
  EXPECT_EQ(v.find("call_value[0]"), std::string::npos) << v;
}

TEST(WorkloadBinomial, CorruptedOutputFailsVerification) {
  auto w = workloads::makeBinomial({{"options", 2}, {"steps", 64}});
  isa::GlobalMemory mem;
  workloads::runOnInterpreter(*w, mem);
  ASSERT_EQ(w->verify(mem), "");
  auto buf = mem.words("call_buffer");
  buf[64 + 16 + 40] ^= 1u;  // option 1's node 40 (level 64, a leaf no pass flushes)
  mem.setWords("call_buffer", buf);
  EXPECT_NE(w->verify(mem).find("call_buffer[120]"), std::string::npos);
}

TEST(WorkloadBinomial, RejectsBadOptions) {
  EXPECT_THROW(workloads::makeBinomial({{"options", 0}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeBinomial({{"steps", 48}}), std::invalid_argument);  // not a multiple of 32
  EXPECT_THROW(workloads::makeBinomial({{"steps", 0}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeBinomial({{"steps", 8192}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeBinomial({{"size", 64}}), std::invalid_argument);
}
