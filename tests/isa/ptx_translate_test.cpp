// The PTX front end (docs/ptx.md) on whole modules: the CUDA workloads translate, run on the
// interpreter and match their C++ references; the `simtlm ptx` listing assembles back to the
// same words; registers beyond 64 spill and still compute right; input outside the subset gets
// one message naming file, line and column.
#include <gtest/gtest.h>

#include <sstream>

#include "isa/assembler.h"
#include "isa/disassembler.h"
#include "isa/ptx/ptx_translate.h"
#include "tests/isa/test_support.h"
#include "workloads/data_dir.h"
#include "workloads/workload.h"

namespace simtlm::test {

namespace {

isa::Kernel translateText(const std::string& text, const std::string& entry = "k") {
  return isa::ptx::translate(isa::ptx::parseModule(text, "t.ptx"), entry);
}

std::string errorOf(const std::string& text, const std::string& entry = "k") {
  try {
    translateText(text, entry);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

// A kernel body wrapped in nvcc's module header; parameter 0 is the output pointer.
std::string module(const std::string& regs, const std::string& body) {
  return ".version 9.0\n.target sm_75\n.address_size 64\n"
         ".visible .entry k(\n .param .u64 k_param_0,\n .param .u32 k_param_1\n)\n{\n" +
         regs + body + "}\n";
}

const char* const kRegs =
    " .reg .pred %p<8>;\n .reg .b32 %r<200>;\n .reg .f32 %f<8>;\n .reg .b64 %rd<8>;\n";

// Runs a one-block kernel whose parameter 0 is a `words`-word output buffer.
Words runOut(const isa::Kernel& k, uint32_t threads, uint32_t words, uint32_t p1 = 0) {
  isa::GlobalMemory mem;
  const uint32_t out = mem.allocate("out", words * 4);
  isa::LaunchConfig l;
  l.grid = {1, 1, 1};
  l.block = {threads, 1, 1};
  l.params = {out, p1};
  isa::Interpreter(k, mem).run(l);
  return mem.words("out");
}

}  // namespace

class CudaWorkload : public ::testing::TestWithParam<std::string> {};

// Every CUDA twin translates, runs on the interpreter and passes its workload's bit-exact check.
TEST_P(CudaWorkload, MatchesItsReference) {
  auto w = workloads::makeWorkload(GetParam());
  ASSERT_FALSE(w->cudaKernels().empty());
  isa::GlobalMemory mem;
  const auto counts = workloads::runOnInterpreter(*w, mem, nullptr, workloads::KernelSource::Cuda);
  EXPECT_EQ(w->verify(mem), "");
  EXPECT_GT(counts.warpInstructions, 0u);
}

// The listing `simtlm ptx` prints assembles back to the same instruction words.
TEST_P(CudaWorkload, ListingAssemblesToTheSameWords) {
  auto w = workloads::makeWorkload(GetParam());
  for (const auto& c : w->cudaKernels()) {
    const isa::Kernel k = isa::ptx::loadPtxFile(workloads::cudaDir() + "/" + c.ptxFile, c.entry);
    const isa::Kernel again = isa::assemble(isa::disassemble(k), "listing.s");
    EXPECT_EQ(again.code, k.code) << c.entry;
    EXPECT_EQ(again.numRegs, k.numRegs);
    EXPECT_EQ(again.sharedBytes, k.sharedBytes);
    EXPECT_EQ(again.localBytes, k.localBytes);
    EXPECT_EQ(again.params.size(), k.params.size());
  }
}

// The timing model fetches the encoded words, the interpreter runs the decoded instructions:
// they agree (branch targets and barrier ids live in the immediate field).
TEST_P(CudaWorkload, EncodedWordsAreTheInstructions) {
  auto w = workloads::makeWorkload(GetParam());
  for (const auto& c : w->cudaKernels()) {
    const isa::Kernel k = isa::ptx::loadPtxFile(workloads::cudaDir() + "/" + c.ptxFile, c.entry);
    ASSERT_EQ(k.code.size(), k.instrs.size());
    for (size_t i = 0; i < k.size(); ++i) {
      isa::Instr back;
      ASSERT_TRUE(isa::decode(k.code[i], back)) << c.entry << " @" << i;
      EXPECT_TRUE(back == k.instrs[i]) << c.entry << " @" << i << ": " << isa::disassemble(k.instrs[i], &k);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Ptx, CudaWorkload,
                         ::testing::Values("vecadd", "matmul", "fig3", "dct8x8", "hotspot", "backprop",
                                           "floydwarshall", "cp", "convsep", "nlm", "binomial", "pathfinder",
                                           "fwt", "srad", "libor", "scalarprod", "mersenne", "fft", "nqueens", "dxtc",
                                           "bfs", "kmeans", "lps", "median",
                                           "sad", "nw", "gaussian", "ray", "heartwall"));

// A CUDA-only workload (the UV paper's benchmarks: no hand-written assembly) runs its CUDA
// kernels when no source is named, and asking for its assembly is one clear error.
TEST(CudaOnlyWorkload, DefaultsToCudaAndRefusesAssembly) {
  auto w = workloads::makeWorkload("nqueens", {{"n", 6}, {"prefix", 2}});
  EXPECT_TRUE(w->kernelFiles().empty());
  EXPECT_EQ(workloads::resolveSource(*w, workloads::KernelSource::Default), workloads::KernelSource::Cuda);
  isa::GlobalMemory mem;
  EXPECT_GT(workloads::runOnInterpreter(*w, mem).warpInstructions, 0u);
  EXPECT_EQ(w->verify(mem), "");
  try {
    workloads::loadKernels(*w, workloads::KernelSource::Assembly);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("nqueens is CUDA-only"), std::string::npos) << e.what();
  }
  auto both = workloads::makeWorkload("vecadd");
  EXPECT_EQ(workloads::resolveSource(*both, workloads::KernelSource::Default), workloads::KernelSource::Assembly);
}

// nvcc's TILE 32 matmul at 256^3: the peer simulator's figure for the same CUDA source
// (../shared/reference/README.md) is 2,103,296 warp instructions. The count is of the
// translated code, so it differs by what the translation adds or removes (docs/ptx.md).
TEST(PtxWorkloads, MatmulWarpInstructionsNearThePeerSimulators) {
  auto w = workloads::makeWorkload("matmul");
  isa::GlobalMemory mem;
  const auto c = workloads::runOnInterpreter(*w, mem, nullptr, workloads::KernelSource::Cuda);
  EXPECT_EQ(w->verify(mem), "");
  EXPECT_EQ(c.barriers, 64u * 8u * 2u);
  EXPECT_NEAR(static_cast<double>(c.warpInstructions), 2103296.0, 0.05 * 2103296.0);
}

TEST(PtxModule, ListsEntriesAndNeedsANameWhenThereAreSeveral) {
  const auto m = isa::ptx::parseModule(readFile(workloads::cudaDir() + "/matmul.ptx"), "matmul.ptx");
  EXPECT_EQ(isa::ptx::entryNames(m), (std::vector<std::string>{"matmul_tiled", "matmul_tiled16"}));
  try {
    isa::ptx::loadPtxFile(workloads::cudaDir() + "/matmul.ptx");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_CONTAINS(e.what(), "several kernels (matmul_tiled, matmul_tiled16)");
  }
  EXPECT_CONTAINS(errorOf(readFile(workloads::cudaDir() + "/matmul.ptx"), "nope"),
                  "no kernel 'nope' in the PTX module (its kernels: matmul_tiled, matmul_tiled16)");
}

// 70 values live at once: the allocator spills some to .local, and the sum is still right.
TEST(PtxRegisters, SpillsBeyondSixtyFourRegistersAndComputesRight) {
  std::ostringstream b;
  b << " ld.param.u64 %rd1, [k_param_0];\n cvta.to.global.u64 %rd2, %rd1;\n mov.u32 %r0, %tid.x;\n";
  for (int i = 1; i <= 70; ++i) b << " mad.lo.s32 %r" << i << ", %r0, " << i << ", " << i * i << ";\n";
  b << " mov.u32 %r100, 0;\n";
  for (int i = 1; i <= 70; ++i) b << " xor.b32 %r100, %r100, %r" << i << ";\n";
  b << " mul.wide.u32 %rd3, %r0, 4;\n add.s64 %rd4, %rd2, %rd3;\n st.global.u32 [%rd4], %r100;\n ret;\n";
  const isa::Kernel k = translateText(module(kRegs, b.str()));
  EXPECT_GT(k.numRegs, 60);  // r60..r63 hold the spilled values around their uses
  EXPECT_GT(k.localBytes, 0u);
  const Words out = runOut(k, 32, 32);
  for (uint32_t t = 0; t < 32; ++t) {
    uint32_t acc = 0;
    for (uint32_t i = 1; i <= 70; ++i) acc ^= t * i + i * i;
    EXPECT_EQ(out[t], acc) << "thread " << t;
  }
}

TEST(PtxRegisters, RefusesMoreThanSevenLivePredicates) {
  std::ostringstream b;
  b << " mov.u32 %r0, %tid.x;\n";
  for (int i = 0; i < 8; ++i) b << " setp.eq.s32 %p" << i << ", %r0, " << i << ";\n";
  b << " mov.u32 %r1, 0;\n";
  for (int i = 0; i < 8; ++i) b << " selp.b32 %r" << 2 + i << ", 1, 0, %p" << i << ";\n";
  b << " ret;\n";
  EXPECT_CONTAINS(errorOf(module(kRegs, b.str())), "needs more than 7 predicate registers");
}

// A branch to a bare `ret` is a guarded exit, so the lanes that stay reach bar.sync whole.
TEST(PtxControl, BranchToReturnBecomesAGuardedExit) {
  const std::string body =
      " ld.param.u64 %rd1, [k_param_0];\n cvta.to.global.u64 %rd2, %rd1;\n mov.u32 %r0, %tid.x;\n"
      " setp.gt.u32 %p1, %r0, 40;\n @%p1 bra $L__BB0_2;\n bar.sync 0;\n"
      " mul.wide.u32 %rd3, %r0, 4;\n add.s64 %rd4, %rd2, %rd3;\n st.global.u32 [%rd4], %r0;\n"
      "$L__BB0_2:\n ret;\n";
  const isa::Kernel k = translateText(module(kRegs, body));
  EXPECT_EQ(k.instrs[findInstr(k, "@p")].op, isa::Op::EXIT);
  // Threads 41..63 leave; warp 1 (32..63) reaches the barrier with 32..40 only, as their
  // warp's other lanes have exited: no deadlock, no divergence error.
  const Words out = runOut(k, 64, 64);
  for (uint32_t t = 0; t < 64; ++t) EXPECT_EQ(out[t], t <= 40 ? t : 0u) << t;
}

struct BadPtx {
  const char* body;
  const char* message;
};

class PtxRejects : public ::testing::TestWithParam<BadPtx> {};

TEST_P(PtxRejects, WithOneMessageNamingTheLine) {
  const std::string text = module(kRegs, GetParam().body);
  const std::string e = errorOf(text);
  EXPECT_CONTAINS(e, GetParam().message);
  EXPECT_CONTAINS(e, "t.ptx:13:");  // the body's first line (line 13 of the module)
}

INSTANTIATE_TEST_SUITE_P(
    Ptx, PtxRejects,
    ::testing::Values(
        BadPtx{" shfl.sync.bfly.b32 %r1, %r2, 1, 31, -1;\n ret;\n",
               "t.ptx:13:2: error: PTX 'shfl.sync.bfly.b32' is not supported (docs/ptx.md lists the subset)"},
        BadPtx{" setp.lt.u64 %p1, %rd1, %rd2;\n ret;\n", "64-bit integer arithmetic is not supported ('setp.lt.u64')"},
        BadPtx{" shr.u64 %rd1, %rd2, 3;\n ret;\n", "64-bit integer arithmetic is not supported"},
        BadPtx{" div.s64 %rd1, %rd2, %rd3;\n ret;\n", "64-bit integer arithmetic is not supported"},
        BadPtx{" add.f64 %fd1, %fd2, %fd3;\n ret;\n", "64-bit floating point ('add.f64') is not supported"},
        BadPtx{" ld.f32 %f1, [%rd1];\n ret;\n", "PTX 'ld.f32 (generic addressing; write the state space)' is not supported"},
        BadPtx{" ld.global.u8 %r1, [%rd1];\n ret;\n", "sub-word memory accesses ('ld.global.u8') are not supported"},
        BadPtx{" st.global.u64 [%rd1], %rd2;\n ret;\n", "64-bit memory accesses ('st.global.u64') are not supported"},
        BadPtx{" add.rz.f32 %f1, %f2, %f3;\n ret;\n", "PTX 'add.rz.f32' is not supported"},
        BadPtx{" add.ftz.f32 %f1, %f2, %f3;\n ret;\n", "PTX 'add.ftz.f32' is not supported"},
        BadPtx{" call.uni foo, (%r1);\n ret;\n", "PTX 'call.uni' is not supported"},
        BadPtx{" mov.u32 %r1, %smid;\n ret;\n", "PTX '%smid' is not supported"},
        BadPtx{" bra $L__nowhere;\n ret;\n", "branch to undefined label '$L__nowhere'"},
        BadPtx{" add.s32 %r1, %q2, 1;\n ret;\n", "register '%q2' is not declared"},
        BadPtx{" bar.sync %r1;\n ret;\n", "the barrier id must be a number 0..15"}));

// Fuzz finding (tests/ptx_fuzz_findings/): a kernel in which no instruction writes a register
// read an uninitialized RegRef in the web splitting (UBSan: a bool holding 32). Under
// scripts/sanitize.sh this test is the reproducer.
TEST(PtxRegisters, KernelThatWritesNoRegisterTranslates) {
  const isa::Kernel k = translateText(".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n ret;\n}\n");
  ASSERT_EQ(k.size(), 1u);
  EXPECT_EQ(k.instrs[0].op, isa::Op::EXIT);
  // The input as the fuzzer found it: translates, or is refused with an InputError.
  const std::string found = readFile(std::string(SIMTLM_SOURCE_DIR) + "/tests/ptx_fuzz_findings/regalloc_uninit_wpred_artifact.ptx");
  try {
    const auto m = isa::ptx::parseModule(found, "found.ptx");
    for (const auto& e : isa::ptx::entryNames(m)) isa::ptx::translate(m, e);
  } catch (const InputError&) {
  }
}

TEST(PtxParser, NamesLineAndColumnOfBadText) {
  EXPECT_CONTAINS(errorOf(".version 9.0\n.target sm_75\n.entry k(\n.param .u32 a\n{\n ret;\n}\n"),
                  "t.ptx:5:1: error: expected ',' or ')', found '{'");
  EXPECT_CONTAINS(errorOf(".version 9.0\n.target sm_75\n.entry k()\n{\n add.s32 %r1, 1.5, 2;\n}\n"),
                  "t.ptx:5:15: error: PTX writes floating-point immediates as 0f (hex bits), not '1.5'");
  EXPECT_CONTAINS(errorOf(".version 9.0\n.target sm_75\n.global .u32 g;\n.entry k()\n{\n.reg .b32 %r<2>;\n mov.u32 %r1, g;\n ret;\n}\n"),
                  "PTX '.global variable g (a __device__ variable)' is not supported");
}

// __constant__ data: a hidden parameter after the declared ones, named by the symbol.
TEST(PtxSymbols, ConstantArraysBecomeHiddenParameters) {
  const isa::Kernel k = isa::ptx::loadPtxFile(workloads::cudaDir() + "/convsep.ptx", "convsep_rows");
  ASSERT_EQ(k.constantParams, 1u);
  EXPECT_EQ(k.params.back().name, "c_Kernel");
  EXPECT_EQ(k.params.back().offset, 4u * (k.params.size() - 1));
}

}  // namespace simtlm::test

namespace simtlm::test {

// Atomics and reductions (which the random modules leave out: their order is the interpreter's,
// lane by lane) and the opcodes whose PTX modifiers pick the simtlm opcode (.ftz, .nc, ldu,
// membar), each with a value a wrong choice would change. One warp of 32 threads; out[0..] as
// commented.
TEST(PtxOpcodes, AtomicsReductionsAndModifiersTranslateToTheirMeaning) {
  const std::string body = R"(
 .shared .align 4 .b8 sh[8];
 ld.param.u64 %rd1, [k_param_0];
 cvta.to.global.u64 %rd2, %rd1;
 mov.u32 %r0, %tid.x;
 mov.u32 %r1, sh;
 atom.shared.add.u32 %r2, [%r1], 1;
 red.global.add.u32 [%rd2], %r0;
 atom.global.max.s32 %r3, [%rd2+4], %r0;
 atom.global.min.u32 %r4, [%rd2+8], %r0;
 atom.global.exch.b32 %r5, [%rd2+12], %r0;
 atom.global.cas.b32 %r6, [%rd2+16], 0, 77;
 membar.gl;
 bar.sync 0;
 setp.ne.s32 %p1, %r0, 0;
 @%p1 bra $L__BB0_2;
 ld.shared.u32 %r7, [sh];
 st.global.u32 [%rd2+20], %r7;
 mov.b32 %f1, 0f00400000;
 ex2.approx.ftz.f32 %f2, %f1;
 st.global.f32 [%rd2+24], %f2;
 lg2.approx.ftz.f32 %f3, %f1;
 st.global.f32 [%rd2+28], %f3;
 lg2.approx.f32 %f4, %f1;
 st.global.f32 [%rd2+32], %f4;
 ld.global.nc.u32 %r8, [%rd2+20];
 ldu.global.u32 %r9, [%rd2+20];
 add.s32 %r10, %r8, %r9;
 st.global.u32 [%rd2+36], %r10;
 mov.pred %p2, 1;
 selp.b32 %r11, 5, 6, %p2;
 st.global.u32 [%rd2+40], %r11;
$L__BB0_2:
 ret;
)";
  const isa::Kernel k = translateText(module(kRegs, body));
  const Words out = runOut(k, 32, 16);
  EXPECT_EQ(out[0], 496u);  // red.add of tid 0..31
  EXPECT_EQ(out[1], 31u);   // atom.max
  EXPECT_EQ(out[2], 0u);    // atom.min
  EXPECT_EQ(out[3], 31u);   // atom.exch: lanes in order, the last one's value stays
  EXPECT_EQ(out[4], 77u);   // atom.cas: lane 0 swaps 0 for 77, the others find 77
  EXPECT_EQ(out[5], 32u);   // atom.shared.add: 32 lanes
  EXPECT_EQ(out[6], 0x3f800000u);  // ex2.approx.ftz(subnormal) = ex2(0) = 1
  EXPECT_EQ(out[7], 0xff800000u);  // lg2.approx.ftz(subnormal) = lg2(+0) = -inf
  EXPECT_EQ(out[8], 0xc2fe0000u);  // without .ftz: lg2(2^-127) = -127
  EXPECT_EQ(out[9], 64u);   // ld.global.nc + ldu of 32
  EXPECT_EQ(out[10], 5u);   // mov.pred 1, selp
  size_t nc = 0;
  for (const auto& in : k.instrs) nc += in.op == isa::Op::LD_GLOBAL_NC;
  EXPECT_EQ(nc, 2u);
}

}  // namespace simtlm::test
