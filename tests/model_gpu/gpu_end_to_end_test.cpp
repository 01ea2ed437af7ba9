// The GPU as TLM IP end to end: a host driver loads a workload through the interconnect into
// the DRAM target, launches it through the control registers and waits for the interrupt; the
// GPU fetches code and parameters and runs global accesses through its TLM memory socket.
// Final memory must equal the functional interpreter's.
#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "isa/interpreter.h"
#include "model/gpu/gpu.h"
#include "model/gpu/host_driver.h"
#include "model/mem/dram_target.h"
#include "model/mem/interconnect.h"
#include "workloads/workload.h"

using namespace sc_core;
using namespace simtlm;

namespace {

struct Platform : sc_module {
  gpu::Gpu gpu;
  gpu::HostDriver host;
  mem::Interconnect bus{"bus"};
  mem::DramTarget dram{"dram"};
  sc_signal<bool> irq{"irq_sig"};
  Platform(sc_module_name n, const config::GpuConfig& cfg, stats::Registry& stats, gpu::HostJob job)
      : sc_module(n), gpu("gpu", cfg, stats), host("host", std::move(job)) {
    host.control.bind(gpu.regs.control);
    gpu.irq(irq);
    host.irq(irq);
    gpu.port.to_memory.bind(bus.from_initiators);
    host.to_memory.bind(bus.from_initiators);
    bus.to_targets.bind(dram.from_bus);
    bus.map(0, 0, 0x80000000ull, false);  // 2 GB of DRAM mapped; above it nothing answers
    host.onFinished = [] { sc_stop(); };
  }
};

config::GpuConfig twoSms() {
  config::GpuConfig c;
  c.gpu.num_sms = 2;
  return c;
}

void expectEquivalent(const std::string& name, const workloads::Options& o, const config::GpuConfig& cfg) {
  auto w = workloads::makeWorkload(name, o);
  auto k = workloads::loadKernel(*w);
  isa::GlobalMemory golden, timed;
  auto l1 = w->setup(golden);
  auto l2 = w->setup(timed);
  isa::Interpreter(k, golden).run(l1);
  stats::Registry reg;
  Platform top("top", cfg, reg, gpu::HostJob{&k, l2, &timed});
  sc_start();
  ASSERT_TRUE(top.host.result().done) << top.host.result().error;
  ASSERT_EQ(top.host.result().errorCode, 0u) << top.gpu.lastError();
  EXPECT_GT(top.host.result().cycles, 0u);
  EXPECT_EQ(w->verify(timed), "");
  EXPECT_TRUE(golden == timed) << "memory differs from the interpreter";
}

}  // namespace

TEST(Gpu, VecAddThroughTlmMatchesInterpreter) {
  expectEquivalent("vecadd", {{"n", 3000}, {"block", 128}}, twoSms());
}

TEST(Gpu, MatmulThroughTlmMatchesInterpreter) { expectEquivalent("matmul", {{"size", 64}}, twoSms()); }

TEST(Gpu, LooselyTimedMemoryMatchesInterpreter) {
  auto c = twoSms();
  c.tlm.mode = config::TlmMode::Lt;
  expectEquivalent("matmul", {{"m", 33}, {"n", 40}, {"k", 20}}, c);
}

TEST(Gpu, GlobalAtomicsAreAtomicAcrossSms) {
  auto k = isa::assemble(R"(
.kernel count
.param C
  ld.param.b32 r0, [C]
  mov.b32 r1, 1
  atom.global.add.u32 r2, [r0], r1
  exit
)", "count.s");
  isa::GlobalMemory mem;
  uint32_t c = mem.allocate("counter", 4);
  isa::LaunchConfig l;
  l.grid = {16, 1, 1};
  l.block = {96, 1, 1};
  l.params = {c};
  stats::Registry reg;
  const config::GpuConfig cfg = twoSms();  // the GPU keeps a reference: it must outlive `top`
  Platform top("top", cfg, reg, gpu::HostJob{&k, l, &mem});
  sc_start();
  ASSERT_EQ(top.host.result().errorCode, 0u) << top.gpu.lastError();
  EXPECT_EQ(mem.words("counter")[0], 16u * 96u);
}

TEST(Gpu, OutOfRangeAccessIsAKernelError) {
  auto k = isa::assemble(R"(
.kernel bad
  mov.b32 r0, 0x7ffffff0
  shl.b32 r0, r0, 4
  ld.global.b32 r1, [r0]
  exit
)", "bad.s");
  isa::GlobalMemory mem;
  isa::LaunchConfig l;
  stats::Registry reg;
  const config::GpuConfig cfg = twoSms();
  Platform top("top", cfg, reg, gpu::HostJob{&k, l, &mem});
  sc_start();
  ASSERT_TRUE(top.host.result().done);
  EXPECT_EQ(top.host.result().errorCode, static_cast<uint32_t>(model::ErrorCode::KernelFault));
  EXPECT_NE(top.gpu.lastError().find("error response"), std::string::npos) << top.gpu.lastError();
}
