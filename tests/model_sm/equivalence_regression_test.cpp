// Regression tests of issue 14's functional-equivalence failures: each kernel is a failure
// class found from outside (a control instruction or a barrier at the join of a divergent
// branch, two bar.sync PCs with one id, darsie-no-cf-sync falling behind its own branch
// history, darsie-ignore-store reading a value a store changed, 64 registers). Each runs
// under every mechanism and must end with memory equal to the interpreter's, with every warp
// instruction issued or skipped exactly once.
#include <gtest/gtest.h>

#include <string>

#include "isa/assembler.h"
#include "isa/cfg.h"
#include "isa/darsie_analysis.h"
#include "isa/interpreter.h"
#include "model/mechanisms/registry.h"
#include "model/sm/grid_runner.h"

using namespace simtlm;

namespace {

using M = config::Mechanism;
const M kAllMechanisms[] = {M::Baseline, M::Darsie, M::DarsieIgnoreStore, M::DarsieNoCfSync, M::DarsieEarlySkip};

struct Outcome {
  std::string error;
  bool equal = false;
  uint64_t interp = 0, issued = 0, skipped = 0;
  nlohmann::json stats;
  uint64_t stat(const std::string& suffix, int sms) const {
    uint64_t n = 0;
    for (int i = 0; i < sms; ++i) n += stats.value("sm" + std::to_string(i) + "." + suffix, uint64_t{0});
    return n;
  }
};

struct Launch {
  isa::Dim3 block{64, 1, 1}, grid{1, 1, 1};
  uint32_t warpSize = 32;
  uint32_t outWords = 64, inWords = 0;
  std::vector<uint32_t> in;  // initial IN words (zero beyond)
};

// Assembles `src` with DARSIE's hints (as scenarios compile kernels), runs it on the
// interpreter and on the timing model; params are OUT then IN.
Outcome runBoth(const std::string& src, const Launch& l, config::GpuConfig cfg) {
  isa::Kernel k = isa::assemble(src, "regression.s");
  isa::applyStaticHints(k, isa::markRedundancy(k, isa::Cfg(k)));
  auto setup = [&](isa::GlobalMemory& mem) {
    isa::LaunchConfig lc;
    lc.block = l.block;
    lc.grid = l.grid;
    lc.warpSize = l.warpSize;
    lc.params.push_back(mem.allocate("OUT", l.outWords * 4));
    const uint32_t inWords = std::max<uint32_t>(l.inWords, 1);
    lc.params.push_back(mem.allocate("IN", inWords * 4));
    std::vector<uint32_t> words(inWords, 0);
    std::copy(l.in.begin(), l.in.end(), words.begin());
    mem.setWords("IN", words);
    return lc;
  };
  isa::GlobalMemory golden, timed;
  const auto lg = setup(golden), lt = setup(timed);
  Outcome out;
  out.interp = isa::Interpreter(k, golden).run(lg).warpInstructions;
  cfg.gpu.warp_size = static_cast<int>(l.warpSize);
  stats::Registry reg;
  out.error = sm::runGrid(cfg, mechanisms::factoryFor(cfg), k, lt, timed, reg).error;
  out.equal = golden == timed;
  out.stats = reg.toJson();
  out.issued = out.stat("issue.warp_instructions", cfg.gpu.num_sms);
  out.skipped = out.stat("darsie.skipped", cfg.gpu.num_sms);
  return out;
}

config::GpuConfig gpu(M m) {
  config::GpuConfig c;  // Pascal defaults
  c.gpu.num_sms = 1;
  c.mechanism = m;
  return c;
}

void expectEquivalent(const std::string& src, const Launch& l, M m, const std::string& what) {
  const Outcome r = runBoth(src, l, gpu(m));
  SCOPED_TRACE(what + " under " + config::mechanismName(m));
  ASSERT_EQ(r.error, "");
  EXPECT_TRUE(r.equal) << "memory differs from the interpreter";
  EXPECT_EQ(r.issued + r.skipped, r.interp);
}

// The output address of the thread (r12 = OUT + 4 * global thread id) and a TB-redundant
// value (r13) that DARSIE can skip, after `pad` nops that move the code across fetch groups
// and I-cache lines.
std::string prologue(int pad, int regs = 16) {
  std::string s = ".kernel regression\n.regs " + std::to_string(regs) + "\n.param OUT\n.param IN\n.shared 8192\n";
  for (int i = 0; i < pad; ++i) s += "  nop\n";
  s += R"(
  s2r r0, %tid.x
  s2r r9, %ctaid.x
  s2r r10, %ntid.x
  mad.lo.u32 r11, r9, r10, r0
  shl.b32 r11, r11, 2
  ld.param.b32 r12, [OUT]
  add.u32 r12, r12, r11
  mul.lo.u32 r13, r10, 3
  add.u32 r13, r13, 17
  and.b32 r1, r0, 1
  setp.eq.b32 p0, r1, 0
  mov.b32 r2, 5
)";
  return s;
}

