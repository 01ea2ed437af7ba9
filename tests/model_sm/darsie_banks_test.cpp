// DARSIE's rename-pool registers live in the register-file banks (docs/darsie.md): a leader's
// new version is written to a pool register, and every warp mapped onto it reads it there, so
// the bank accesses (and conflicts) of renaming are counted where they happen.
#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "isa/darsie_analysis.h"
#include "isa/interpreter.h"
#include "model/mechanisms/registry.h"
#include "model/sm/grid_runner.h"

using namespace simtlm;

namespace {

// Two warps (32x2). Redundant (one leader, one follower skip each): s2r r0, ld.param r2,
// mul r3, shl r5. The vector instructions read r5, r2 and r3 through the renaming.
const char* kKernel = R"(.kernel banks
.regs 8
.param OUT
  s2r r0, %tid.x
  s2r r1, %tid.y
  ld.param.b32 r2, [OUT]
  mul.lo.u32 r3, r0, r0
  shl.b32 r4, r1, 7
  shl.b32 r5, r0, 2
  add.u32 r4, r4, r5
  add.u32 r4, r2, r4
  st.global.b32 [r4], r3
  exit
)";

struct BankRun {
  stats::Registry reg;
  isa::GlobalMemory mem;
  uint64_t cycles = 0;
  double stat(const std::string& n) const { return reg.value("sm0." + n).value_or(-1); }
};

void run(BankRun& r, bool conflicts) {
  isa::Kernel k = isa::assemble(kKernel, "banks.s");
  isa::applyStaticHints(k, isa::markRedundancy(k, isa::Cfg(k)));
  config::GpuConfig c;
  c.gpu.num_sms = 1;
  c.mechanism = config::Mechanism::Darsie;
  c.darsie.rename_bank_conflicts = conflicts;
  const uint32_t out = r.mem.allocate("out", 64 * 4);
  isa::LaunchConfig l;
  l.block = {32, 2, 1};
  l.params = {out};
  auto g = sm::runGrid(c, mechanisms::factoryFor(c), k, l, r.mem, r.reg, 10, 0);
  ASSERT_EQ(g.error, "");
  r.cycles = g.cycles;
  for (uint32_t t = 0; t < 64; ++t) EXPECT_EQ(r.mem.read32(out + 4 * t), (t % 32) * (t % 32)) << t;
}

}  // namespace

TEST(DarsieBanks, VersionsAreWrittenAndReadInThePoolRegisters) {
  BankRun r;
  run(r, true);
  EXPECT_EQ(r.stat("darsie.skipped"), 4);
  EXPECT_EQ(r.stat("darsie.leader_elections"), 4);
  // Each lead writes its version into a pool register: 4 writes.
  EXPECT_EQ(r.stat("regfile.renamed_writes"), 4);
  // Reads through the renaming: the leader's mul (r0), shl (r0), add (r5), add (r2), st (r3);
  // the follower's add (r5), add (r2), st (r3).
  EXPECT_EQ(r.stat("regfile.renamed_reads"), 8);
  EXPECT_LE(r.stat("regfile.renamed_conflicts"), r.stat("regfile.conflicts"));
  // Energy counters: rename-table reads are the register operands of issued instructions, the
  // leader's 10 (17 operands) and the follower's 6 (11); four versions came off the freelist.
  EXPECT_EQ(r.stat("darsie.rename.lookups"), 28);
  EXPECT_EQ(r.stat("darsie.freelist.allocations"), 4);
  EXPECT_LE(r.stat("darsie.freelist.releases"), 4);
  EXPECT_GE(r.stat("darsie.skip_table.lookups"), 4);
}

TEST(DarsieBanks, IdealPoolTakesNoBankPorts) {
  BankRun real, ideal;
  run(real, true);
  run(ideal, false);
  EXPECT_EQ(ideal.stat("regfile.renamed_conflicts"), 0);
  EXPECT_EQ(ideal.stat("regfile.renamed_reads"), real.stat("regfile.renamed_reads"));
  EXPECT_LE(ideal.stat("regfile.conflicts"), real.stat("regfile.conflicts"));
}
