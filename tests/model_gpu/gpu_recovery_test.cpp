// The GPU as TLM IP recovers: after a kernel fault (an error response to a global access, an
// error response to an instruction fetch, the watchdog) the next launch through the control
// socket runs to completion with every SM resource free, and the soft-reset register returns
// the GPU to its power-on state, also in the middle of a kernel. Each test is its own process.
#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "tests/model_gpu/gpu_rig.h"

using namespace sc_core;
using namespace simtlm;
using model::Reg;

namespace {

// out[i] = 3 * i + 1 for every thread i of the grid.
const isa::Kernel& fillKernel() {
  static const isa::Kernel k = isa::assemble(R"(
.kernel fill
.param OUT
  s2r r0, %ctaid.x
  s2r r1, %ntid.x
  s2r r2, %tid.x
  mad.lo.u32 r0, r0, r1, r2
  shl.b32 r3, r0, 2
  ld.param.b32 r4, [OUT]
  add.u32 r4, r4, r3
  mul.lo.u32 r5, r0, 3
  add.u32 r5, r5, 1
  st.global.b32 [r4], r5
  exit
)", "fill.s");
  return k;
}

// Blocks of 1024 threads: one block takes 32 warp slots, so a launch after a fault that left
// blocks resident is refused unless they were released.
constexpr uint32_t kBlocks = 8, kThreads = 1024;

isa::LaunchConfig fillLaunch(uint32_t out) {
  isa::LaunchConfig l;
  l.grid = {kBlocks, 1, 1};
  l.block = {kThreads, 1, 1};
  l.params = {out};
  return l;
}

config::GpuConfig smallGpu() {
  config::GpuConfig c;
  c.gpu.num_sms = 2;
  return c;
}

// The good launch after whatever `before` did: it completes without error and fills the buffer.
void expectNextLaunchRuns(test::ScriptHost& h) {
  isa::GlobalMemory mem;
  const uint32_t out = mem.allocate("out", kBlocks * kThreads * 4);
  h.launch(fillKernel(), fillLaunch(out), mem);
  EXPECT_EQ(h.wait_done(), 0u);
  const auto w = h.words(mem, "out");
  ASSERT_EQ(w.size(), size_t{kBlocks * kThreads});
  for (uint32_t i = 0; i < w.size(); ++i) ASSERT_EQ(w[i], 3 * i + 1) << "word " << i;
}

// Runs `fault` (which launches a kernel that faults), checks it ends with a kernel fault whose
// text contains `what`, then launches a good kernel twice.
void faultThenRecover(const config::GpuConfig& cfg, const std::function<void(test::Rig&)>& setup,
                      const std::function<void(test::ScriptHost&)>& fault, const std::string& what) {
  stats::Registry stats;
  test::Rig rig("rig", cfg, stats);
  setup(rig);
  std::string firstError;
  rig.host.script = [&](test::ScriptHost& h) {
    fault(h);
    EXPECT_EQ(h.wait_done(), static_cast<uint32_t>(model::ErrorCode::KernelFault));
    firstError = rig.gpu.lastError();
    expectNextLaunchRuns(h);
    EXPECT_EQ(rig.gpu.lastError(), "");
    expectNextLaunchRuns(h);
  };
  sc_start();
  EXPECT_NE(firstError.find(what), std::string::npos) << firstError;
  // The statistics count on across the rebuilds: three grids, and the good ones' stores.
  EXPECT_EQ(stats.value("gpu.kernels"), 3.0);
  EXPECT_GE(stats.value("sm0.ldst.global_accesses").value_or(0) + stats.value("sm1.ldst.global_accesses").value_or(0),
            2.0 * kBlocks * kThreads / 32);
}

}  // namespace

TEST(GpuRecovery, AfterAnErrorResponseToAStore) {
  faultThenRecover(
      smallGpu(), [](test::Rig& r) { r.target.error_lo = 0x40000000, r.target.error_hi = 0x50000000; },
      [](test::ScriptHost& h) {
        isa::GlobalMemory none;
        h.launch(fillKernel(), fillLaunch(0x40000000), none);
      },
      "error response");
}