// --- 1. a control instruction at the reconvergence point of a divergent branch --------------
// The taken path runs first and falls through into the join; its last instruction is fetched
// together with the join's control instruction.

// The join is `bra NEXT`, or `@p1 bra NEXT` with `guard` "@p1 " (p1: the first five threads).
std::string joinIsBra(int pad, const std::string& guard = "") {
  return prologue(pad) + R"(
  setp.lt.u32 p1, r0, 5
  @p0 bra TAKEN
  add.u32 r2, r2, 7
  bra JOIN
TAKEN:
  add.u32 r2, r2, r13
JOIN:
  )" + guard + R"(bra NEXT
  add.u32 r2, r2, 1000
NEXT:
  st.global.b32 [r12], r2
  exit
)";
}

std::string joinIsExit(int pad) {
  return prologue(pad) + R"(
  @p0 bra TAKEN
  add.u32 r2, r2, 7
  st.global.b32 [r12], r2
  bra JOIN
TAKEN:
  add.u32 r2, r2, r13
  st.global.b32 [r12], r2
JOIN:
  exit
)";
}

// Nested if/else: the inner join is the outer branch's jump to the outer join.
std::string nestedIfElse(int pad) {
  return prologue(pad) + R"(
  setp.lt.u32 p1, r0, 40
  @p1 bra OUTER_TAKEN
  add.u32 r2, r2, 1
  bra OUTER_JOIN
OUTER_TAKEN:
  @p0 bra INNER_TAKEN
  add.u32 r2, r2, 20
  bra INNER_JOIN
INNER_TAKEN:
  add.u32 r2, r2, r13
INNER_JOIN:
  bra OUTER_JOIN
OUTER_JOIN:
  st.global.b32 [r12], r2
  exit
)";
}

TEST(EquivalenceRegression, ControlInstructionAtAJoin) {
  for (int pad = 0; pad < 4; ++pad)
    for (M m : kAllMechanisms) {
      expectEquivalent(joinIsBra(pad), {}, m, "bra at the join, pad " + std::to_string(pad));
      expectEquivalent(joinIsBra(pad, "@p1 "), {}, m, "guarded bra at the join, pad " + std::to_string(pad));
      expectEquivalent(joinIsExit(pad), {}, m, "exit at the join, pad " + std::to_string(pad));
      expectEquivalent(nestedIfElse(pad), {}, m, "nested if/else, pad " + std::to_string(pad));
    }
}

// --- 2. bar.sync at the reconvergence point of a divergent branch ------------------------------

std::string barrierAtJoin(int pad) {
  return prologue(pad) + R"(
  @p0 bra TAKEN
  add.u32 r2, r2, 7
  bra JOIN
TAKEN:
  add.u32 r2, r2, r13
  mul.lo.u32 r2, r2, 3
JOIN:
  bar.sync 0
  shl.b32 r3, r0, 2
  st.shared.b32 [r3], r2
  bar.sync 0
  add.u32 r4, r0, 1
  rem.u32 r4, r4, r10
  shl.b32 r4, r4, 2
  ld.shared.b32 r5, [r4]
  add.u32 r5, r5, r13
  st.global.b32 [r12], r5
  exit
)";
}

TEST(EquivalenceRegression, BarrierAtAJoin) {
  for (int pad = 0; pad < 4; ++pad)
    for (M m : kAllMechanisms) expectEquivalent(barrierAtJoin(pad), {}, m, "pad " + std::to_string(pad));
}

