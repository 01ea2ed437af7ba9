// Kernel faults of the GPU as TLM IP name the right place: an error response to a global access
// names the PC of the memory instruction whose transaction failed (not the warp's current PC).
// Each test is its own process.
#include <gtest/gtest.h>

#include "isa/assembler.h"
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
