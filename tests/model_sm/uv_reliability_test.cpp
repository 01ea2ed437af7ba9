// UV's opportunistic reliability (UV Sec. 3.3, 5.4; docs/uv.md) and the fault injector. With
// uv.reliability a converted instruction runs on two lanes and the results are compared; a
// scalar is kept twice and its copies compared when read. Coverage counts what that protects.
#include <gtest/gtest.h>

#include "tests/model_sm/kernel_run_support.h"
#include "tests/model_sm/uv_kernels.h"

using namespace simtlm;

namespace {

// kUniformChain: nine ALU instructions per warp, three of them uniform (s2r %ctaid.x, add r1,
// mul r2).
using test::kUniformChain;

// The first instruction is uniform and r1 is the only register live into the second.
const char* kUniformFirst = R"(.kernel uniform_first
.regs 8
.param OUT
  mov.b32 r1, 9
  mul.lo.u32 r2, r1, 7
  ld.param.b32 r5, [OUT]
  s2r r0, %tid.x
  shl.b32 r4, r0, 2
  add.u32 r5, r5, r4
  add.u32 r3, r2, r0
  st.global.b32 [r5], r3
  exit
)";

config::GpuConfig machine(config::Mechanism m, bool reliability) {
  config::GpuConfig c;
  c.gpu.num_sms = 1;
  c.mechanism = m;
  c.uv.reliability = reliability;
  return c;
}

void run(const char* source, const config::GpuConfig& c, int warps, test::KernelRun& out) {
  isa::LaunchConfig l;
  l.block = {32, static_cast<uint32_t>(warps), 1};
  test::runAgainstInterpreter(source, c, l, out);
}

double uv(const test::KernelRun& r, const std::string& name) { return r.stat("sm0.uv." + name); }

}  // namespace

TEST(UvReliability, CoverageCountsTheUniformInstructionsThreadOperations) {
  for (config::Mechanism m : {config::Mechanism::UvToken, config::Mechanism::UvSrf}) {
    test::KernelRun base, r;
    run(kUniformChain, machine(config::Mechanism::Baseline, false), 2, base);
    run(kUniformChain, machine(m, true), 2, r);
    const std::string name = config::mechanismName(m);
    EXPECT_TRUE(r.equal) << name;
    EXPECT_EQ(uv(r, "reliability.alu_ops"), 2 * 9 * 32) << name;
    EXPECT_EQ(uv(r, "reliability.alu_protected"), 2 * 3 * 32) << name;
    EXPECT_NEAR(uv(r, "reliability.alu_coverage"), 1.0 / 3, 1e-12) << name;
    // Two lanes compute each uniform instruction: 30 lanes fewer than a vector's, not 31.
    EXPECT_EQ(r.stat("sm0.exec.int_mul.lanes"), base.stat("sm0.exec.int_mul.lanes") - 30 * 2) << name;
    // Live registers holding a scalar twice: r1 and r2 between their uniform writes and last reads.
    EXPECT_GT(uv(r, "reliability.protected_registers"), 0) << name;
    EXPECT_LT(uv(r, "reliability.protected_registers"), uv(r, "reliability.live_registers")) << name;
    // Without a fault the copies and the lanes always agree.
    EXPECT_EQ(uv(r, "reliability.alu_mismatches"), 0) << name;
    EXPECT_EQ(uv(r, "reliability.copy_mismatches"), 0) << name;
  }
  test::KernelRun off;
  run(kUniformChain, machine(config::Mechanism::UvToken, false), 2, off);
  EXPECT_EQ(off.stat("sm0.uv.reliability.alu_ops"), -1);  // not reported when off
}

// A flipped bit in one lane of `mov r1, 9` (the first ALU instruction at or after cycle 0):
// with two lanes compared it is detected; computed on one lane it silently corrupts memory.
TEST(UvReliability, AnAluFaultInAUniformInstructionIsDetectedOnlyWithReliability) {
  for (bool reliability : {true, false}) {
    config::GpuConfig c = machine(config::Mechanism::UvToken, reliability);
    c.uv.fault_target = config::FaultTarget::Alu;
    c.uv.fault_cycle = 0;
    test::KernelRun r;
    run(kUniformFirst, c, 1, r);
    EXPECT_EQ(uv(r, "fault.injected"), 1) << reliability;
    if (reliability) {
      // At mov itself; a wrong lane 0 then disagrees with lane 1 again at mul and at the reads.
      EXPECT_GE(uv(r, "reliability.alu_mismatches"), 1);
      EXPECT_GE(uv(r, "fault.detected"), 1);
    } else {
      EXPECT_EQ(uv(r, "fault.detected"), 0);
      EXPECT_FALSE(r.equal);  // (9 ^ bit) * 7 never equals 63: the stored sums are wrong
    }
  }
}

// A flipped bit of r1 (the only register live into mul), in a seeded lane: under the token
// design its scalar is in lanes 0 and 1. A flip there makes the two lanes' products differ
// (detected); a flip in a stale lane changes nothing (masked). Never a silent corruption.
TEST(UvReliability, ARegisterFaultInATokenRegisterIsDetectedOrMasked) {
  int detected = 0, masked = 0;
  for (long long seed = 1; seed <= 40; ++seed) {
    config::GpuConfig c = machine(config::Mechanism::UvToken, true);
    c.uv.fault_target = config::FaultTarget::Register;
    c.uv.fault_cycle = 0;
    c.uv.fault_seed = seed;
    test::KernelRun r;
    run(kUniformFirst, c, 1, r);
    ASSERT_EQ(uv(r, "fault.injected"), 1) << seed;
    if (uv(r, "fault.detected") > 0) {
      detected++;
    } else {
      EXPECT_TRUE(r.equal) << "seed " << seed << ": an undetected fault corrupted memory";
      masked++;
    }
  }
  EXPECT_GT(detected, 0);
  EXPECT_GT(masked, detected);  // 2 lanes of 32 hold the scalar
}
