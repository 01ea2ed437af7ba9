// Faults on the timing model read as the interpreter's: the same text, block, warp, lane, PC,
// address and source line (the timing model adds the SM), so that a scenario's expect_error and
// a reader see one message whichever engine ran. Kernels run on runGrid (the ideal memories).
#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "isa/diagnostics.h"
#include "isa/interpreter.h"
#include "model/mechanisms/registry.h"
#include "model/sm/grid_runner.h"

using namespace simtlm;

namespace {

// The interpreter's message for `k`, and the timing model's; the timing model must stop at
// once (no watchdog) with the interpreter's message followed by the SM.
void expectSameFault(const std::string& source, const isa::LaunchConfig& l, const char* what) {
  const isa::Kernel k = isa::assemble(source, "k.s");
  std::string interp;
  {
    isa::GlobalMemory mem;
    isa::LaunchConfig li = l;
    if (!li.params.empty()) li.params[0] = mem.allocate("buf", 64);
    try {
      isa::Interpreter(k, mem).run(li);
    } catch (const ExecError& e) {
      interp = e.what();
    }
  }
  ASSERT_NE(interp.find(what), std::string::npos) << interp;
  isa::GlobalMemory mem;
  isa::LaunchConfig lt = l;
  if (!lt.params.empty()) lt.params[0] = mem.allocate("buf", 64);
  config::GpuConfig cfg;
  cfg.gpu.num_sms = 1;
  stats::Registry reg;
  const sm::GridResult r = sm::runGrid(cfg, mechanisms::factoryFor(cfg), k, lt, mem, reg);
  EXPECT_EQ(r.error.rfind(interp, 0), 0u) << "timing model: " << r.error << "\ninterpreter:  " << interp;
  EXPECT_EQ(r.error.substr(std::min(r.error.size(), interp.size())), " on SM 0");
  EXPECT_LT(r.cycles, 2000u);  // caught where it happens, not by the watchdog
}

isa::LaunchConfig warps(uint32_t threads, bool withBuffer = true) {
  isa::LaunchConfig l;
  l.grid = {2, 1, 1};
  l.block = {threads, 1, 1};
  if (withBuffer) l.params = {0};  // the test puts a 64-byte buffer's address here
  return l;
}

}  // namespace

TEST(TimingFaults, OutOfBoundsGlobalStoreAsTheInterpreter) {
  // 32 lanes store 4 bytes apart into a 64-byte buffer: lane 16 is the first outside.
  expectSameFault(R"(
.kernel oob
.param OUT
  s2r r0, %tid.x
  shl.b32 r1, r0, 2
  ld.param.b32 r2, [OUT]
  add.u32 r2, r2, r1
  st.global.b32 [r2], r0
  exit
)", warps(32), "global memory access outside every buffer (block (0,0,0), warp 0, lane 16, PC 0x20");
}

TEST(TimingFaults, OutOfBoundsGlobalLoadAndAtomicAsTheInterpreter) {
  expectSameFault(R"(
.kernel oobl
.param IN
  s2r r0, %tid.x
  shl.b32 r1, r0, 3
  ld.param.b32 r2, [IN]
  add.u32 r2, r2, r1
  ld.global.b32 r3, [r2]
  exit
)", warps(32), "global memory access outside every buffer (block (0,0,0), warp 0, lane 8, PC 0x20");
  expectSameFault(R"(
.kernel ooba
.param IN
  s2r r0, %tid.x
  shl.b32 r1, r0, 4
  ld.param.b32 r2, [IN]
  add.u32 r2, r2, r1
  atom.global.add.u32 r3, [r2], r0
  exit
)", warps(32), "global memory access outside every buffer (block (0,0,0), warp 0, lane 4, PC 0x20");
}

TEST(TimingFaults, MissingExitAsTheInterpreter) {
  expectSameFault(R"(
.kernel noexit
  s2r r0, %tid.x
  add.u32 r1, r0, 1
)", warps(64, false), "PC past the last instruction (missing exit?) (block (0,0,0), warp 0, PC 0x10)");
}

TEST(TimingFaults, MissingExitAfterABranchAsTheInterpreter) {
  // Lanes 0-15 branch to the end of the kernel; the others exit.
  expectSameFault(R"(
.kernel noexit2
  s2r r0, %tid.x
  setp.lt.u32 p0, r0, 16
  @p0 bra end
  exit
end:
  add.u32 r1, r0, 1
)", warps(32, false), "PC past the last instruction (missing exit?) (block (0,0,0), warp 0, PC 0x28)");
}

TEST(TimingFaults, MisalignedAndSharedOutOfBoundsAsTheInterpreter) {
  expectSameFault(R"(
.kernel mis
.param IN
  s2r r0, %tid.x
  ld.param.b32 r2, [IN]
  add.u32 r2, r2, r0
  ld.global.b32 r3, [r2]
  exit
)", warps(32), "misaligned 32-bit access (block (0,0,0), warp 0, lane 1, PC 0x18");
  expectSameFault(R"(
.kernel shoob
.shared 64
  s2r r0, %laneid
  shl.b32 r1, r0, 2
  st.shared.b32 [r1], r0
  exit
)", warps(32, false), "shared memory access out of bounds (64 bytes) (block (0,0,0), warp 0, lane 16, PC 0x10");
}
