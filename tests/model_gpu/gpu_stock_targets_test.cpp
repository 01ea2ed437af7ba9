// The GPU behind memory targets as users bring them (the Accellera TLM examples' among them):
// no transport_dbg (code and parameters are then loaded with timed reads, and the host driver
// places and reads back data with b_transport), byte enables refused (they are attached only to
// writes that need them, and a refused write is split into its enabled runs), and a one-phase
// target (TLM_COMPLETED on BEGIN_REQ with an annotated delay) that must not hold the GPU's
// request channel for that delay. Each test is its own process.
#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "isa/interpreter.h"
#include "model/gpu/host_driver.h"
#include "model/mem/interconnect.h"
#include "tests/model_gpu/gpu_rig.h"
#include "workloads/workload.h"

using namespace sc_core;
using namespace simtlm;
using Protocol = test::StockTarget::Protocol;

namespace {

// Every thread stores its index `stride` words from its neighbour's.
isa::Kernel storeKernel(int strideShift) {
  return isa::assemble(R"(
.kernel store
.param OUT
  s2r r0, %ctaid.x
  s2r r1, %ntid.x
  s2r r2, %tid.x
  mad.lo.u32 r0, r0, r1, r2
  shl.b32 r3, r0, )" + std::to_string(strideShift) + R"(
  ld.param.b32 r4, [OUT]
  add.u32 r4, r4, r3
  st.global.b32 [r4], r0
  exit
)", "store.s");
}

config::GpuConfig smallGpu() {
  config::GpuConfig c;
  c.gpu.num_sms = 2;
  return c;
}

// Runs `k` over `words` words of a buffer pre-filled with 0xAAAAAAAA on a rig whose target is
// set up by `setup`; returns the buffer and checks the kernel completed.
std::vector<uint32_t> run(const isa::Kernel& k, uint32_t threads, uint32_t words,
                          const std::function<void(test::StockTarget&)>& setup) {
  stats::Registry stats;
  test::Rig rig("rig", smallGpu(), stats);
  setup(rig.target);
  isa::GlobalMemory mem;
  const uint32_t out = mem.allocate("out", words * 4);
  mem.setWords("out", std::vector<uint32_t>(words, 0xAAAAAAAAu));
  std::vector<uint32_t> result;
  uint32_t code = ~0u;
  rig.host.script = [&](test::ScriptHost& h) {
    isa::LaunchConfig l;
    l.grid = {threads / 128, 1, 1};
    l.block = {128, 1, 1};
    l.params = {out};
    h.launch(k, l, mem);
    code = h.wait_done();
    result = h.words(mem, "out");
  };
  sc_start();
  EXPECT_EQ(code, 0u) << rig.gpu.lastError();
  return result;
}

}  // namespace

TEST(GpuStockTargets, CodeAndParametersLoadWithoutDebugTransport) {
  const auto w = run(storeKernel(2), 256, 256, [](test::StockTarget& t) { t.debug = false; });
  for (uint32_t i = 0; i < 256; ++i) ASSERT_EQ(w[i], i) << "word " << i;
}

TEST(GpuStockTargets, FullWritesCarryNoByteEnables) {
  unsigned withEnables = 1, timed = 0, refused = 1;
  const auto w = run(storeKernel(2), 256, 256, [&](test::StockTarget& t) {
    t.refuseByteEnables = true;
    t.onEnd = [&] { withEnables = t.withByteEnables, timed = t.timed, refused = t.refused; };
  });
  for (uint32_t i = 0; i < 256; ++i) ASSERT_EQ(w[i], i) << "word " << i;
  EXPECT_EQ(withEnables, 0u);
  EXPECT_EQ(refused, 0u);
  EXPECT_GT(timed, 0u);
}

TEST(GpuStockTargets, PartialWritesWorkWhereByteEnablesAreRefused) {
  // Every other word: each segment write leaves gaps, which must keep their old contents.
  const auto w = run(storeKernel(3), 256, 512, [](test::StockTarget& t) { t.refuseByteEnables = true; });
  for (uint32_t i = 0; i < 512; ++i) ASSERT_EQ(w[i], i % 2 ? 0xAAAAAAAAu : i / 2) << "word " << i;
}

