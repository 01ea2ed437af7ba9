// BOW on the SM (model/mechanisms/bow/, docs/bow.md): the kernels of the bow_* scenarios
// (scenarios/kernels/bow_*.s) on one 64-thread block (two warps with the same stream) of one SM,
// under bow, bow-wr, bow-wr-half and rfc, against the interpreter and the baseline. The counts
// are derived instruction by instruction in the scenarios' comments.
//
// That the values really come from the BOC: a result BOW-WR holds is never written to the banks
// (the bank writes fall by exactly results_held, less the values written back), yet every read
// of it gives the interpreter's value; and a bypassed read takes no bank read (the bank reads fall
// by exactly reads_bypassed). A stale BOC row, or a read served from the banks, would change
// the memory.
#include <gtest/gtest.h>

#include <string>

#include "model/mechanisms/registry.h"
#include "tests/model_sm/affine_support.h"
#include "workloads/workload.h"

using namespace simtlm;

namespace {

void runBow(const std::string& kernel, const std::string& mechanism, test::KernelRun& out, int window = 3) {
  config::GpuConfig c;
  c.gpu.num_sms = 1;
  c.bow.window = window;
  mechanisms::configure(c, mechanism);
  isa::LaunchConfig l;
  l.block = {64, 1, 1};
  l.grid = {1, 1, 1};
  test::runAgainstInterpreter(test::scenarioKernel(kernel), c, l, out);
}

double bow(const test::KernelRun& r, const std::string& name) { return r.stat("sm0.bow." + name); }
double rfcStat(const test::KernelRun& r, const std::string& name) { return r.stat("sm0.rfc." + name); }
double reads(const test::KernelRun& r) { return r.stat("sm0.regfile.reads"); }
double writes(const test::KernelRun& r) { return r.stat("sm0.regfile.writes"); }

}  // namespace

// bow (write-through): 8 of 10 reads per warp from the BOC; the banks see the other 2 and every
// write.
TEST(BowOnSm, BowServesReadsInTheWindowFromTheBoc) {
  test::KernelRun base, b;
  runBow("bow_reuse.s", "baseline", base);
  runBow("bow_reuse.s", "bow", b);
  ASSERT_EQ(base.result.error, "");
  ASSERT_TRUE(base.equal);
  EXPECT_EQ(b.result.error, "");
  EXPECT_TRUE(b.equal);
  EXPECT_EQ(reads(base), 20);
  EXPECT_EQ(writes(base), 14);
  EXPECT_EQ(bow(b, "reads_bypassed"), 16);
  EXPECT_EQ(bow(b, "reads_rf"), 4);
  EXPECT_EQ(bow(b, "fills"), 4);
  EXPECT_EQ(bow(b, "results_kept"), 12);
  EXPECT_EQ(bow(b, "results_held"), 0);
  EXPECT_EQ(bow(b, "boc_reads"), 16);
  EXPECT_EQ(bow(b, "boc_writes"), 16);  // 4 fills + 12 results
  EXPECT_EQ(reads(b), reads(base) - bow(b, "reads_bypassed"));
  EXPECT_EQ(writes(b), writes(base));  // write-through
  EXPECT_EQ(b.stat("sm0.issue.warp_instructions"), base.stat("sm0.issue.warp_instructions"));
}

// The same reads at distance IW - 1 are bypassed, at IW they go to the banks: a larger window
// turns the latter into bypasses too.
TEST(BowOnSm, AReadAtDistanceIwGoesToTheBanks) {
  test::KernelRun base, iw3, iw4;
  runBow("bow_distance.s", "baseline", base);
  runBow("bow_distance.s", "bow", iw3, 3);
  runBow("bow_distance.s", "bow", iw4, 4);
  EXPECT_TRUE(iw3.equal);
  EXPECT_TRUE(iw4.equal);
  EXPECT_EQ(bow(iw3, "reads_bypassed"), 10);
  EXPECT_EQ(bow(iw3, "reads_rf"), 8);
  EXPECT_EQ(bow(iw4, "reads_bypassed"), 14);
  EXPECT_EQ(bow(iw4, "reads_rf"), 4);
  EXPECT_EQ(reads(iw3), reads(base) - 10);
  EXPECT_EQ(reads(iw4), reads(base) - 14);
}