TEST(GpuRecovery, AfterAnInstructionFetchError) {
  // The code sits where debug reads work (the launch reads it) but timed reads (the I-cache's
  // line fills) get an error response.
  faultThenRecover(
      smallGpu(), [](test::Rig& r) { r.target.error_lo = 0x02000000, r.target.error_hi = 0x03000000; },
      [](test::ScriptHost& h) {
        isa::GlobalMemory mem;
        const uint32_t out = mem.allocate("out", kBlocks * kThreads * 4);
        h.launch(fillKernel(), fillLaunch(out), mem, 0x02000000);
      },
      "instruction fetch failed");
}

TEST(GpuRecovery, AfterTheWatchdog) {
  // The stores go where the memory never answers.
  config::GpuConfig cfg = smallGpu();
  cfg.watchdog.cycles = 3000;
  faultThenRecover(
      cfg, [](test::Rig& r) { r.target.swallow_lo = 0x40000000, r.target.swallow_hi = 0x50000000; },
      [](test::ScriptHost& h) {
        isa::GlobalMemory none;
        h.launch(fillKernel(), fillLaunch(0x40000000), none);
      },
      "stuck");
}

TEST(GpuRecovery, SoftResetAbortsARunningKernel) {
  const isa::Kernel spin = isa::assemble(R"(
.kernel spin
top:
  add.u32 r0, r0, 1
  bra top
  exit
)", "spin.s");
  stats::Registry stats;
  test::Rig rig("rig", smallGpu(), stats);
  rig.host.script = [&](test::ScriptHost& h) {
    isa::GlobalMemory none;
    isa::LaunchConfig l;
    l.grid = {64, 1, 1};
    l.block = {1024, 1, 1};
    h.launch(spin, l, none);
    wait(20, SC_US);
    EXPECT_EQ(h.read(Reg::Status), static_cast<uint32_t>(model::kBusy)) << rig.gpu.lastError();
    EXPECT_GT(h.read(Reg::CycleLo), 1000u);
    h.write(Reg::Reset, 1);
    EXPECT_EQ(h.read(Reg::Status), 0u);
    EXPECT_EQ(h.read(Reg::ErrorCode), 0u);
    EXPECT_EQ(h.read(Reg::CycleLo), 0u);
    EXPECT_EQ(h.read(Reg::Entry), 0u);  // the launch registers have their power-on values
    EXPECT_EQ(h.read(Reg::GridX), 1u);
    EXPECT_EQ(h.read(Reg::BlockX), 1u);
    EXPECT_EQ(h.read(Reg::RegsPerThread), 1u);
    EXPECT_EQ(h.read(Reg::IrqEnable), 0u);
    wait(1, SC_US);  // nothing completes later: the aborted kernel is gone
    EXPECT_EQ(h.read(Reg::Status), 0u);
    EXPECT_FALSE(rig.irq.read());
    expectNextLaunchRuns(h);
    expectNextLaunchRuns(h);
  };
  sc_start();
}

TEST(GpuRecovery, SoftResetClearsAFaultAndItsInterrupt) {
  stats::Registry stats;
  test::Rig rig("rig", smallGpu(), stats);
  rig.target.error_lo = 0x40000000, rig.target.error_hi = 0x50000000;
  rig.host.script = [&](test::ScriptHost& h) {
    isa::GlobalMemory none;
    h.launch(fillKernel(), fillLaunch(0x40000000), none);
    wait(rig.irq.posedge_event());
    EXPECT_EQ(h.read(Reg::Status), static_cast<uint32_t>(model::kDone | model::kError));
    h.write(Reg::Reset, 1);
    wait(SC_ZERO_TIME);
    EXPECT_FALSE(rig.irq.read());
    EXPECT_EQ(h.read(Reg::Status), 0u);
    EXPECT_EQ(h.read(Reg::ErrorCode), 0u);
    EXPECT_EQ(rig.gpu.lastError(), "");
    expectNextLaunchRuns(h);
  };
  sc_start();
}
