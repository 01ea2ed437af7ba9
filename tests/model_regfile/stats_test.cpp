// The register file's statistics: names under the given prefix, values after a run.
#include <gtest/gtest.h>

#include "model/common/stats.h"
#include "model/regfile/operand_collectors.h"

using namespace simtlm;
using namespace simtlm::regfile;

TEST(RegfileStats, NamesUnderThePrefix) {
  stats::Registry reg;
  OperandCollectors oc(config::GpuConfig::RegFile{4, 1, 2, 3, 8}, BankMapping::Interleaved);
  oc.registerStats(stats::Group(reg, "sm0.regfile"));
  for (const char* name :
       {"sm0.regfile.reads", "sm0.regfile.writes", "sm0.regfile.conflicts",
        "sm0.regfile.write_conflicts", "sm0.regfile.bank0.reads", "sm0.regfile.bank3.writes",
        "sm0.regfile.bank2.conflicts", "sm0.regfile.collector.accepted",
        "sm0.regfile.collector.dispatched", "sm0.regfile.collector.read_cycles",
        "sm0.regfile.collector.residency", "sm0.regfile.collector.avg_residency",
        "sm0.regfile.collector.dispatch_stalls", "sm0.regfile.collector.full_cycles"})
    EXPECT_TRUE(reg.contains(name)) << name;
  EXPECT_FALSE(reg.contains("sm0.regfile.bank4.reads"));
  EXPECT_EQ(reg.entries().size(), 4u + 3 * 4 + 7);

  CollectorId a = oc.accept(0, {PhysReg{0}, PhysReg{4}, PhysReg{8}}, 0);  // bank 0 three times
  CollectorId b = oc.accept(1, {PhysReg{1}}, 0);
  oc.writeback(PhysReg{5});
  for (uint64_t c = 0; c <= 4; ++c) {
    oc.tick(c);
    oc.countFullCycle();  // (the SM counts after its issue step)
  }
  ASSERT_TRUE(oc.dispatch(b, 5, true));
  ASSERT_TRUE(oc.dispatch(a, 5, true));
  EXPECT_EQ(*reg.value("sm0.regfile.reads"), 4.0);
  EXPECT_EQ(*reg.value("sm0.regfile.writes"), 1.0);
  EXPECT_EQ(*reg.value("sm0.regfile.bank0.reads"), 3.0);
  EXPECT_EQ(*reg.value("sm0.regfile.bank1.reads"), 1.0);
  EXPECT_EQ(*reg.value("sm0.regfile.bank1.writes"), 1.0);
  // Bank 1: the write in cycle 0 (nothing reads yet). Bank 0: 2 + 1 denied reads.
  EXPECT_EQ(*reg.value("sm0.regfile.conflicts"), 3.0);
  EXPECT_EQ(*reg.value("sm0.regfile.collector.dispatched"), 2.0);
  EXPECT_EQ(*reg.value("sm0.regfile.collector.residency"), 10.0);
  EXPECT_EQ(*reg.value("sm0.regfile.collector.avg_residency"), 5.0);
  EXPECT_EQ(*reg.value("sm0.regfile.collector.full_cycles"), 5.0);
}
