// Kernel faults of the GPU as TLM IP name the right place: an error response to a global access
// names the PC of the memory instruction whose transaction failed (not the warp's current PC);
// on the command line's platform, which tells the GPU where the buffers are, an access outside
// them and a kernel without `exit` fault with the interpreter's message. Each test is its own
// process.
#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "isa/diagnostics.h"
#include "isa/interpreter.h"
#include "model/gpu/platform.h"
#include "tests/model_gpu/gpu_rig.h"

using namespace sc_core;
using namespace simtlm;

namespace {

// Launches `k` (one warp, parameter 0x40000000, where the target answers errors) and returns
// the GPU's fault text.
std::string faultOf(const isa::Kernel& k) {
  config::GpuConfig cfg;
  cfg.gpu.num_sms = 1;
  stats::Registry stats;
  test::Rig rig("rig", cfg, stats);
  rig.target.error_lo = 0x40000000, rig.target.error_hi = 0x50000000;
  uint32_t code = 0;
  rig.host.script = [&](test::ScriptHost& h) {
    isa::GlobalMemory none;
    isa::LaunchConfig l;
    l.block = {32, 1, 1};
    l.params = {0x40000000};
    h.launch(k, l, none);
    code = h.wait_done();
  };
  sc_start();
  EXPECT_EQ(code, static_cast<uint32_t>(model::ErrorCode::KernelFault));
  return rig.gpu.lastError();
}

// The interpreter's message for `k` on a fresh memory with a 64-byte buffer passed as the
// first parameter, and the GPU's on the platform; both without the kernel's name (the GPU names
// it by its address) and the source line (the GPU has none).
std::pair<std::string, std::string> bothFaults(const isa::Kernel& k, isa::LaunchConfig l) {
  auto core = [](std::string m) {
    m = m.substr(m.find("': ") + 3);
    const auto line = m.find(", k.s:");
    return line == std::string::npos ? m : m.substr(0, line) + ")";
  };
  std::string interp;
  isa::GlobalMemory golden, timed;
  if (!l.params.empty()) l.params[0] = golden.allocate("buf", 64);
  timed.allocate("buf", 64);
  try {
    isa::Interpreter(k, golden).run(l);
  } catch (const ExecError& e) {
    interp = e.what();
  }
  config::GpuConfig cfg;
  cfg.gpu.num_sms = 2;
  stats::Registry stats;
  gpu::Platform top("top", cfg, stats, [&, given = false](gpu::HostJob& job) mutable {
    if (given) return false;
    job = gpu::HostJob{&k, l, &timed};
    return given = true;
  });
  top.host.onFinished = [] { sc_stop(); };
  sc_start();
  EXPECT_EQ(top.host.result().errorCode, static_cast<uint32_t>(model::ErrorCode::KernelFault));
  EXPECT_LT(top.host.result().cycles, 5000u);  // caught where it happens, not by the watchdog
  return {core(interp), core(top.gpu.lastError())};
}

}  // namespace

TEST(GpuFaults, AStoreErrorResponseNamesTheStore) {
  const std::string e = faultOf(isa::assemble(R"(
.kernel st
.param P
  ld.param.b32 r0, [P]
  mov.b32 r1, 7
  st.global.b32 [r0], r1
  exit
)", "st.s"));
  EXPECT_NE(e.find("error response"), std::string::npos) << e;
  EXPECT_NE(e.find("PC 0x10"), std::string::npos) << e;
}

TEST(GpuFaults, ALoadErrorResponseNamesTheLoad) {
  const std::string e = faultOf(isa::assemble(R"(
.kernel ld
.param P
  ld.param.b32 r0, [P]
  ld.global.b32 r1, [r0]
  add.u32 r2, r1, 1
  mov.b32 r5, 3
  mov.b32 r6, 4
  ld.param.b32 r3, [P]
  ld.global.b32 r4, [r3]
  exit
)", "ld.s"));
  EXPECT_NE(e.find("error response"), std::string::npos) << e;
  EXPECT_NE(e.find("PC 0x8"), std::string::npos) << e;
}

TEST(GpuFaults, OutOfBoundsGlobalStoreFaultsAsOnTheInterpreter) {
  const isa::Kernel k = isa::assemble(R"(
.kernel oob
.param OUT
  s2r r0, %tid.x
  shl.b32 r1, r0, 2
  ld.param.b32 r2, [OUT]
  add.u32 r2, r2, r1
  st.global.b32 [r2], r0
  exit
)", "k.s");
  isa::LaunchConfig l;
  l.block = {32, 1, 1};
  l.params = {0};
  const auto [interp, timed] = bothFaults(k, l);
  EXPECT_NE(interp.find("global memory access outside every buffer (block (0,0,0), warp 0, lane 16, PC 0x20, address "),
            std::string::npos) << interp;
  EXPECT_EQ(timed, interp + " on SM 0");
}

TEST(GpuFaults, MissingExitFaultsAsOnTheInterpreter) {
  const isa::Kernel k = isa::assemble(R"(
.kernel noexit
  s2r r0, %tid.x
  add.u32 r1, r0, 1
)", "k.s");
  isa::LaunchConfig l;
  l.block = {64, 1, 1};
  const auto [interp, timed] = bothFaults(k, l);
  EXPECT_EQ(interp, "PC past the last instruction (missing exit?) (block (0,0,0), warp 0, PC 0x10)");
  EXPECT_EQ(timed, interp + " on SM 0");
}
