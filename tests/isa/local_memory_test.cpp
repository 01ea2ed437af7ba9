// Local memory (ld.local / st.local, isa/local_memory.h): the interleaved address of a thread's
// word, the per-launch space the interpreter allocates, bounds faults, the binary's .local size,
// and how DARSIE's marking carries redundancy through local words.
#include <gtest/gtest.h>

#include "isa/affine_analysis.h"
#include "isa/binary.h"
#include "isa/darsie_analysis.h"
#include "isa/local_memory.h"
#include "isa/warp.h"
#include "tests/isa/test_support.h"

using namespace simtlm::isa;
using simtlm::test::findInstr;
using simtlm::test::launch;
using simtlm::test::runKernel;

namespace {

std::string label(const RedundancyClass& c) {
  if (c.vector) return "V";
  if (!c.deps) return "DR";
  return "CR" + std::to_string(c.deps);
}

// Each thread stores its linear index t = ctaid.x * ntid.x + tid.x into local word 1 and t * 3
// into word 2, reads both back and writes word1 + word2 = 4 t to OUT[t].
const char* kPerThread = R"(.kernel per_thread
.local 12
.param OUT
  s2r r0, %ctaid.x
  s2r r1, %ntid.x
  s2r r2, %tid.x
  mad.lo.u32 r0, r0, r1, r2
  st.local.b32 [4], r0
  mul.lo.u32 r3, r0, 3
  mov.b32 r4, 8
  st.local.b32 [r4], r3
  ld.local.b32 r5, [4]
  ld.local.b32 r6, [r4]
  add.u32 r5, r5, r6
  shl.b32 r7, r0, 2
  ld.param.b32 r8, [OUT]
  add.u32 r8, r8, r7
  st.global.b32 [r8], r5
  exit
)";

}  // namespace

TEST(LocalMemory, AddressInterleavesThreads) {
  // Word 3 (byte offset 12) of thread 37 of a 1024-thread launch.
  EXPECT_EQ(localAddress(0x10000000u, 1024, 37, 12), 0x10000000u + (3 * 1024 + 37) * 4);
  EXPECT_EQ(localAddress(0x10000000u, 1024, 37, 12), 0x10003094u);
  // The same word of consecutive threads is adjacent: one warp, one contiguous 128-byte run.
  EXPECT_EQ(localAddress(0x10000000u, 1024, 38, 12) - localAddress(0x10000000u, 1024, 37, 12), 4u);
}

TEST(LocalMemory, WarpTranslatesByGridThread) {
  // Grid of 2 blocks of 64 threads (128 threads), warps of 32: block 1, warp 1, lane 5 is
  // thread 64 + 32 + 5 = 101; its byte offset 8 (word 2) lies at base + (2 * 128 + 101) * 4.
  Kernel k = assemble(".kernel k\n.local 16\n  ld.local.b32 r1, [r0+8]\n  exit\n", "k.s");
  LaunchConfig l = launch({2, 1, 1}, {64, 1, 1}, {});
  l.localBase = 0x20000000u;
  WarpContext w(k, l, {1, 0, 0}, 1);
  uint32_t off[32], addr[32] = {};
  std::fill(off, off + 32, 8u);
  w.localToGlobal(1u << 5 | 1u, off, addr);
  EXPECT_EQ(addr[5], 0x20000000u + 1428u);
  EXPECT_EQ(addr[0], 0x20000000u + (2 * 128 + 96) * 4u);
  EXPECT_EQ(addr[1], 0u);  // not in exec: untouched
}

TEST(LocalMemory, InterpreterKeepsEachThreadsWords) {
  auto r = runKernel(kPerThread, {{"out", std::vector<uint32_t>(128, 0)}}, {2, 1, 1}, {64, 1, 1});
  for (uint32_t t = 0; t < 128; ++t) ASSERT_EQ(r["out"][t], 4 * t) << "thread " << t;
  // The launch's space: 12 bytes x 128 threads, interleaved, zeroed where nothing was stored.
  const std::vector<uint32_t> local = r.mem.words(kLocalBufferName);
  ASSERT_EQ(local.size(), 3u * 128);
  EXPECT_EQ(local[0 * 128 + 101], 0u);
  EXPECT_EQ(local[1 * 128 + 101], 101u);
  EXPECT_EQ(local[2 * 128 + 101], 303u);
}

