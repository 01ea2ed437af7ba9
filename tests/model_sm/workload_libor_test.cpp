// The LIBOR Monte Carlo workload: its output matches the C++ reference bit for bit on the
// functional interpreter and on the timing model under baseline and DARSIE, with the exact
// instruction count, and a corrupted input is caught by verify().
#include <gtest/gtest.h>

#include <iostream>

#include "isa/limit_study.h"
#include "model/sm/grid_runner.h"
#include "tests/model_sm/workload_test_support.h"
#include "workloads/workload.h"

using namespace simtlm;

namespace {

const workloads::Options kSmall = {{"npath", 256}};
// Per warp: 11 setup + 80 x 5 (z and L init) + 3 + 40 x 10 (n loop) + 2380 x 19 (i loop)
// + 4 + 40 x 10 (bonds) + 4 + 15 x 15 (swaptions) + 2 + 40 x 6 + 1 (discount) + 5 (store)
// = 46915; 8 warps.
constexpr uint64_t kSmallWarpInstrs = 8 * 46915;

using test::TimedRun;

TimedRun runTimed(config::Mechanism m) {
  const TimedRun t = test::runAgainstInterpreter(*workloads::makeLibor(kSmall), m);
  std::cout << "libor npath=256 cycles " << t.cycles << " skipped " << t.skipped << "\n";
  return t;
}

}  // namespace

TEST(WorkloadLibor, InterpreterMatchesReferenceWithExactCount) {
  auto w = workloads::makeLibor(kSmall);
  isa::GlobalMemory mem;
  isa::LimitStudy study;
  auto counts = workloads::runOnInterpreter(*w, mem, &study);
  EXPECT_EQ(w->verify(mem), "");
  EXPECT_EQ(counts.warpInstructions, kSmallWarpInstrs);
  EXPECT_EQ(counts.divergentBranches, 0u);
  const auto& r = study.result();
  // Every path is the same (z = 0.3), so all but the path-indexed work is TB-redundant.
  EXPECT_GT(r.tbRedundant, counts.warpInstructions * 7 / 10);
  std::cout << "libor limit study: warp " << r.warpInstructions << " tb " << r.tbRedundant << " ("
            << r.fraction(r.tbRedundant) << ") uniform " << r.tbByStructure[0] << " affine "
            << r.tbByStructure[1] << " unstructured " << r.tbByStructure[2] << " grid " << r.gridRedundant
            << " warp-level " << r.warpRedundant << "\n";
}

TEST(WorkloadLibor, TimingModelBaselineEqualsInterpreter) {
  TimedRun t = runTimed(config::Mechanism::Baseline);
  ASSERT_TRUE(test::matchesInterpreter(t));
}

TEST(WorkloadLibor, TimingModelDarsieEqualsInterpreter) {
  TimedRun t = runTimed(config::Mechanism::Darsie);
  ASSERT_TRUE(test::matchesInterpreter(t));
  EXPECT_GT(t.skipped, 0u);  // the uniform lambda loads and the rate constants are redundant
}

TEST(WorkloadLibor, CorruptedInputFailsVerification) {
  auto w = workloads::makeLibor(kSmall);
  isa::Kernel k = workloads::loadKernel(*w);
  isa::GlobalMemory mem;
  auto l = w->setup(mem);
  auto lambda = mem.words("lambda");
  lambda[5] ^= 0x00400000u;
  mem.setWords("lambda", lambda);
  isa::Interpreter(k, mem).run(l);
  EXPECT_NE(w->verify(mem), "");
}

TEST(WorkloadLibor, RejectsBadOptions) {
  EXPECT_THROW(workloads::makeLibor({{"npath", 100}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeLibor({{"npath", 0}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeLibor({{"size", 1}}), std::invalid_argument);
}
