// UV (issue 17, docs/uv.md). uv-token (UV Sec. 3.1.1): a uniform instruction is computed on lane N
// alone, a token register is read through the broadcast path, a partial write to one copies the
// scalar into every lane first. Values must stay the interpreter's: the register's other lanes
// are stale, so a missing broadcast or copy stores a wrong value. uv-irb and uv (Sec. 3.2): a
// uniform instruction whose PC, opcode and source values match an IRB entry takes its result.
// uv-srf and uv-srf-irb (Sec. 3.1.2): the scalars live in a scalar register file; the vector
// registers they rename are never written, so a scalar not read from the SRF is a wrong value.
#include <gtest/gtest.h>

#include "tests/model_sm/kernel_run_support.h"
#include "tests/model_sm/uv_kernels.h"

using namespace simtlm;

namespace {

using test::kUniformChain;

// A guarded write to the token register r1 (lanes 0-7 add 1): lanes 8-31 must keep 5, which only
// lane N holds until the copy-on-write.
const char* kPartialWrite = R"(.kernel partial_write
.regs 8
.param OUT
  ld.param.b32 r5, [OUT]
  s2r r0, %tid.x
  mov.b32 r1, r0
  mov.b32 r1, 5
  setp.lt.u32 p0, r0, 8
  @p0 add.u32 r1, r1, 1
  shl.b32 r4, r0, 2
  add.u32 r5, r5, r4
  st.global.b32 [r5], r1
  exit
)";

// The kernel as one 32x2 block (two warps) on one SM of the default machine, SIMD width `simd`,
// an IRB of `irbEntries`.
void run(const char* source, config::Mechanism m, int simd, test::KernelRun& out, int irbEntries = 8,
         int srfEntries = 128, int warps = 2) {
  config::GpuConfig c;
  c.gpu.num_sms = 1;
  c.exec.simd_width = simd;
  c.uv.irb_entries = irbEntries;
  c.uv.srf_entries = srfEntries;
  c.mechanism = m;
  isa::LaunchConfig l;
  l.block = {32, static_cast<uint32_t>(warps), 1};
  test::runAgainstInterpreter(source, c, l, out);
}

double uv(const test::KernelRun& r, const std::string& name) { return r.stat("sm0.uv." + name); }

}  // namespace

TEST(UvToken, UniformChainRunsOnOneLaneAndIsReadThroughTheBroadcastPath) {
  test::KernelRun base, tok;
  run(kUniformChain, config::Mechanism::Baseline, 32, base);
  run(kUniformChain, config::Mechanism::UvToken, 32, tok);
  ASSERT_TRUE(base.equal);
  EXPECT_TRUE(tok.equal);
  // Per warp: s2r %ctaid.x, add, mul are uniform; ld.param of one word is a broadcast load;
  // `add r3, r0, r2` and `add r5, r5, r4` and `add r3, r3, r1` read r2, r5 and r1 broadcast.
  EXPECT_EQ(uv(tok, "uniform"), 6);
  EXPECT_EQ(uv(tok, "uniform_loads"), 2);
  EXPECT_EQ(uv(tok, "broadcast_reads"), 6);
  EXPECT_EQ(uv(tok, "copies"), 0);
  // Token file: r5, r1 and r2 of each warp hold a token between the mul and `add r5, r5, r4`,
  // and both warps are there at once; tokens are cleared when the block retires.
  EXPECT_EQ(uv(tok, "token.peak"), 6);
  EXPECT_GT(uv(tok, "token.occupancy"), 6 * 3);
  EXPECT_LT(uv(tok, "token.mean_occupancy"), 6);
  // The uniform ones computed one lane each: 31 lanes fewer per instruction than the baseline.
  EXPECT_EQ(tok.stat("sm0.exec.int.lanes"), base.stat("sm0.exec.int.lanes") - 31 * 2);      // add r1
  EXPECT_EQ(tok.stat("sm0.exec.int_mul.lanes"), base.stat("sm0.exec.int_mul.lanes") - 31 * 2);
  EXPECT_EQ(tok.stat("sm0.exec.move.lanes"), base.stat("sm0.exec.move.lanes") - 31 * 2);    // s2r %ctaid
  EXPECT_EQ(tok.stat("sm0.exec.int.warp_instructions"), base.stat("sm0.exec.int.warp_instructions"));
  // Fewer register-file lane groups read and written.
  EXPECT_LT(tok.stat("sm0.regfile.read_lane_groups"), base.stat("sm0.regfile.read_lane_groups"));
}

