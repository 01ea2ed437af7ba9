// Several launches on one platform, as a multi-launch workload or scenario runs them: the same
// kernel launched again takes the same number of cycles (the engine's clock runs on across
// grids, so no unit's timestamp from one grid lies in the next one's future — with the clock
// reset per grid, launch n took longer than launch n-1), and the memory equals the interpreter's.
// The write-back L2 keeps the lines across launches (the host's debug writes update them), so
// the first launch, on a cold L2, is the slower one; the second and third are alike.
#include <gtest/gtest.h>

#include <systemc>

#include "model/gpu/platform.h"
#include "workloads/workload.h"

using namespace simtlm;

TEST(MultiLaunch, RepeatedLaunchTakesTheSameCyclesAndMatchesTheInterpreter) {
  auto w = workloads::makeWorkload("vecadd", {{"n", 4096}});
  const isa::Kernel k = workloads::loadKernel(*w);
  isa::GlobalMemory golden, timed;
  const isa::LaunchConfig lg = w->setup(golden), lt = w->setup(timed);
  for (int i = 0; i < 3; ++i) isa::Interpreter(k, golden).run(lg);

  config::GpuConfig cfg;
  cfg.gpu.num_sms = 2;
  stats::Registry reg;
  int launched = 0;
  std::vector<uint64_t> cycles;
  gpu::Platform top("top", cfg, reg, [&](gpu::HostJob& job) {
    if (launched == 3) return false;
    job = gpu::HostJob{&k, lt, &timed};
    ++launched;
    return true;
  });
  top.host.onJobDone = [&](const gpu::HostJob&, const gpu::HostResult& r) {
    EXPECT_EQ(r.errorCode, 0u) << top.gpu.lastError();
    cycles.push_back(r.cycles);
  };
  sc_core::sc_start();
  ASSERT_EQ(cycles.size(), 3u);
  EXPECT_GT(cycles[0], 100u);
  EXPECT_LT(cycles[1], cycles[0]);  // warm L2
  EXPECT_EQ(cycles[2], cycles[1]);
  EXPECT_EQ(reg.value("gpu.cycles").value_or(0),
            static_cast<double>(cycles[0] + cycles[1] + cycles[2]));
  EXPECT_EQ(reg.value("gpu.kernels").value_or(0), 3.0);
  EXPECT_TRUE(golden == timed);
  EXPECT_EQ(w->verify(timed), "");
}