// bow-wr with hints: 5 results per warp held in the BOC only, 2 transient ones dropped unwritten,
// 3 written back at the exit. Bank writes = baseline's - held + written back.
TEST(BowOnSm, BowWrHoldsResultsOutOfTheBanksAndStillReadsThem) {
  test::KernelRun base, wr;
  runBow("bow_transient.s", "baseline", base);
  runBow("bow_transient.s", "bow-wr", wr);
  EXPECT_EQ(wr.result.error, "");
  EXPECT_TRUE(wr.equal);
  EXPECT_EQ(bow(wr, "reads_bypassed"), 14);
  EXPECT_EQ(bow(wr, "results_held"), 10);
  EXPECT_EQ(bow(wr, "results_rf"), 4);
  EXPECT_EQ(bow(wr, "transient_dropped"), 4);
  EXPECT_EQ(bow(wr, "writebacks"), 0);
  EXPECT_EQ(bow(wr, "early_writebacks"), 6);
  EXPECT_EQ(bow(wr, "forced_writethrough"), 0);
  EXPECT_EQ(writes(base), 14);
  EXPECT_EQ(writes(wr), writes(base) - bow(wr, "results_held") + bow(wr, "writebacks") + bow(wr, "early_writebacks"));
  EXPECT_EQ(writes(wr), 10);
  EXPECT_EQ(reads(wr), reads(base) - bow(wr, "reads_bypassed"));
}

// A branch in the window: one dirty value written back as it slid out (warp 0's second path).
TEST(BowOnSm, BowWrAcrossADivergentBranch) {
  test::KernelRun base, wr;
  runBow("bow_branch.s", "baseline", base);
  runBow("bow_branch.s", "bow-wr", wr);
  EXPECT_TRUE(wr.equal);
  EXPECT_EQ(bow(wr, "reads_bypassed"), 13);
  EXPECT_EQ(bow(wr, "results_held"), 6);
  EXPECT_EQ(bow(wr, "writebacks"), 1);
  EXPECT_EQ(bow(wr, "early_writebacks"), 3);
  EXPECT_EQ(bow(wr, "transient_dropped"), 2);
  EXPECT_EQ(writes(base), 15);
  EXPECT_EQ(writes(wr), writes(base) - 6 + 1 + 3);
  EXPECT_EQ(reads(wr), reads(base) - 13);
}

// bow-wr-half: 6 registers; 4 FIFO evictions per warp, 2 of them dirty (written back early).
// bow-wr with the full 12 registers evicts nothing on the same kernel.
TEST(BowOnSm, BowWrHalfEvictsAndWritesBackEarly) {
  test::KernelRun base, half, full;
  runBow("bow_half.s", "baseline", base);
  runBow("bow_half.s", "bow-wr-half", half);
  runBow("bow_half.s", "bow-wr", full);
  EXPECT_TRUE(half.equal);
  EXPECT_TRUE(full.equal);
  EXPECT_EQ(bow(half, "evictions"), 8);
  EXPECT_EQ(bow(half, "early_writebacks"), 10);
  EXPECT_EQ(bow(half, "transient_dropped"), 4);
  EXPECT_EQ(bow(half, "writes_consolidated"), 2);
  EXPECT_EQ(bow(half, "occupancy_max"), 6);
  EXPECT_EQ(bow(half, "storage_bytes"), 6 * 32 * 4);
  EXPECT_EQ(bow(full, "evictions"), 0);
  EXPECT_EQ(bow(full, "early_writebacks"), 6);
  EXPECT_EQ(bow(full, "transient_dropped"), 8);
  EXPECT_EQ(bow(full, "storage_bytes"), 12 * 32 * 4);
  EXPECT_EQ(writes(base), 30);
  EXPECT_EQ(writes(half), 30 - 16 + 10);
  EXPECT_EQ(writes(full), 30 - 16 + 6);
}