// --- 3. two bar.sync PCs with one barrier id ----------------------------------------------------
// Warps branch on their warp index (no SIMD divergence) and meet at different bar.sync
// instructions of id 0. Each path gives r6 a value of its own that is TB-redundant among the
// warps of that path; after the barrier every thread stores it with its neighbour's word.

std::string twoBarrierPcs(int pad) {
  return prologue(pad) + R"(
  s2r r3, %warpid
  and.b32 r4, r3, 1
  setp.eq.b32 p1, r4, 0
  shl.b32 r7, r0, 2
  @p1 bra EVEN
  mov.b32 r6, 1111
  add.u32 r6, r6, r13
  add.u32 r2, r0, 11
  st.shared.b32 [r7], r2
  bar.sync 0
  bra AFTER
EVEN:
  mov.b32 r6, 2222
  add.u32 r6, r6, r13
  add.u32 r2, r0, 22
  st.shared.b32 [r7], r2
  bar.sync 0
AFTER:
  add.u32 r4, r0, 33
  rem.u32 r4, r4, r10
  shl.b32 r4, r4, 2
  ld.shared.b32 r5, [r4]
  mul.lo.u32 r6, r6, 1000
  add.u32 r5, r5, r6
  st.global.b32 [r12], r5
  exit
)";
}

TEST(EquivalenceRegression, TwoBarrierPcsWithOneId) {
  for (uint32_t threads : {64u, 128u, 96u})
    for (M m : kAllMechanisms) {
      Launch l;
      l.block = {threads, 1, 1};
      l.outWords = threads;
      expectEquivalent(twoBarrierPcs(0), l, m, std::to_string(threads) + " threads");
    }
}

// --- 4. darsie-no-cf-sync: a warp far behind the others' branch history -----------------------
// A loop of 200 iterations with no TB-redundant instruction (so no skip-table entry keeps the
// warps together) whose guarded branch is taken on data: IN[warp * 256 + i] != 0. Warp 0 is
// slowed by a dependent chain of shared loads with 32-way bank conflicts and, late in the loop,
// takes the longer side where the others took the shorter one; by then they are far ahead. A
// TB-redundant instruction after the loop then finds the others' entry at another position.

std::string farBehind() {
  return prologue(0) + R"(
  s2r r3, %warpid
  setp.eq.b32 p2, r3, 0
  shl.b32 r14, r0, 7
  and.b32 r14, r14, 4095
  ld.param.b32 r8, [IN]
  shl.b32 r15, r3, 10
  add.u32 r8, r8, r15
  and.b32 r4, r0, 0
  mov.b32 r6, 0
LOOP:
  @p2 ld.shared.b32 r7, [r14]
  @p2 add.u32 r14, r14, r7
  @p2 ld.shared.b32 r7, [r14]
  @p2 add.u32 r14, r14, r7
  @p2 ld.shared.b32 r7, [r14]
  @p2 add.u32 r14, r14, r7
  @p2 ld.shared.b32 r7, [r14]
  @p2 add.u32 r14, r14, r7
  @p2 ld.shared.b32 r7, [r14]
  @p2 add.u32 r14, r14, r7
  @p2 ld.shared.b32 r7, [r14]
  @p2 add.u32 r14, r14, r7
  @p2 ld.shared.b32 r7, [r14]
  @p2 add.u32 r14, r14, r7
  @p2 ld.shared.b32 r7, [r14]
  @p2 add.u32 r14, r14, r7
  @p2 ld.shared.b32 r7, [r14]
  @p2 add.u32 r14, r14, r7
  @p2 ld.shared.b32 r7, [r14]
  @p2 add.u32 r14, r14, r7
  shl.b32 r5, r4, 2
  add.u32 r5, r5, r8
  ld.global.b32 r5, [r5]
  setp.ne.b32 p1, r5, 0
  @p1 bra ODD
  add.u32 r7, r5, 9
  add.u32 r6, r6, r7
  bra NEXT
ODD:
  add.u32 r7, r5, 5
  mul.lo.u32 r7, r7, r0
  add.u32 r7, r7, 3
  add.u32 r6, r6, r7
NEXT:
  add.u32 r4, r4, 1
  setp.lt.u32 p3, r4, 200
  @p3 bra LOOP
  mul.lo.u32 r7, r13, 5
  add.u32 r7, r7, 1
  add.u32 r6, r6, r7
  st.global.b32 [r12], r6
  exit
)";
}