TEST(LocalMemory, LaunchesReuseTheSpaceZeroed) {
  Kernel k = assemble(R"(.kernel k
.local 4
.param OUT
  s2r r0, %tid.x
  ld.local.b32 r1, [0]
  add.u32 r1, r1, 1
  st.local.b32 [0], r1
  shl.b32 r0, r0, 2
  ld.param.b32 r2, [OUT]
  add.u32 r2, r2, r0
  st.global.b32 [r2], r1
  exit
)", "k.s");
  GlobalMemory mem;
  const uint32_t out = mem.allocate("out", 32 * 4);
  Interpreter(k, mem).run(launch({1, 1, 1}, {32, 1, 1}, {out}));
  Interpreter(k, mem).run(launch({1, 1, 1}, {32, 1, 1}, {out}));
  EXPECT_EQ(mem.words("out"), std::vector<uint32_t>(32, 1u));  // each launch reads zero first
  EXPECT_EQ(mem.regions().size(), 2u);                           // one local buffer, reused
}

TEST(LocalMemory, OutOfBoundsFaults) {
  Kernel k = assemble(".kernel k\n.local 8\n  s2r r0, %tid.x\n  shl.b32 r0, r0, 2\n"
                      "  ld.local.b32 r1, [r0]\n  exit\n", "k.s");
  GlobalMemory mem;
  const std::string e = simtlm::test::runError(k, mem, launch({1, 1, 1}, {4, 1, 1}, {}));
  EXPECT_CONTAINS(e, "local memory access out of bounds (8 bytes per thread)");
  EXPECT_CONTAINS(e, "lane 2");
  EXPECT_CONTAINS(e, "address 0x8");
}

TEST(LocalMemory, LaunchTooLargeIsRejected) {
  Kernel k = assemble(".kernel k\n.local 524288\n  exit\n", "k.s");
  EXPECT_EQ(simtlm::test::launchError(k, launch({4096, 1, 1}, {1024, 1, 1}, {})),
            "local memory of the launch (524288 bytes x 4194304 threads) is outside [0, 1073741824] bytes");
}

TEST(LocalMemory, BinaryKeepsTheLocalSize) {
  Kernel k = assemble(kPerThread, "k.s");
  Kernel back = deserializeKernel(serializeKernel(k), "k.bin");
  EXPECT_EQ(back.localBytes, 12u);
  EXPECT_EQ(back.code, k.code);
  EXPECT_EQ(disassemble(back).find(".local 12\n") != std::string::npos, true);
}

// DARSIE (Sec. 4.2 extended to local memory): a load from a local word takes the class of the
// values stored there, and of its address.
TEST(LocalMemory, DarsieCarriesRedundancyThroughLocalWords) {
  Kernel k = assemble(R"(.kernel k
.local 64
  s2r r0, %warpid                  // differs between warps: V
  mov.b32 r1, 7                    // DR
  st.local.b32 [0], r1             // DR value at a uniform offset
  st.local.b32 [4], r0             // V value at another word
  ld.local.b32 r2, [0]             // DR: word 0 holds 7 in every thread
  ld.local.b32 r3, [4]             // V
  st.local.b32 [0], r0             // a vector store to word 0 ...
  ld.local.b32 r4, [0]             // ... makes its later load V
  mov.b32 r5, 12
  st.local.b32 [r5+0], r1          // DR value at a DR offset the analysis cannot name
  ld.local.b32 r6, [r5+0]          // V: words 0 and 1 (any word) may still hold vectors
  exit
)", "k.s");
  Cfg cfg(k);
  auto m = markRedundancy(k, cfg);
  EXPECT_EQ(label(m.instr[findInstr(k, "ld.local.b32 r2")]), "DR");
  EXPECT_EQ(label(m.instr[findInstr(k, "ld.local.b32 r3")]), "V");
  EXPECT_EQ(label(m.instr[findInstr(k, "ld.local.b32 r4")]), "V");
  EXPECT_EQ(label(m.instr[findInstr(k, "ld.local.b32 r6")]), "V");
}

