// affine-abm through the GPU top (issue 18, docs/affine.md): affine memory operations reach the
// coalescer as base and stride (coalescer.compact_*), their transactions generated without an
// address compared, each lane's word placed by base + stride x lane; memory equals the
// interpreter's.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "isa/assembler.h"
#include "isa/interpreter.h"
#include "tests/model_gpu/platform_runs.h"
#include "tests/model_sm/affine_abm_kernels.h"

using namespace simtlm;
using simtlm::test::Launch;

namespace {

std::unique_ptr<Launch> abmRun(const isa::Kernel& k, config::Mechanism m) {
  auto r = std::make_unique<Launch>();
  r->cfg.gpu.num_sms = 1;
  r->cfg.mechanism = m;
  r->kernel = &k;
  r->launch.block = {64, 1, 1};
  r->launch.grid = {1, 1, 1};
  r->launch.params = {r->memory.allocate("in", 256 * 4), r->memory.allocate("out", 64 * 4)};
  r->memory.setWords("in", test::abmInput());
  return r;
}

std::vector<uint32_t> golden(const isa::Kernel& k) {
  auto r = abmRun(k, config::Mechanism::Baseline);
  isa::Interpreter(k, r->memory).run(r->launch);
  return r->memory.words("out");
}

}  // namespace

TEST(AffineAbmGpu, StridedAccessesReachTheCoalescerAsBaseAndStride) {
  const isa::Kernel k = isa::assemble(test::abmStrided(), "strided.s");
  std::vector<std::unique_ptr<Launch>> runs;
  runs.push_back(abmRun(k, config::Mechanism::Baseline));
  runs.push_back(abmRun(k, config::Mechanism::AffineAbm));
  test::simulate(runs);
  const auto want = golden(k);
  for (auto& r : runs) EXPECT_EQ(r->memory.words("out"), want);
  // Baseline: 4 accesses per warp, 5 transactions, all coalesced.
  EXPECT_EQ(runs[0]->stat("sm0.coalescer.transactions"), 10.0);
  EXPECT_EQ(runs[0]->stat("sm0.coalescer.compact_transactions"), 0.0);
  // affine-abm: the same transactions, from base and stride.
  EXPECT_EQ(runs[1]->stat("sm0.coalescer.accesses"), 0.0);
  EXPECT_EQ(runs[1]->stat("sm0.coalescer.transactions"), 0.0);
  EXPECT_EQ(runs[1]->stat("sm0.coalescer.compact_accesses"), 8.0);
  EXPECT_EQ(runs[1]->stat("sm0.coalescer.compact_transactions"), 10.0);
  EXPECT_EQ(runs[1]->stat("sm0.affine.memops"), 8.0);
}

TEST(AffineAbmGpu, GuardedAndDivergentAccessesAreCoalesced) {
  const isa::Kernel k = isa::assemble(test::kAbmDivergent, "divergent.s");
  std::vector<std::unique_ptr<Launch>> runs;
  runs.push_back(abmRun(k, config::Mechanism::AffineAbm));
  test::simulate(runs);
  EXPECT_EQ(runs[0]->memory.words("out"), golden(k));
  EXPECT_EQ(runs[0]->stat("sm0.coalescer.compact_accesses"), 3.0);
  EXPECT_EQ(runs[0]->stat("sm0.affine.memops"), 3.0);
}