TEST(EquivalenceRegression, NoCfSyncWarpFarBehindItsHistory) {
  Launch l;
  l.block = {128, 1, 1};
  l.outWords = 128;
  l.inWords = 4 * 256;
  l.in.assign(l.inWords, 0);
  for (int i = 0; i < 256; i += 3)
    for (int w = 0; w < 4; ++w) l.in[static_cast<size_t>(w * 256 + i)] = 1;  // every warp alike...
  for (int i = 150; i < 200; i += 7) l.in[static_cast<size_t>(i)] ^= 1;    // ...but warp 0 late in the loop
  for (M m : kAllMechanisms) expectEquivalent(farBehind(), l, m, "far behind");
  // A short history: warps a few branches apart already miss it. Each miss is a counted
  // event, and the warp leaves the majority path instead of following a path it did not take.
  for (int history : {1, 2, 4}) {
    config::GpuConfig c = gpu(M::DarsieNoCfSync);
    c.darsie.branch_history = history;
    const Outcome r = runBoth(farBehind(), l, c);
    SCOPED_TRACE("darsie.branch_history = " + std::to_string(history));
    ASSERT_EQ(r.error, "");
    EXPECT_TRUE(r.equal) << "memory differs from the interpreter";
    EXPECT_EQ(r.issued + r.skipped, r.interp);
    EXPECT_GT(r.stat("darsie.no_cf_sync.history_misses", 1), 0u);
  }
}

// --- 5. darsie-ignore-store: a store changes what a TB-redundant load reads -------------------
// Warp 1 alone (a guard, no divergence) stores to shared word X after two slow, bank-conflicted
// loads, then every warp loads X (TB-redundant). Warp 0 gets there first and leads; warp 1 must
// read its own store, not the leader's older value. Only warp 1 stores what it read.

const char* kStoreThenReload = R"(
  s2r r3, %warpid
  setp.eq.b32 p1, r3, 1
  shl.b32 r14, r0, 7
  and.b32 r14, r14, 4095
  @p1 ld.shared.b32 r7, [r14]
  @p1 add.u32 r14, r14, r7
  @p1 ld.shared.b32 r7, [r14]
  @p1 add.u32 r7, r7, 99
  @p1 st.shared.b32 [4096], r7
  ld.shared.b32 r5, [4096]
  add.u32 r5, r5, r13
  @p1 st.global.b32 [r12], r5
  exit
)";

TEST(EquivalenceRegression, IgnoreStoreDeliversTheStoredValue) {
  const std::string src = prologue(0) + kStoreThenReload;
  for (M m : kAllMechanisms) expectEquivalent(src, {}, m, "store then reload");
  const Outcome ignore = runBoth(src, {}, gpu(M::DarsieIgnoreStore));
  // The idealization would have given a stale value: the model delivered the stored one, kept
  // the skip's time, and counted the event.
  EXPECT_EQ(ignore.stat("darsie.ignore_store.stale_skips", 1), 2u);  // the load and the add
  EXPECT_GT(ignore.skipped, 0u);
  const Outcome darsie = runBoth(src, {}, gpu(M::Darsie));
  EXPECT_EQ(darsie.stat("darsie.ignore_store.stale_skips", 1), 0u);
}

// --- 6. 64 registers ----------------------------------------------------------------------------

TEST(EquivalenceRegression, SixtyFourRegisters) {
  std::string src = prologue(0, 64) + R"(
  mov.b32 r63, 41
  add.u32 r63, r63, r13
  add.u32 r63, r63, r0
  st.global.b32 [r12], r63
  exit
)";
  for (M m : kAllMechanisms) expectEquivalent(src, {}, m, ".regs 64");
  // Without .regs the count is the highest register used + 1: 64.
  const auto pos = src.find(".regs 64\n");
  src.erase(pos, 9);
  for (M m : kAllMechanisms) expectEquivalent(src, {}, m, "r63 without .regs");
}

}  // namespace
