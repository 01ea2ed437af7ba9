// The srad workload (Rodinia SRAD v1, kernel srad, 512-thread 1D blocks): bit-exact against its
// C++ reference on the interpreter and on the SM timing model under baseline and DARSIE; the
// verification can fail; exact instruction and limit-study counts.
#include <gtest/gtest.h>

#include <iostream>

#include "isa/limit_study.h"
#include "model/sm/grid_runner.h"
#include "tests/model_sm/workload_test_support.h"
#include "workloads/workload.h"

using namespace simtlm;

namespace {

struct SradRun {
  isa::ExecCounts counts;
  isa::LimitStudyResult limit;
  std::string verify;
};

SradRun interpret(const workloads::Options& o) {
  auto w = workloads::makeSrad(o);
  isa::GlobalMemory mem;
  isa::LimitStudy study;
  SradRun r;
  r.counts = workloads::runOnInterpreter(*w, mem, &study);
  r.limit = study.result();
  r.verify = w->verify(mem);
  return r;
}

void timed(config::Mechanism m) {
  const test::TimedRun r = test::runAgainstInterpreter(*workloads::makeSrad({{"rows", 64}, {"cols", 48}}), m);
  ASSERT_TRUE(test::matchesInterpreter(r));
  if (m == config::Mechanism::Darsie) {
    EXPECT_GT(r.skipped, 0u);
  }
  std::cout << "srad 64x48, 2 SMs: " << r.cycles << " cycles, " << r.skipped << " skipped\n";
}

}  // namespace

TEST(WorkloadSrad, InterpreterMatchesReference) {
  const SradRun r = interpret({});
  EXPECT_EQ(r.verify, "");
  // 502x458 image: 450 blocks of 16 warps, the last one partly past Ne (exit early).
  EXPECT_EQ(r.counts.warpInstructions, 747495u);
  EXPECT_EQ(r.counts.barriers, 0u);
  const auto& l = r.limit;
  std::cout << "warp instructions " << l.warpInstructions << ", tb_redundant " << l.tbRedundant << " ("
            << 100.0 * l.fraction(l.tbRedundant) << "%), uniform " << l.tbByStructure[0] << ", affine "
            << l.tbByStructure[1] << ", unstructured " << l.tbByStructure[2] << ", grid " << l.gridRedundant
            << ", warp " << l.warpRedundant << "\n";
  // 1D blocks: only the block-uniform parameter arithmetic is TB-redundant.
  EXPECT_GT(l.tbByStructure[static_cast<int>(isa::Structure::Uniform)], 0u);
  EXPECT_EQ(l.tbByStructure[static_cast<int>(isa::Structure::Affine)], 0u);
  EXPECT_EQ(l.tbByStructure[static_cast<int>(isa::Structure::Unstructured)], 0u);
}

TEST(WorkloadSrad, OddShapes) {
  for (long rows : {2L, 3L, 37L, 512L, 513L}) {
    const SradRun r = interpret({{"rows", rows}, {"cols", 5}});
    EXPECT_EQ(r.verify, "") << "rows " << rows;
  }
}

TEST(WorkloadSrad, TimingBaselineEqualsInterpreter) { timed(config::Mechanism::Baseline); }
TEST(WorkloadSrad, TimingDarsieEqualsInterpreter) { timed(config::Mechanism::Darsie); }

TEST(WorkloadSrad, CorruptedInputFailsVerification) {
  auto w = workloads::makeSrad({{"rows", 40}, {"cols", 30}});
  isa::Kernel k = workloads::loadKernel(*w);
  isa::GlobalMemory mem;
  auto launch = w->setup(mem);
  auto t = mem.words("I");
  t[5 * 40 + 7] ^= 0x00400000u;  // one pixel changed
  mem.setWords("I", t);
  isa::Interpreter(k, mem).run(launch);
  EXPECT_NE(w->verify(mem), "");
}

TEST(WorkloadSrad, RejectsBadOptions) {
  EXPECT_THROW(workloads::makeSrad({{"rows", 4097}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeSrad({{"cols", 1}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeSrad({{"bogus", 1}}), std::invalid_argument);
}