TEST(GpuStockTargets, AOnePhaseTargetDoesNotHoldTheRequestChannel) {
  // Memory-bound: 32 transactions per warp store. Behind a one-phase target that completes each
  // request with a 20 ns annotated delay the kernel takes no longer than behind a four-phase
  // target that accepts each request in 1 ns and answers in 20 ns (two GPUs, one simulation).
  const isa::Kernel k = storeKernel(7);
  const config::GpuConfig cfg = smallGpu();
  stats::Registry s1, s4;
  test::Rig one("one", cfg, s1), four("four", cfg, s4);
  one.target.protocol = Protocol::OnePhase;
  four.target.protocol = Protocol::FourPhase;
  int finished = 0;
  for (test::Rig* rig : {&one, &four}) {
    rig->host.onDone = [&finished] {
      if (++finished == 2) sc_stop();
    };
    rig->host.script = [](test::ScriptHost& h) {
      isa::GlobalMemory mem;
      isa::LaunchConfig l;
      l.grid = {8, 1, 1};
      l.block = {128, 1, 1};
      l.params = {mem.allocate("out", 1024 * 128)};
      h.launch(storeKernel(7), l, mem);
      EXPECT_EQ(h.wait_done(), 0u);
      const auto w = h.words(mem, "out");
      for (uint32_t i = 0; i < 1024; ++i) ASSERT_EQ(w[i * 32], i) << "thread " << i;
    };
  }
  sc_start();
  const uint64_t c1 = one.gpu.lastCycles(), c4 = four.gpu.lastCycles();
  // Serialised, 1024 transactions x 20 ns would take 20.5 us, 30,300 cycles at 1480 MHz.
  RecordProperty("one_phase_cycles", std::to_string(c1));
  RecordProperty("four_phase_cycles", std::to_string(c4));
  EXPECT_GT(c4, 0u);
  EXPECT_LE(c1, c4 + c4 / 20) << "one-phase " << c1 << " cycles, four-phase " << c4;
}

TEST(GpuStockTargets, HostDriverAndGpuWorkBehindAStockOnePhaseTargetOnABus) {
  // vecadd through an interconnect to a target with no debug transport, one-phase AT, refusing
  // byte enables; the host driver places the buffers and reads them back with b_transport.
  auto wl = workloads::makeWorkload("vecadd", {{"n", 1000}, {"block", 128}});
  const isa::Kernel k = workloads::loadKernel(*wl);
  isa::GlobalMemory golden, timed;
  const auto lg = wl->setup(golden);
  const auto lt = wl->setup(timed);
  isa::Interpreter(k, golden).run(lg);
  const config::GpuConfig cfg = smallGpu();
  stats::Registry stats;
  gpu::Gpu g("gpu", cfg, stats);
  gpu::HostDriver host("host", gpu::HostJob{&k, lt, &timed});
  mem::Interconnect bus("bus");
  test::StockTarget target("target");
  target.protocol = Protocol::OnePhase;
  target.debug = false;
  target.refuseByteEnables = true;
  sc_signal<bool> irq("irq");
  host.control.bind(g.regs.control);
  g.irq(irq);
  host.irq(irq);
  g.port.to_memory.bind(bus.from_initiators);
  host.to_memory.bind(bus.from_initiators);
  bus.to_targets.bind(target.socket);
  bus.map(0, 0, uint64_t{1} << 32, false);
  host.onFinished = [] { sc_stop(); };
  sc_start();
  ASSERT_TRUE(host.result().done) << host.result().error;
  ASSERT_EQ(host.result().errorCode, 0u) << g.lastError();
  EXPECT_EQ(wl->verify(timed), "");
  EXPECT_TRUE(golden == timed) << "memory differs from the interpreter";
}
