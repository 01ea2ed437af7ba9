// Compact affine execution with affine memory operations, affine-abm (issue 18, docs/affine.md;
// Kim et al. Sec. 4.1): global loads and stores of an affine or uniform address by the whole warp
// carry base and stride to the LD/ST unit (here runGrid's ideal memory, which places each lane's
// word by base + stride x lane) instead of per-lane addresses. Exact counts, memory equal to the
// interpreter's.
#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "isa/interpreter.h"
#include "model/mechanisms/registry.h"
#include "model/sm/grid_runner.h"
#include "tests/model_sm/affine_abm_kernels.h"
#include "tests/model_sm/affine_support.h"

using namespace simtlm;

namespace {

void run(const std::string& source, config::Mechanism m, test::KernelRun& out) {
  config::GpuConfig c;
  c.gpu.num_sms = 1;
  c.mechanism = m;
  isa::Kernel k = isa::assemble(source, "kernel.s");
  isa::GlobalMemory golden, timed;
  isa::LaunchConfig l;
  l.block = {64, 1, 1};
  l.grid = {1, 1, 1};
  for (isa::GlobalMemory* g : {&golden, &timed}) {
    l.params = {g->allocate("in", 256 * 4), g->allocate("out", 64 * 4)};
    g->setWords("in", test::abmInput());
  }
  isa::Interpreter(k, golden).run(l);
  out.result = sm::runGrid(c, mechanisms::factoryFor(c), k, l, timed, out.reg, 100, 0);
  out.equal = golden == timed;
}

constexpr auto aff = test::affineStat;

}  // namespace

TEST(AffineAbm, StridedUniformAndReversedAccessesAreAffineMemoryOperations) {
  test::KernelRun base, ab, abm;
  run(test::abmStrided(), config::Mechanism::Baseline, base);
  run(test::abmStrided(), config::Mechanism::AffineAb, ab);
  run(test::abmStrided(), config::Mechanism::AffineAbm, abm);
  ASSERT_TRUE(base.equal);
  EXPECT_TRUE(abm.equal);
  EXPECT_EQ(aff(abm, "memops"), 8);  // 4 per warp
  EXPECT_EQ(aff(abm, "loads"), 6);
  EXPECT_EQ(aff(abm, "stores"), 2);
  EXPECT_EQ(aff(abm, "memops_total"), 8);
  EXPECT_EQ(aff(ab, "memops"), -1);  // affine-ab has none
  // The address registers (4 per warp, r6 of [r6+12] included) are read from the ASRF, not
  // expanded: affine-ab expands exactly these.
  EXPECT_EQ(aff(ab, "expanded_operands"), 8);
  EXPECT_EQ(aff(abm, "expanded_operands"), 0);
  EXPECT_EQ(aff(abm, "rf_reads_saved"), aff(ab, "rf_reads_saved"));
  EXPECT_EQ(aff(abm, "unit_ops"), aff(ab, "unit_ops") + 8);
}

TEST(AffineAbm, GuardedAndDivergentAccessesAreNot) {
  test::KernelRun base, abm;
  run(test::kAbmDivergent, config::Mechanism::Baseline, base);
  run(test::kAbmDivergent, config::Mechanism::AffineAbm, abm);
  ASSERT_TRUE(base.equal);
  EXPECT_TRUE(abm.equal);
  EXPECT_EQ(aff(abm, "memops"), 3);  // warp 0's converged load, both stores
  EXPECT_EQ(aff(abm, "loads"), 1);
  EXPECT_EQ(aff(abm, "memops_total"), 6);  // the guarded load (both warps), the other load, the store
}
