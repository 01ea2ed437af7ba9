// The watchdog of the GPU as TLM IP: memory answers are progress, so a correct kernel behind slow
// memory runs to completion; when it does trip, the report says whether memory owes answers
// ("slow memory") or nothing moved at all ("no progress"), and names every warp that waits,
// also warps that have exited and wait for their stores. Each test is its own process.
#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "isa/interpreter.h"
#include "model/gpu/platform.h"
#include "tests/model_gpu/gpu_rig.h"

using namespace sc_core;
using namespace simtlm;

namespace {

// Every thread stores its index 128 bytes from its neighbour's: one memory transaction per
// lane, 32 per warp instruction.
const isa::Kernel& stridedKernel() {
  static const isa::Kernel k = isa::assemble(R"(
.kernel strided
.param OUT
  s2r r0, %ctaid.x
  s2r r1, %ntid.x
  s2r r2, %tid.x
  mad.lo.u32 r0, r0, r1, r2
  shl.b32 r3, r0, 7
  ld.param.b32 r4, [OUT]
  add.u32 r4, r4, r3
  st.global.b32 [r4], r0
  exit
)", "strided.s");
  return k;
}

}  // namespace

TEST(GpuWatchdog, ATargetThatHoldsBackEndReqIsSlowNotStuck) {
  // One transaction served every 2 us (about 2960 cycles); the warp's store needs 32 of them,
  // far longer than the watchdog's 5000 cycles, but memory answers well within them.
  config::GpuConfig cfg;
  cfg.gpu.num_sms = 1;
  cfg.watchdog.cycles = 5000;
  stats::Registry stats;
  test::Rig rig("rig", cfg, stats);
  rig.target.protocol = test::StockTarget::Protocol::HoldEndReq;
  uint32_t code = ~0u;
  isa::GlobalMemory mem;
  const uint32_t out = mem.allocate("out", 32 * 128);
  rig.host.script = [&](test::ScriptHost& h) {
    isa::LaunchConfig l;
    l.block = {32, 1, 1};
    l.params = {out};
    h.launch(stridedKernel(), l, mem);
    code = h.wait_done(sc_time(1, SC_MS));
    const auto w = h.words(mem, "out");
    for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(w[i * 32], i) << "lane " << i;
  };
  sc_start();
  EXPECT_EQ(code, 0u) << rig.gpu.lastError();
  EXPECT_GT(rig.gpu.lastCycles(), 32u * 2900u);
}

TEST(GpuWatchdog, LooselyTimedBurstOfUncoalescedStoresCompletes) {
  // tlm.mode=lt sends one transaction at a time: 8 blocks of 1024 threads queue 8192 store
  // transactions, and no warp's store completes within the watchdog's cycles.
  config::GpuConfig cfg;
  cfg.gpu.num_sms = 2;
  cfg.tlm.mode = config::TlmMode::Lt;
  cfg.watchdog.cycles = 10000;
  isa::GlobalMemory golden, timed;
  isa::LaunchConfig l;
  l.grid = {8, 1, 1};
  l.block = {1024, 1, 1};
  l.params = {golden.allocate("out", 8 * 1024 * 128)};
  timed.allocate("out", 8 * 1024 * 128);
  isa::Interpreter(stridedKernel(), golden).run(l);
  stats::Registry stats;
  gpu::Platform top("top", cfg, stats, [&, given = false](gpu::HostJob& job) mutable {
    if (given) return false;
    job = gpu::HostJob{&stridedKernel(), l, &timed};
    return given = true;
  });
  top.host.onFinished = [] { sc_stop(); };
  sc_start();
  ASSERT_TRUE(top.host.result().done) << top.host.result().error;
  EXPECT_EQ(top.host.result().errorCode, 0u) << top.gpu.lastError();
  EXPECT_TRUE(golden == timed) << "memory differs from the interpreter";
}

TEST(GpuWatchdog, MemoryThatNeverAnswersIsReportedAsSlowMemoryWithTheWaitingWarps) {
  config::GpuConfig cfg;
  cfg.gpu.num_sms = 1;
  cfg.watchdog.cycles = 3000;
  stats::Registry stats;
  test::Rig rig("rig", cfg, stats);
  rig.target.swallow_lo = 0x40000000, rig.target.swallow_hi = 0x50000000;
  uint32_t code = 0;
  rig.host.script = [&](test::ScriptHost& h) {
    isa::GlobalMemory none;
    isa::LaunchConfig l;
    l.block = {64, 1, 1};
    l.params = {0x40000000};
    h.launch(stridedKernel(), l, none);
    code = h.wait_done();
  };
  sc_start();
  EXPECT_EQ(code, static_cast<uint32_t>(model::ErrorCode::KernelFault));
  const std::string e = rig.gpu.lastError();
  EXPECT_NE(e.find("is stuck: memory has answered nothing for 3000 cycles"), std::string::npos) << e;
  EXPECT_NE(e.find("64 transactions outstanding"), std::string::npos) << e;
  // Both warps have exited; each still waits for its store.
  EXPECT_NE(e.find("block 0 warp 0: exited, waits for 1 memory access"), std::string::npos) << e;
  EXPECT_NE(e.find("block 0 warp 1: exited, waits for 1 memory access"), std::string::npos) << e;
}
