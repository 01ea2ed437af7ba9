// The backprop workload (Rodinia backprop, bpnn_layerforward_CUDA then bpnn_adjust_weights_cuda,
// 16x16 blocks): both kernels' outputs equal the C++ reference bit for bit on the interpreter
// and on the timing model under baseline and DARSIE, with exact instruction, barrier and
// limit-study counts; corrupted inputs or outputs are caught by verify().
#include <gtest/gtest.h>

#include "isa/limit_study.h"
#include "model/sm/grid_runner.h"
#include "tests/model_sm/workload_test_support.h"
#include "workloads/workload.h"

using namespace simtlm;

namespace {

// Layer forward, per block of 8 warps (warp w holds ty = 2w in lanes 0..15, 2w+1 in 16..31):
// every warp runs 61 instructions outside the reduction's if-bodies: prologue 11, the tx == 0
// test 2 + its input_node load 5 (lanes 0 and 16), bar 1, weight load 8, bar 1, product 4,
// bar 1, the 4 unrolled steps of 4 (ty % p as an and, test, branch, bar), write-back 2, bar 1,
// tx == 0 test 2, the partial-sum store 7 (lanes 0 and 16, with exit). A step's 4-instruction
// body (two shared loads at constant offsets, add, store) runs when some lane of the warp has
// ty % p == 0, i.e. when 2w % p == 0: for p = 2, 4, 8, 16 in warps 8, 4, 2, 1 -> 15 bodies per
// block. (Rolled, as before issue 16: 93 and 9, 879 per block.)
constexpr uint64_t kForward = 8 * 61 + 4 * 15;  // 548
// Adjust, per warp: prologue 10, the 5 pointers and MOMENTUM 12, w update 9, oldw update 7,
// bar 1, the ty == 0 && by == 0 test 3 (with exit) = 42; block 0's warp 0 also updates the bias
// row (lanes 0..15): 3 pointer instructions, 7 + 5 for w and oldw, exit = 16.
constexpr uint64_t kAdjust = 8 * 42, kBiasRow = 16;

uint64_t expectedCount(long in) { return (kForward + kAdjust) * (in / 16) + kBiasRow; }

struct BackpropRun {
  std::vector<isa::ExecCounts> counts;  // per launch
  isa::LimitStudyResult limit;          // over both launches
  std::string verify;
};

BackpropRun interpret(const workloads::Options& o) {
  auto w = workloads::makeBackprop(o);
  const auto kernels = workloads::loadKernels(*w);
  isa::GlobalMemory mem;
  isa::LimitStudy study;
  BackpropRun r;
  for (const auto& step : w->launches(mem))
    r.counts.push_back(isa::Interpreter(kernels.at(step.kernel), mem).run(step.launch, &study));
  r.limit = study.result();
  r.verify = w->verify(mem);
  return r;
}

void timed(config::Mechanism m) {
  const test::TimedRun t = test::runAgainstInterpreter(*workloads::makeBackprop({{"in", 1024}}), m);
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

TEST(WorkloadBackprop, InterpreterMatchesReferenceWithExactCounts) {
  for (long in : {64L, 112L}) {
    const BackpropRun r = interpret({{"in", in}, {"seed", in}});
    EXPECT_EQ(r.verify, "") << "in " << in;
    ASSERT_EQ(r.counts.size(), 2u);
    EXPECT_EQ(r.counts[0].warpInstructions, kForward * (in / 16));
    EXPECT_EQ(r.counts[1].warpInstructions, kAdjust * (in / 16) + kBiasRow);
    EXPECT_EQ(r.counts[0].barriers, 8u * (in / 16));  // tx == 0 load, weights, product, 4 steps, write-back
    EXPECT_EQ(r.counts[1].barriers, 1u * (in / 16));
  }
  EXPECT_EQ(expectedCount(64), 3552u);  // 4 x (548 + 336) + 16
}

TEST(WorkloadBackprop, DefaultSizeCount) {
  const BackpropRun r = interpret({});  // in = 4096: 256 blocks
  EXPECT_EQ(r.verify, "");
  EXPECT_EQ(r.counts[0].warpInstructions + r.counts[1].warpInstructions, expectedCount(4096));
  EXPECT_EQ(expectedCount(4096), 226320u);
}

TEST(WorkloadBackprop, LimitStudyCounts) {
  // 4 blocks (by = 0..3). Per warp, layer forward: 5 uniform (by, HEIGHT*by, hid, hid + 1,
  // the WEIGHTS pointer; the unrolled reduction has no loop control) and 5 unstructured (tid.x,
  // tx * 4, the two tx == 0 tests, and ty % 2 == 0, the same 0/1 pattern in every warp);
  // adjust: 9 uniform (by, HEIGHT*by, 5 ld.param, hid + 1, MOMENTUM) and 7 unstructured
  // (tid.x, &delta[tx], ETA * delta[index_x] twice). Everything with ty differs between warps.
  const BackpropRun r = interpret({{"in", 64}});
  EXPECT_EQ(r.limit.warpInstructions, expectedCount(64));
  EXPECT_EQ(r.limit.tbByStructure[static_cast<int>(isa::Structure::Uniform)], 4u * 8 * (5 + 9));
  EXPECT_EQ(r.limit.tbByStructure[static_cast<int>(isa::Structure::Affine)], 0u);
  EXPECT_EQ(r.limit.tbByStructure[static_cast<int>(isa::Structure::Unstructured)], 4u * 8 * (5 + 7));
  EXPECT_EQ(r.limit.tbRedundant, 4u * 208);
  // With by & 14 == 14 (by = 14, 15), ty | by holds the same vector in every warp, so the
  // adjust kernel's `ty == 0 && by == 0` test becomes TB-redundant too: 8 more per such block.
  const BackpropRun big = interpret({{"in", 256}});
  EXPECT_EQ(big.limit.tbRedundant, 16u * 208 + 2 * 8);
}

TEST(WorkloadBackprop, TimingModelBaselineEqualsInterpreter) { timed(config::Mechanism::Baseline); }
TEST(WorkloadBackprop, TimingModelDarsieEqualsInterpreter) { timed(config::Mechanism::Darsie); }

TEST(WorkloadBackprop, CorruptedInputFailsVerification) {
  auto w = workloads::makeBackprop({{"in", 32}});
  const auto kernels = workloads::loadKernels(*w);
  isa::GlobalMemory mem;
  const auto steps = w->launches(mem);
  auto units = mem.words("input_units");
  units[20] ^= 0x00000100u;  // input unit 20: block 1's row 3, and its weight update
  mem.setWords("input_units", units);
  for (const auto& s : steps) isa::Interpreter(kernels.at(s.kernel), mem).run(s.launch);
  const std::string v = w->verify(mem);
  EXPECT_NE(v.find("partial_sum"), std::string::npos) << v;
  EXPECT_NE(v.find("weights"), std::string::npos) << v;
}

TEST(WorkloadBackprop, CorruptedOutputFailsVerification) {
  auto w = workloads::makeBackprop({{"in", 32}});
  isa::GlobalMemory mem;
  workloads::runOnInterpreter(*w, mem);
  ASSERT_EQ(w->verify(mem), "");
  auto prev = mem.words("prev_weights");
  prev[5] ^= 1u;  // the bias row's update, written only by block 0's threads ty == 0
  mem.setWords("prev_weights", prev);
  EXPECT_NE(w->verify(mem).find("prev_weights[5]"), std::string::npos);
}

TEST(WorkloadBackprop, RejectsBadOptions) {
  EXPECT_THROW(workloads::makeBackprop({{"in", 0}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeBackprop({{"in", 24}}), std::invalid_argument);  // not a multiple of 16
  EXPECT_THROW(workloads::makeBackprop({{"in", 16L * 65536}}), std::invalid_argument);  // grid.y > 65535
  EXPECT_THROW(workloads::makeBackprop({{"hid", 32}}), std::invalid_argument);
  EXPECT_NO_THROW(workloads::makeBackprop({{"in", 16}}));
}
