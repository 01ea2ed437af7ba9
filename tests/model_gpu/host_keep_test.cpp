// The host driver's keepInTarget (issue 39, peak memory): between the launches of a multi-launch
// workload the buffers stand only in the DRAM (not read back and placed again), and the run is
// the same as with the read-back: the same cycles per launch (KeptBetweenLaunches and
// ReadBackBetweenLaunches assert one list; the write-back L2 sees the same debug writes), the
// interpreter's memory, and every buffer read back (a chunk at a time) after the last launch.
#include <gtest/gtest.h>

#include <systemc>

#include "model/gpu/platform.h"
#include "workloads/workload.h"

using namespace simtlm;

namespace {

// Pathfinder, 3 launches; its wall (1.9 MB) takes two of the driver's chunks.
const std::vector<uint64_t> kCycles = {41033, 40445, 40149};

void runPathfinder(bool keep) {
  auto w = workloads::makeWorkload("pathfinder", {{"cols", 8000}, {"rows", 61}, {"pyramid_height", 20}});
  const isa::Kernel k = workloads::loadKernel(*w);
  isa::GlobalMemory golden, timed;
  workloads::runOnInterpreter(*w, golden);
  const auto steps = w->launches(timed);
  ASSERT_EQ(steps.size(), 3u);
  std::vector<size_t> sizes;
  for (const auto& r : timed.regions()) sizes.push_back(r.bytes.size());
  ASSERT_GT(timed.region("wall").bytes.size(), gpu::HostDriver::kChunk);

  config::GpuConfig cfg;
  cfg.gpu.num_sms = 2;
  stats::Registry reg;
  size_t launched = 0, emptyAtLaunch = 0, readBack = 0;
  std::vector<uint64_t> cycles;
  gpu::Platform top("top", cfg, reg, [&](gpu::HostJob& job) {
    if (launched == steps.size()) return false;
    job = gpu::HostJob{&k, steps[launched].launch, &timed};
    job.releaseWhileRunning = true;
    ++launched;
    job.keepInTarget = keep && launched < steps.size();
    return true;
  });
  top.gpu.regs.onLaunch = [&, launch = top.gpu.regs.onLaunch](const model::LaunchRegs& r) {
    for (const auto& region : timed.regions()) emptyAtLaunch += region.bytes.empty();
    launch(r);
  };
  top.host.onReadBack = [&](const gpu::HostJob&, const isa::GlobalMemory::Region& r, size_t done) {
    readBack += done == r.size;  // a buffer read back whole
  };
  top.host.onJobDone = [&](const gpu::HostJob&, const gpu::HostResult& r) {
    EXPECT_EQ(r.errorCode, 0u) << top.gpu.lastError();
    EXPECT_EQ(r.error, "");
    // Kept: nothing is back in the host between launches.
    const bool back = !keep || launched == steps.size();
    EXPECT_EQ(timed.region("wall").bytes.empty(), !back) << launched;
    cycles.push_back(r.cycles);
  };
  sc_core::sc_start();
  EXPECT_EQ(emptyAtLaunch, 3 * sizes.size());
  EXPECT_EQ(readBack, (keep ? 1 : 3) * sizes.size());
  EXPECT_EQ(cycles, kCycles);
  for (size_t i = 0; i < sizes.size(); ++i) EXPECT_EQ(timed.regions()[i].bytes.size(), sizes[i]);
  EXPECT_TRUE(golden == timed);
  EXPECT_EQ(w->verify(timed), "");
}

}  // namespace

TEST(HostKeep, KeptBetweenLaunches) { runPathfinder(true); }
TEST(HostKeep, ReadBackBetweenLaunches) { runPathfinder(false); }
