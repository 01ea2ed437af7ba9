// The shipped machine configurations load, pass the cross-field checks and hold the numbers of
// the tables they cite (DARSIE Table 2, UV Table 1).
#include <gtest/gtest.h>

#include "cli/config_loader.h"

using namespace simtlm::config;

namespace {

GpuConfig load(const std::string& name) {
  ConfigLoader l;
  l.loadFile(std::string(SIMTLM_SOURCE_DIR) + "/configs/" + name);
  return l.resolve();
}

}  // namespace

TEST(ConfigFiles, PascalFollowsDarsieTable2) {
  GpuConfig c = load("pascal.ini");
  EXPECT_EQ(c.gpu.num_sms, 28);
  EXPECT_EQ(c.sm.num_warps, 64);
  EXPECT_EQ(c.sm.max_blocks, 32);
  EXPECT_EQ(c.exec.simd_width, 32);
  EXPECT_EQ(c.issue.schedulers, 4);
  EXPECT_EQ(c.issue.policy, SchedPolicy::Gto);
  EXPECT_EQ(c.shared.size, 96 * 1024);
  EXPECT_EQ(c.sm.num_registers, 65536);
  EXPECT_EQ(c.regfile.banks, 32);
  EXPECT_EQ(c.l1.size, 48 * 1024);
  EXPECT_EQ(c.l2.size, 2816 * 1024);
  EXPECT_EQ(c.dram.channels, 11);
  EXPECT_DOUBLE_EQ(c.gpu.core_clock_mhz, 1480);
}

TEST(ConfigFiles, PascalRestatesTheDefaults) {
  EXPECT_EQ(toJson(load("pascal.ini")), toJson(GpuConfig()));
}

TEST(ConfigFiles, Gtx285FollowsUvTable1) {
  GpuConfig c = load("gtx285.ini");
  EXPECT_EQ(c.gpu.num_sms, 30);
  EXPECT_DOUBLE_EQ(c.gpu.core_clock_mhz, 1300);
  EXPECT_EQ(c.gpu.warp_size, 32);
  EXPECT_EQ(c.exec.simd_width, 8);
  EXPECT_EQ(c.sm.max_blocks, 8);
  EXPECT_EQ(c.sm.num_warps * c.gpu.warp_size, 1024);
  EXPECT_EQ(c.sm.num_registers * 4, 64 * 1024);
  EXPECT_EQ(c.shared.size, 16 * 1024);
  EXPECT_EQ(c.l1.size, 48 * 1024);
  EXPECT_EQ(c.l1.assoc, 8);
  EXPECT_EQ(c.l1.line, 64);
  EXPECT_EQ(c.l2.assoc, 8);
  EXPECT_EQ(c.l2.line, 64);
  EXPECT_EQ(c.dram.channels, 16);
  EXPECT_EQ(c.dram.banks_per_channel, 8);
  EXPECT_NEAR(c.dram.bytes_per_cycle * c.gpu.core_clock_mhz * 1e6, 200e9, 0.1e9);
}

TEST(ConfigFiles, TinyIsSmall) {
  GpuConfig c = load("tiny.ini");
  EXPECT_EQ(c.gpu.num_sms, 2);
  EXPECT_EQ(c.sm.num_warps, 16);
  EXPECT_EQ(c.issue.schedulers, 4);
  EXPECT_EQ(c.l1.size, 4 * 1024);
  EXPECT_EQ(c.l2.size, 64 * 1024);
  EXPECT_EQ(c.watchdog.cycles, 100000);
}