TEST(UvToken, APartialWriteToATokenRegisterCopiesTheScalarIntoEveryLaneFirst) {
  test::KernelRun base, tok;
  run(kPartialWrite, config::Mechanism::Baseline, 32, base);
  run(kPartialWrite, config::Mechanism::UvToken, 32, tok);
  ASSERT_TRUE(base.equal);
  EXPECT_TRUE(tok.equal);
  EXPECT_EQ(uv(tok, "uniform"), 2);  // mov r1, 5
  EXPECT_EQ(uv(tok, "copies"), 2);   // @p0 add r1: one per warp
  // The guarded add reads r1 from the register (expanded by the copy), not broadcast.
  EXPECT_EQ(uv(tok, "broadcast_reads"), 2);  // add r5, r5, r4
}

// SIMD width 8: a vector instruction occupies its unit 4 cycles, a uniform one 1 (UV Sec. 3.1.1:
// the issue-rate gain). The scalar lives in lane 24.
TEST(UvToken, ANarrowSimdUnitIssuesUniformInstructionsEveryCycle) {
  test::KernelRun base, tok;
  run(kUniformChain, config::Mechanism::Baseline, 8, base);
  run(kUniformChain, config::Mechanism::UvToken, 8, tok);
  ASSERT_TRUE(base.equal);
  EXPECT_TRUE(tok.equal);
  EXPECT_EQ(uv(tok, "uniform"), 6);
  EXPECT_EQ(uv(tok, "unit_cycles_saved"), 6 * 3);
  EXPECT_LE(tok.result.cycles, base.result.cycles);
  // The copy-on-write costs a move's occupancy (4 cycles) on the unit.
  test::KernelRun copyBase, copyTok;
  run(kPartialWrite, config::Mechanism::Baseline, 8, copyBase);
  run(kPartialWrite, config::Mechanism::UvToken, 8, copyTok);
  EXPECT_TRUE(copyTok.equal);
  EXPECT_EQ(uv(copyTok, "copies"), 2);
  EXPECT_EQ(uv(copyTok, "unit_cycles_saved"), 2 * 3);
}

namespace {

// Two warps of one block run the same uniform chain on the same values: the second finds each
// result in the IRB. The special-register move is uniform but not looked up.
const char* kReuse = R"(.kernel reuse
.regs 8
.param OUT
  ld.param.b32 r5, [OUT]
  s2r r0, %tid.x
  mov.b32 r1, 9
  mul.lo.u32 r2, r1, 7
  s2r r3, %ctaid.x
  add.u32 r2, r2, r3
  shl.b32 r4, r0, 2
  add.u32 r5, r5, r4
  add.u32 r2, r2, r0
  st.global.b32 [r5], r2
  exit
)";

}  // namespace

TEST(UvIrb, TheSecondWarpReusesTheFirstsResults) {
  for (config::Mechanism m : {config::Mechanism::UvIrb, config::Mechanism::Uv}) {
    test::KernelRun r;
    run(kReuse, m, 32, r);
    EXPECT_TRUE(r.equal) << config::mechanismName(m);
    EXPECT_EQ(uv(r, "uniform"), 8) << config::mechanismName(m);  // mov, mul, s2r, add per warp
    // mov, mul, add: the first warp misses and fills, the second hits.
    EXPECT_EQ(uv(r, "irb.misses"), 3) << config::mechanismName(m);
    EXPECT_EQ(uv(r, "irb.hits"), 3) << config::mechanismName(m);
    EXPECT_EQ(uv(r, "irb.mismatches"), 0) << config::mechanismName(m);
    EXPECT_EQ(uv(r, "irb.replacements"), 0) << config::mechanismName(m);
  }
  // A hit computes no lane: uv-irb's int/int_mul lanes fall by a warp's per hit.
  test::KernelRun base, irb;
  run(kReuse, config::Mechanism::Baseline, 32, base);
  run(kReuse, config::Mechanism::UvIrb, 32, irb);
  EXPECT_EQ(irb.stat("sm0.exec.int_mul.lanes"), base.stat("sm0.exec.int_mul.lanes") - 32);
  EXPECT_EQ(irb.stat("sm0.exec.move.lanes"), base.stat("sm0.exec.move.lanes") - 32);
  EXPECT_EQ(irb.stat("sm0.exec.int.lanes"), base.stat("sm0.exec.int.lanes") - 32);
}