TEST(LocalMemory, DarsieDynamicOffsetsStayRedundantWhenEveryStoreIs) {
  // LIB's pattern: a loop stores a redundant value at a redundant, dynamic offset, and later
  // loads from dynamic offsets read it back: redundant. A CR(x) offset makes the load CR(x).
  Kernel k = assemble(R"(.kernel k
.local 64
  mov.b32 r0, 0
  mov.b32 r1, 0.05
init:
  st.local.b32 [r0], r1
  add.u32 r0, r0, 4
  setp.lt.u32 p0, r0, 64
  @p0 bra init
  mov.b32 r2, 8
  ld.local.b32 r3, [r2]
  mul.f32 r3, r3, 2.0
  st.local.b32 [r2], r3
  ld.local.b32 r4, [r2+4]
  s2r r5, %tid.x
  and.b32 r5, r5, 12
  ld.local.b32 r6, [r5]
  @p0 st.local.b32 [r2], r5        // guarded by a DR predicate, but stores a CR(x) value
  ld.local.b32 r7, [r2]
  exit
)", "k.s");
  Cfg cfg(k);
  auto m = markRedundancy(k, cfg);
  EXPECT_EQ(label(m.instr[findInstr(k, "ld.local.b32 r3")]), "DR");
  EXPECT_EQ(label(m.instr[findInstr(k, "ld.local.b32 r4")]), "DR");
  EXPECT_EQ(label(m.instr[findInstr(k, "ld.local.b32 r6")]), "CR1");
  EXPECT_EQ(label(m.instr[findInstr(k, "ld.local.b32 r7")]), "CR1");
}

TEST(LocalMemory, DarsieStoreUnderDivergentBranchKillsTheWord) {
  // A DR value stored only by the warps that take a warp-dependent branch: where the paths
  // join, word 0 differs between warps (control dependence, DESIGN.md rule 2).
  Kernel k = assemble(R"(.kernel k
.local 16
  s2r r0, %warpid
  mov.b32 r1, 7
  setp.eq.b32 p0, r0, 0
  @!p0 bra join
  st.local.b32 [0], r1
join:
  ld.local.b32 r2, [0]
  ld.local.b32 r3, [4]
  exit
)", "k.s");
  Cfg cfg(k);
  auto m = markRedundancy(k, cfg);
  EXPECT_EQ(label(m.instr[findInstr(k, "ld.local.b32 r2")]), "V");
  EXPECT_EQ(label(m.instr[findInstr(k, "ld.local.b32 r3")]), "DR");  // untouched: zero everywhere
}

TEST(LocalMemory, AffineLocalLoadIsGeneric) {
  // A uniform offset reads a different word in every lane: never a uniform value.
  Kernel k = assemble(".kernel k\n.local 8\n  ld.local.b32 r1, [4]\n  exit\n", "k.s");
  Cfg cfg(k);
  EXPECT_EQ(classifyAffine(k, cfg).instr[0], ValueShape::Generic);
}

TEST(LocalMemory, DarsieMarksLibLocalLoadsRedundant) {
  // LIB stores constants (z = 0.3, L = 0.05) and values computed from them and from uniform
  // loads at the same offsets in every thread: all 6 of its local loads are DR, and only the
  // path index, its store address and the non-value instructions are not.
  Kernel k = simtlm::test::assembleWorkloadKernel("libor.s");
  Cfg cfg(k);
  auto m = markRedundancy(k, cfg);
  int loads = 0, dr = 0;
  for (size_t i = 0; i < k.size(); ++i) {
    if (k.instrs[i].op == Op::LD_LOCAL) {
      ++loads;
      EXPECT_EQ(label(m.instr[i]), "DR") << disassemble(k.instrs[i], &k);
    }
    if (label(m.instr[i]) == "DR") ++dr;
  }
  EXPECT_EQ(loads, 6);
  EXPECT_EQ(dr, 78);
}
