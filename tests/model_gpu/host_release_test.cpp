// The host driver's releaseWhileRunning (issue 39, peak memory): while a kernel runs, the host's
// buffers are empty (the DRAM holds the only copy); read back, they equal the interpreter's and
// have their sizes back, launch after launch; onReadBack sees each buffer once per launch, and
// freeing the DRAM's copy there after the last launch leaves the results as they are.
#include <gtest/gtest.h>

#include <systemc>

#include "model/gpu/platform.h"
#include "workloads/workload.h"

using namespace simtlm;

TEST(HostRelease, BuffersLiveOnlyInDramWhileTheKernelRuns) {
  auto w = workloads::makeWorkload("vecadd", {{"n", 4096}});
  const isa::Kernel k = workloads::loadKernel(*w);
  isa::GlobalMemory golden, timed;
  const isa::LaunchConfig lg = w->setup(golden), lt = w->setup(timed);
  for (int i = 0; i < 2; ++i) isa::Interpreter(k, golden).run(lg);
  std::vector<size_t> sizes;
  for (const auto& r : timed.regions()) sizes.push_back(r.bytes.size());

  config::GpuConfig cfg;
  cfg.gpu.num_sms = 2;
  stats::Registry reg;
  int launched = 0, readBack = 0;
  size_t emptyWhileRunning = 0;
  gpu::Platform top("top", cfg, reg, [&](gpu::HostJob& job) {
    if (launched == 2) return false;
    job = gpu::HostJob{&k, lt, &timed};
    job.releaseWhileRunning = true;
    ++launched;
    return true;
  });
  top.gpu.regs.onLaunch = [&, launch = top.gpu.regs.onLaunch](const model::LaunchRegs& r) {
    for (const auto& region : timed.regions()) emptyWhileRunning += region.bytes.empty();
    launch(r);
  };
  top.host.onReadBack = [&](const gpu::HostJob&, const isa::GlobalMemory::Region& r, size_t done) {
    readBack += done == r.size;  // a buffer read back whole
    if (launched == 2) top.dram.store().release(r.base, done);
  };
  top.host.onJobDone = [&](const gpu::HostJob&, const gpu::HostResult& r) {
    EXPECT_EQ(r.errorCode, 0u) << top.gpu.lastError();
    EXPECT_EQ(r.error, "");
  };
  const size_t pagesBefore = top.dram.store().pages_allocated();
  sc_core::sc_start();
  EXPECT_EQ(emptyWhileRunning, 2 * sizes.size());
  EXPECT_EQ(readBack, static_cast<int>(2 * sizes.size()));
  for (size_t i = 0; i < sizes.size(); ++i) EXPECT_EQ(timed.regions()[i].bytes.size(), sizes[i]);
  EXPECT_TRUE(golden == timed);
  EXPECT_EQ(w->verify(timed), "");
  // The buffers' pages are freed after the last read-back (code and parameters stay).
  EXPECT_LE(top.dram.store().pages_allocated(), pagesBefore + 4);
}