TEST(UvIrb, AOneEntryBufferReplacesItsEntryAtEveryMiss) {
  test::KernelRun r;
  run(kReuse, config::Mechanism::Uv, 32, r, 1);
  EXPECT_TRUE(r.equal);
  // The two warps run the chain in lockstep: each instruction's entry is reused by the second
  // warp before the first warp's next instruction evicts it (mul evicts mov, add evicts mul).
  EXPECT_EQ(uv(r, "irb.hits"), 3);
  EXPECT_EQ(uv(r, "irb.misses"), 3);
  EXPECT_EQ(uv(r, "irb.replacements"), 2);
}

// uv-srf: the uniform chain's results are renamed into the SRF; the vector registers keep their
// old values (r1 keeps tid.x), so a read that missed the SRF would store a wrong value.
TEST(UvSrf, UniformResultsLiveInTheScalarRegisterFile) {
  test::KernelRun base, srf;
  run(kUniformChain, config::Mechanism::Baseline, 32, base);
  run(kUniformChain, config::Mechanism::UvSrf, 32, srf);
  ASSERT_TRUE(base.equal);
  EXPECT_TRUE(srf.equal);
  // Per warp: s2r %ctaid.x, add r1, mul r2 are uniform (the SRF design keeps loads in the VRF,
  // so r5 is a vector register here).
  EXPECT_EQ(uv(srf, "uniform"), 6);
  EXPECT_EQ(uv(srf, "srf.writes"), 6);
  // Reads: add r1 and mul read r1 (scalar instructions), add r3, r0, r2 and add r3, r3, r1 read
  // r2 and r1 (vector instructions, through the broadcast path).
  EXPECT_EQ(uv(srf, "srf.reads"), 8);
  EXPECT_EQ(uv(srf, "broadcast_reads"), 4);
  // add r1 renames r1 again (its old register returns); r1 and r2 return when the block retires.
  EXPECT_EQ(uv(srf, "srf.releases"), 6);
  EXPECT_EQ(uv(srf, "srf.peak"), 4);
  EXPECT_EQ(uv(srf, "srf.full"), 0);
  // The scalar results are not written to the register-file banks, the SRF reads not read there.
  EXPECT_LT(srf.stat("sm0.regfile.write_lane_groups"), base.stat("sm0.regfile.write_lane_groups"));
  EXPECT_LT(srf.stat("sm0.regfile.read_lane_groups"), base.stat("sm0.regfile.read_lane_groups"));
  EXPECT_EQ(srf.stat("sm0.exec.int_mul.lanes"), base.stat("sm0.exec.int_mul.lanes") - 31 * 2);
}

// One scalar register, one warp: s2r %ctaid.x takes it; add r1, r1, 7 finds the freelist empty
// (renaming takes a new register before the old one returns) and runs as a vector instruction,
// ending r1's mapping; mul then reads a vector register and is not uniform.
TEST(UvSrf, AFullScalarRegisterFileLeavesUniformInstructionsVector) {
  test::KernelRun srf;
  run(kUniformChain, config::Mechanism::UvSrf, 32, srf, 8, 1, 1);
  EXPECT_TRUE(srf.equal);
  EXPECT_EQ(uv(srf, "uniform"), 2);
  EXPECT_EQ(uv(srf, "srf.full"), 1);
  EXPECT_EQ(uv(srf, "srf.writes"), 1);
  EXPECT_EQ(uv(srf, "srf.peak"), 1);
  EXPECT_EQ(uv(srf, "srf.reads"), 1);  // add r1 reads r1 from the SRF, broadcast
}

// A guarded write to the renamed r1 copies the SRF's value into every lane of the vector register
// first (lanes 8-31 keep 5).
TEST(UvSrf, APartialWriteToARenamedRegisterCopiesTheScalarIntoEveryLaneFirst) {
  test::KernelRun srf;
  run(kPartialWrite, config::Mechanism::UvSrf, 32, srf);
  EXPECT_TRUE(srf.equal);
  EXPECT_EQ(uv(srf, "uniform"), 2);  // mov r1, 5
  EXPECT_EQ(uv(srf, "copies"), 2);
  EXPECT_EQ(uv(srf, "srf.reads"), 2);  // the copies
  EXPECT_EQ(uv(srf, "broadcast_reads"), 0);
}

// uv-srf-irb: the IRB's hits write the SRF like executed uniform instructions.
TEST(UvSrf, IrbHitsWriteTheScalarRegisterFile) {
  test::KernelRun r;
  run(kReuse, config::Mechanism::UvSrfIrb, 32, r);
  EXPECT_TRUE(r.equal);
  EXPECT_EQ(uv(r, "uniform"), 8);
  EXPECT_EQ(uv(r, "irb.misses"), 3);
  EXPECT_EQ(uv(r, "irb.hits"), 3);
  EXPECT_EQ(uv(r, "srf.writes"), 8);
}