// rfc (6 entries, allocate on write): every ALU result of bow_reuse.s fits; 9 of 10 reads per
// warp hit (the ld.param result is not cached). Organized like the register file, its reads and
// writes take the banks' ports all the same: bank reads equal the baseline's, bank writes the
// baseline's plus the write-backs (here the 6 dirty entries per warp at the exit).
TEST(BowOnSm, RfcCachesResultsAndTakesTheBanksPorts) {
  test::KernelRun base, rfc;
  runBow("bow_reuse.s", "baseline", base);
  runBow("bow_reuse.s", "rfc", rfc);
  EXPECT_EQ(rfc.result.error, "");
  EXPECT_TRUE(rfc.equal);
  EXPECT_EQ(rfcStat(rfc, "reads_bypassed"), 18);
  EXPECT_EQ(rfcStat(rfc, "reads_rf"), 2);
  EXPECT_EQ(rfcStat(rfc, "fills"), 0);
  EXPECT_EQ(rfcStat(rfc, "results_held"), 12);
  EXPECT_EQ(rfcStat(rfc, "results_rf"), 2);
  EXPECT_EQ(rfcStat(rfc, "evictions"), 0);
  EXPECT_EQ(rfcStat(rfc, "early_writebacks"), 12);
  EXPECT_EQ(rfcStat(rfc, "cache_reads"), 18);
  EXPECT_EQ(reads(rfc), reads(base));
  EXPECT_EQ(writes(rfc), writes(base) + rfcStat(rfc, "early_writebacks"));
}

// DARSIE composed with BOW on a workload: the interpreter's memory, and issued plus skipped
// equals the interpreter's warp instructions; BOW bypasses reads of the instructions DARSIE
// lets issue.
TEST(BowOnSm, DarsieComposedWithBowRunsMatmulAndFig3) {
  for (const char* name : {"darsie+bow-wr", "darsie+bow"}) {
    for (const auto& [workload, opts] : std::vector<std::pair<std::string, workloads::Options>>{
             {"matmul", {{"size", 64}}}, {"fig3", {{"x", 4}, {"y", 2}}}}) {
      SCOPED_TRACE(std::string(name) + " on " + workload);
      config::GpuConfig cfg;
      cfg.gpu.num_sms = 2;
      mechanisms::configure(cfg, name);
      auto w = workloads::makeWorkload(workload, opts);
      const isa::Kernel k = workloads::loadKernel(*w);
      isa::GlobalMemory golden, timed;
      const auto l1 = w->setup(golden);
      const auto l2 = w->setup(timed);
      const uint64_t interp = isa::Interpreter(k, golden).run(l1).warpInstructions;
      stats::Registry reg;
      const auto r = sm::runGrid(cfg, mechanisms::factoryFor(cfg), k, l2, timed, reg);
      ASSERT_EQ(r.error, "");
      EXPECT_TRUE(golden == timed);
      EXPECT_EQ(w->verify(timed), "");
      double issued = 0, skipped = 0, bypassed = 0;
      for (const char* sm : {"sm0.", "sm1."}) {
        issued += reg.value(std::string(sm) + "issue.warp_instructions").value_or(0);
        skipped += reg.value(std::string(sm) + "darsie.skipped").value_or(0);
        bypassed += reg.value(std::string(sm) + "bow.reads_bypassed").value_or(0);
      }
      EXPECT_EQ(static_cast<uint64_t>(issued + skipped), interp);
      EXPECT_GT(skipped, 0);
      EXPECT_GT(bypassed, 0);
    }
  }
}
