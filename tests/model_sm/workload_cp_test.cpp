// The CP (Parboil Coulombic potential) workload: its output matches the C++ reference bit for
// bit on the functional interpreter and on the timing model under baseline and DARSIE, with
// the exact instruction count, and a corrupted input is caught by verify().
#include <gtest/gtest.h>

#include <iostream>

#include "isa/limit_study.h"
#include "model/sm/grid_runner.h"
#include "tests/model_sm/workload_test_support.h"
#include "workloads/workload.h"

using namespace simtlm;

namespace {

const workloads::Options kSmall = {{"size", 128}, {"atoms", 16}};

// Per warp: 33 instructions before the atom loop, 42 per atom, 28 after it; 64 warps.
constexpr uint64_t kSmallWarpInstrs = 64 * (33 + 42 * 16 + 28);

using test::TimedRun;

TimedRun runTimed(config::Mechanism m) {
  const TimedRun t = test::runAgainstInterpreter(*workloads::makeCp(kSmall), m);
  std::cout << "cp size=128 atoms=16 cycles " << t.cycles << " skipped " << t.skipped << "\n";
  return t;
}

}  // namespace

TEST(WorkloadCp, InterpreterMatchesReferenceWithExactCount) {
  auto w = workloads::makeCp(kSmall);
  isa::GlobalMemory mem;
  isa::LimitStudy study;
  auto counts = workloads::runOnInterpreter(*w, mem, &study);
  EXPECT_EQ(w->verify(mem), "");
  EXPECT_EQ(counts.warpInstructions, kSmallWarpInstrs);
  EXPECT_EQ(counts.barriers, 0u);
  const auto& r = study.result();
  // The atom loads, loop control and the dx chain are the same in every warp of a block.
  EXPECT_GT(r.tbRedundant, counts.warpInstructions / 4);
  std::cout << "cp limit study: warp " << r.warpInstructions << " tb " << r.tbRedundant << " ("
            << r.fraction(r.tbRedundant) << ") uniform " << r.tbByStructure[0] << " affine "
            << r.tbByStructure[1] << " unstructured " << r.tbByStructure[2] << " grid " << r.gridRedundant
            << " warp-level " << r.warpRedundant << "\n";
}

TEST(WorkloadCp, DefaultSizeCount) {
  auto w = workloads::makeCp({});
  isa::GlobalMemory mem;
  isa::LimitStudy study;
  auto counts = workloads::runOnInterpreter(*w, mem, &study);
  EXPECT_EQ(w->verify(mem), "");
  EXPECT_EQ(counts.warpInstructions, 256u * (33 + 42 * 100 + 28));
  const auto& r = study.result();
  std::cout << "cp default limit study: warp " << r.warpInstructions << " tb " << r.tbRedundant << " ("
            << r.fraction(r.tbRedundant) << ") uniform " << r.tbByStructure[0] << " affine "
            << r.tbByStructure[1] << " unstructured " << r.tbByStructure[2] << "\n";
}

TEST(WorkloadCp, TimingModelBaselineEqualsInterpreter) {
  TimedRun t = runTimed(config::Mechanism::Baseline);
  ASSERT_TRUE(test::matchesInterpreter(t));
}

TEST(WorkloadCp, TimingModelDarsieEqualsInterpreter) {
  TimedRun t = runTimed(config::Mechanism::Darsie);
  ASSERT_TRUE(test::matchesInterpreter(t));
  EXPECT_GT(t.skipped, 0u);  // the uniform atom loads and loop control are marked redundant
}

TEST(WorkloadCp, CorruptedInputFailsVerification) {
  auto w = workloads::makeCp(kSmall);
  isa::Kernel k = workloads::loadKernel(*w);
  isa::GlobalMemory mem;
  auto l = w->setup(mem);
  auto atoms = mem.words("atoms");
  atoms[3 * 4 + 3] ^= 0x00400000u;  // one atom's charge
  mem.setWords("atoms", atoms);
  isa::Interpreter(k, mem).run(l);
  EXPECT_NE(w->verify(mem), "");
}

TEST(WorkloadCp, RejectsBadOptions) {
  EXPECT_THROW(workloads::makeCp({{"size", 100}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeCp({{"atoms", 0}}), std::invalid_argument);
  EXPECT_THROW(workloads::makeCp({{"bogus", 1}}), std::invalid_argument);
}
