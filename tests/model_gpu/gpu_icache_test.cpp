// Instruction fetch through the GPU top: the I-caches fill their lines with timed TLM reads
// through the GPU's memory initiator socket, at ENTRY + PC, and an error response to a fill is a
// kernel fault.
#include <gtest/gtest.h>

#include <tlm_utils/simple_target_socket.h>

#include <algorithm>
#include <cstring>

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

// Memory that loaders can use (debug transport) but that answers every timed access with an
// address error: code placed there can be launched but never fetched.
struct DebugOnlyMemory : sc_module {
  tlm_utils::simple_target_socket<DebugOnlyMemory> socket{"socket"};
  std::vector<unsigned char> bytes = std::vector<unsigned char>(1 << 16, 0);
  uint64_t timed = 0;
  explicit DebugOnlyMemory(sc_module_name n) : sc_module(n) {
    socket.register_b_transport(this, &DebugOnlyMemory::transport);
    socket.register_transport_dbg(this, &DebugOnlyMemory::debug);
  }
  void transport(tlm::tlm_generic_payload& gp, sc_time& delay) {
    timed++;
    // Answer late, so the kernel faults well after the host has launched it (the host also
    // copes with a completion during its own register access: it checks the irq level).
    delay += sc_time(100, SC_NS);
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  }
  unsigned debug(tlm::tlm_generic_payload& gp) {
    const uint64_t a = gp.get_address();
    if (a >= bytes.size()) return 0;
    const unsigned n = static_cast<unsigned>(std::min<uint64_t>(gp.get_data_length(), bytes.size() - a));
    if (gp.is_read()) std::memcpy(gp.get_data_ptr(), &bytes[a], n);
    else std::memcpy(&bytes[a], gp.get_data_ptr(), n);
    return n;
  }
};

constexpr uint64_t kDebugOnlyBase = 0x90000000;

struct Platform : sc_module {
  gpu::Gpu gpu;
  gpu::HostDriver host;
  mem::Interconnect bus{"bus"};
  mem::DramTarget dram{"dram"};
  DebugOnlyMemory rom{"rom"};
  sc_signal<bool> irq{"irq_sig"};
  Platform(sc_module_name n, const config::GpuConfig& cfg, stats::Registry& stats, gpu::HostJob job)
      : sc_module(n), gpu("gpu", cfg, stats), host("host", std::move(job)) {
    host.control.bind(gpu.regs.control);
    gpu.irq(irq);
    host.irq(irq);
    gpu.port.to_memory.bind(bus.from_initiators);
    host.to_memory.bind(bus.from_initiators);
    bus.to_targets.bind(dram.from_bus);
    bus.to_targets.bind(rom.socket);
    bus.map(0, 0, 0x80000000ull, false);
    bus.map(1, kDebugOnlyBase, 1 << 16, true);
    host.onFinished = [] { sc_stop(); };
  }
};

config::GpuConfig twoSms() {
  config::GpuConfig c;
  c.gpu.num_sms = 2;
  return c;
}

uint64_t sum(const stats::Registry& reg, const std::string& suffix, int sms) {
  uint64_t t = 0;
  for (int i = 0; i < sms; ++i) t += static_cast<uint64_t>(reg.value("sm" + std::to_string(i) + "." + suffix).value());
  return t;
}

}  // namespace

TEST(GpuICache, CodeIsFetchedOverTlmAndEveryFillIsADramRead) {
  // Stores only: the GPU's only timed reads are I-cache fills (the host loads by debug
  // transport, parameters are read at launch by debug transport).
  auto k = isa::assemble(R"(
.kernel ids
.param OUT
  s2r r0, %ctaid.x
  s2r r1, %ntid.x
  s2r r2, %tid.x
  mad.lo.u32 r0, r0, r1, r2
  shl.b32 r3, r0, 2
  ld.param.b32 r4, [OUT]
  add.u32 r4, r4, r3
  st.global.b32 [r4], r0
  exit
)", "ids.s");
  isa::GlobalMemory mem;
  const uint32_t out = mem.allocate("out", 4 * 24 * 128);
  isa::LaunchConfig l;
  l.grid = {24, 1, 1};  // 16 blocks of 4 warps fill SM 0, the rest go to SM 1
  l.block = {128, 1, 1};
  l.params = {out};
  stats::Registry reg;
  const auto cfg = twoSms();  // the Gpu keeps a reference
  Platform top("top", cfg, reg, gpu::HostJob{&k, l, &mem});
  sc_start();
  ASSERT_EQ(top.host.result().errorCode, 0u) << top.gpu.lastError();
  for (uint32_t i = 0; i < 24 * 128; ++i) ASSERT_EQ(mem.words("out")[i], i);
  const uint64_t fills = sum(reg, "icache.fills", 2);
  EXPECT_GT(reg.value("sm0.icache.fills").value(), 0.0);
  EXPECT_GT(reg.value("sm1.icache.fills").value(), 0.0);
  EXPECT_EQ(fills, 2u);  // 9 instructions = one 128-byte line per SM, filled once
  EXPECT_EQ(top.gpu.port.stats().reads, fills);
  EXPECT_EQ(top.dram.stats().reads, fills);
  EXPECT_EQ(top.gpu.port.stats().bytes_read, fills * 128);
}

TEST(GpuICache, MatmulFetchesItsCodeOverTlm) {
  auto w = workloads::makeWorkload("matmul", {{"size", 64}});
  auto k = workloads::loadKernel(*w);
  isa::GlobalMemory golden, timed;
  auto l1 = w->setup(golden);
  auto l2 = w->setup(timed);
  isa::Interpreter(k, golden).run(l1);
  stats::Registry reg;
  const auto cfg = twoSms();  // the Gpu keeps a reference
  Platform top("top", cfg, reg, gpu::HostJob{&k, l2, &timed});
  sc_start();
  ASSERT_EQ(top.host.result().errorCode, 0u) << top.gpu.lastError();
  EXPECT_TRUE(golden == timed);
  const uint64_t fills = sum(reg, "icache.fills", 2);
  const uint64_t lines = (k.code.size() * 8 + 127) / 128;
  // The code fits in the I-cache: each line an SM executes is filled once by that SM.
  EXPECT_GE(fills, lines);
  EXPECT_LE(fills, 2 * lines);
  EXPECT_GT(sum(reg, "icache.hits", 2), 10 * fills);
  EXPECT_GT(top.dram.stats().reads, fills);  // the fills and the global loads
}

TEST(GpuICache, FillErrorResponseIsAKernelFault) {
  auto k = isa::assemble(".kernel e\n  mov.b32 r0, 1\n  exit\n", "e.s");
  isa::GlobalMemory mem;
  isa::LaunchConfig l;
  stats::Registry reg;
  gpu::HostJob job{&k, l, &mem};
  job.codeAddress = kDebugOnlyBase + 0x100;  // loadable, but timed reads fail
  const auto cfg = twoSms();  // the Gpu keeps a reference
  Platform top("top", cfg, reg, job);
  sc_start();
  ASSERT_TRUE(top.host.result().done) << top.host.result().error;
  EXPECT_EQ(top.host.result().errorCode, static_cast<uint32_t>(model::ErrorCode::KernelFault));
  EXPECT_NE(top.gpu.lastError().find("instruction fetch failed at address 0x90000100"), std::string::npos)
      << top.gpu.lastError();
  EXPECT_EQ(top.rom.timed, 1u);  // the one fill, at ENTRY (not at PC 0)
}
