// BOW's per-warp operand window (model/mechanisms/bow/operand_window.h) on its own: small
// kernels admitted instruction by instruction, in program order (one warp, no branch taken), and
// the exact Decision of each instruction and the counters. The policies are those the
// mechanisms run with (BowMechanism::policyOf): bow, bow-wr (with the compiler's hints for the
// window), bow-wr-half and rfc.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "isa/assembler.h"
#include "isa/bow_hints.h"
#include "isa/cfg.h"
#include "isa/liveness.h"
#include "model/mechanisms/bow/bow_mechanism.h"
#include "model/mechanisms/bow/operand_window.h"

using namespace simtlm;
using bow::BowKind;
using bow::Decision;
using bow::OperandWindow;
using bow::WindowCounters;

namespace {

constexpr uint64_t bit(int r) { return uint64_t{1} << r; }

struct Admitted {
  std::vector<Decision> d;  // by instruction, `exit` left out
  WindowCounters c;
  OperandWindow w;
};

bow::WindowPolicy policy(BowKind kind, int window = 3, bool hints = true, int rfcEntries = 6) {
  config::GpuConfig cfg;
  cfg.bow.window = window;
  cfg.bow.hints = hints;
  cfg.rfc.entries = rfcEntries;
  return bow::BowMechanism::policyOf(kind, cfg);
}

// Admits every instruction of `body` but the final exit; a guarded instruction is a partial write.
void admitAll(const std::string& body, const bow::WindowPolicy& p, Admitted& out) {
  const isa::Kernel k = isa::assemble(".kernel t\n.regs 16\n.param OUT\n" + body + "  exit\n", "t.s");
  const isa::Cfg cfg(k);
  const isa::Liveness live(k, cfg);
  const std::vector<isa::BowHint> hints = isa::computeBowHints(k, cfg, live, p.window > 0 ? p.window : 1);
  for (size_t i = 0; i + 1 < k.instrs.size(); ++i) {
    const isa::Instr& in = k.instrs[i];
    const bool partial = in.guard != isa::kPredTrue || in.guardNeg;
    out.d.push_back(out.w.admit(in, partial, p.hints ? hints[i] : isa::BowHint::None, p, out.c));
  }
}

}  // namespace

// IW 3: r1 written by the mov is read by the next two instructions (distances 1 and 2), r2 by
// the next one: every read is served by the BOC, nothing is read from the banks. Write-through:
// each result is kept clean and also written to the banks.
TEST(BowWindow, AValueReusedInsideTheWindowIsBypassed) {
  Admitted a;
  admitAll("  mov.b32 r1, 5\n  add.u32 r2, r1, 1\n  add.u32 r3, r1, r2\n", policy(BowKind::Bow), a);
  ASSERT_EQ(a.d.size(), 3u);
  EXPECT_EQ(a.d[0].bypass, 0u);
  EXPECT_EQ(a.d[0].dest, 1);
  EXPECT_FALSE(a.d[0].destDirty);
  EXPECT_EQ(a.d[1].bypass, bit(1));
  EXPECT_EQ(a.d[1].fill, 0u);
  EXPECT_EQ(a.d[1].dest, 2);
  EXPECT_EQ(a.d[2].bypass, bit(1) | bit(2));
  EXPECT_EQ(a.d[2].evict, 0u);
  EXPECT_EQ(a.c.bypassed, 3u);
  EXPECT_EQ(a.c.bankReads, 0u);
  EXPECT_EQ(a.c.fills, 0u);
  EXPECT_EQ(a.c.keptResults, 3u);
  EXPECT_EQ(a.c.bankResults, 3u);  // write-through
  EXPECT_EQ(a.c.heldResults, 0u);
  EXPECT_EQ(a.c.occupancyMax, 3u);
  EXPECT_EQ(a.c.occupancySum, 1u + 2u + 3u);
  EXPECT_EQ(a.w.size(), 3u);
}

// r1 is read 3 instructions after it was written: at IW 3 it has just left the window (the
// read goes to the banks and fills the BOC again); at IW 4 the same read is bypassed.
TEST(BowWindow, AReuseAtDistanceExactlyIwIsABankReadAndAFill) {
  const char* body = "  mov.b32 r1, 5\n  mov.b32 r2, 6\n  mov.b32 r3, 7\n  add.u32 r4, r1, 1\n";
  Admitted iw3, iw4;
  admitAll(body, policy(BowKind::Bow, 3), iw3);
  admitAll(body, policy(BowKind::Bow, 4), iw4);
  ASSERT_EQ(iw3.d.size(), 4u);
  EXPECT_EQ(iw3.d[3].evict, bit(1));  // slid out as the add entered, clean: no write-back
  EXPECT_EQ(iw3.d[3].evictWb, 0u);
  EXPECT_EQ(iw3.d[3].bypass, 0u);
  EXPECT_EQ(iw3.d[3].fill, bit(1));
  EXPECT_EQ(iw3.c.bypassed, 0u);
  EXPECT_EQ(iw3.c.bankReads, 1u);
  EXPECT_EQ(iw3.c.fills, 1u);
  EXPECT_EQ(iw3.c.writebacks, 0u);
  EXPECT_EQ(iw4.d[3].evict, 0u);
  EXPECT_EQ(iw4.d[3].bypass, bit(1));
  EXPECT_EQ(iw4.d[3].fill, 0u);
  EXPECT_EQ(iw4.c.bypassed, 1u);
  EXPECT_EQ(iw4.c.bankReads, 0u);
}

// bow-wr with hints at IW 3 (hints computed here as the mechanism computes them).
//   0 ld.param r5     a memory result: kept clean (written through)
//   1 mov r1          read once, by 2, then dead: transient (Bypass), held in the BOC only
//   2 add r2, r1      read by the store at distance 2, then dead: transient
//   3 mov r3          never read: Bypass, held; r5 slides out (clean)
//   4 st [r5], r2     r2 bypassed; r5 from the banks (filled again)
//   5..7 nop          r1 (5), r3 (6), r2 (7) slide out dirty and transient: dropped, no write
TEST(BowWindow, ATransientValueUnderHintsIsNeverWrittenBack) {
  Admitted a;
  admitAll("  ld.param.b32 r5, [OUT]\n  mov.b32 r1, 5\n  add.u32 r2, r1, 1\n  mov.b32 r3, 9\n"
           "  st.global.b32 [r5], r2\n  nop\n  nop\n  nop\n",
           policy(BowKind::BowWr), a);
  ASSERT_EQ(a.d.size(), 8u);
  EXPECT_TRUE(a.d[0].destLoad);
  EXPECT_FALSE(a.d[0].destDirty);
  for (int i : {1, 2, 3}) EXPECT_TRUE(a.d[static_cast<size_t>(i)].destDirty) << i;
  EXPECT_EQ(a.d[3].evict, bit(5));
  EXPECT_EQ(a.d[4].bypass, bit(2));
  EXPECT_EQ(a.d[4].fill, bit(5));
  EXPECT_EQ(a.d[5].evict, bit(1));
  EXPECT_EQ(a.d[6].evict, bit(3));
  EXPECT_EQ(a.d[7].evict, bit(2) | bit(5));
  for (const Decision& d : a.d) EXPECT_EQ(d.evictWb, 0u);
  EXPECT_EQ(a.c.transientDropped, 3u);
  EXPECT_EQ(a.c.writebacks, 0u);
  EXPECT_EQ(a.c.earlyWritebacks, 0u);
  EXPECT_EQ(a.c.heldResults, 3u);
  EXPECT_EQ(a.c.keptResults, 3u);
  EXPECT_EQ(a.c.bankResults, 1u);  // the ld.param only
  EXPECT_EQ(a.c.bypassed, 2u);
  EXPECT_EQ(a.c.bankReads, 1u);
  EXPECT_EQ(a.w.size(), 0u);
  EXPECT_EQ(a.w.flush(a.c), 0u);
}

// bow-wr with hints at IW 3: r1 is read at distance 1 and again at distance 5 (Both: kept dirty,
// persistent). When it slides out (as instruction 5 enters) it is written back.
//   0 ld.param r5; 1 mov r1 (Both); 2 add r2, r1 (Bypass); 3 st [r5], r2; 4 nop; 5 nop;
//   6 add r3, r1 (bank read of the written-back value; r2 dropped; Bypass); 7 st [r5+4], r3
TEST(BowWindow, ADirtyPersistentValueIsWrittenBackWhenItSlidesOut) {
  Admitted a;
  admitAll("  ld.param.b32 r5, [OUT]\n  mov.b32 r1, 5\n  add.u32 r2, r1, 1\n  st.global.b32 [r5], r2\n"
           "  nop\n  nop\n  add.u32 r3, r1, 2\n  st.global.b32 [r5+4], r3\n",
           policy(BowKind::BowWr), a);
  ASSERT_EQ(a.d.size(), 8u);
  EXPECT_TRUE(a.d[1].destDirty);
  EXPECT_EQ(a.d[5].evict, bit(1));
  EXPECT_EQ(a.d[5].evictWb, bit(1));
  EXPECT_EQ(a.d[6].evict, bit(2) | bit(5));
  EXPECT_EQ(a.d[6].evictWb, 0u);  // r2 transient, r5 clean
  EXPECT_EQ(a.d[6].fill, bit(1));
  EXPECT_EQ(a.d[7].fill, bit(5));
  EXPECT_EQ(a.d[7].bypass, bit(3));
  EXPECT_EQ(a.c.writebacks, 1u);
  EXPECT_EQ(a.c.transientDropped, 1u);
  EXPECT_EQ(a.c.heldResults, 3u);
  EXPECT_EQ(a.c.bypassed, 3u);   // r1 by 2, r2 by 3, r3 by 7
  EXPECT_EQ(a.c.bankReads, 3u);  // r5 by 3, r1 by 6, r5 by 7
  EXPECT_EQ(a.c.fills, 3u);
  EXPECT_EQ(a.c.earlyWritebacks, 0u);
}

// Two writes of r1 in the window (bow-wr, no hints): the first value's register-file write is
// bypassed (consolidated); the second stays dirty and is written back at the warp's exit.
TEST(BowWindow, TwoWritesInTheWindowAreConsolidated) {
  Admitted a;
  admitAll("  mov.b32 r1, 5\n  add.u32 r1, r1, 1\n  mov.b32 r2, 7\n", policy(BowKind::BowWr, 3, false), a);
  ASSERT_EQ(a.d.size(), 3u);
  EXPECT_EQ(a.d[1].bypass, bit(1));
  EXPECT_EQ(a.d[1].dest, 1);
  EXPECT_TRUE(a.d[1].destDirty);
  EXPECT_EQ(a.c.consolidated, 1u);
  EXPECT_EQ(a.c.heldResults, 3u);
  EXPECT_EQ(a.c.keptResults, 3u);
  EXPECT_EQ(a.c.bankResults, 0u);
  EXPECT_EQ(a.w.size(), 2u);  // one entry for r1
  EXPECT_EQ(a.w.flush(a.c), bit(1) | bit(2));
  EXPECT_EQ(a.c.earlyWritebacks, 2u);
  EXPECT_EQ(a.c.writebacks, 0u);
}

// A partial write (divergence: fewer lanes than the warp) over a dirty value merges with it: it
// is no overwrite (nothing consolidated) and, even hinted Bypass, the merged value is not
// transient: it is written back when it slides out. The same write in full lanes consolidates
// the older value and is dropped unwritten.
TEST(BowWindow, APartialWriteOverADirtyValueStaysDirtyAndPersistent) {
  const bow::WindowPolicy p = policy(BowKind::BowWr);
  const isa::Kernel k = isa::assemble(".kernel t\n.regs 4\n  mov.b32 r1, 5\n  add.u32 r1, r1, 1\n  nop\n  exit\n");
  for (const bool partial : {true, false}) {
    OperandWindow w;
    WindowCounters c;
    w.admit(k.instrs[0], false, isa::BowHint::Both, p, c);
    const Decision d = w.admit(k.instrs[1], partial, isa::BowHint::Bypass, p, c);
    EXPECT_EQ(d.bypass, bit(1));
    EXPECT_TRUE(d.destDirty);
    EXPECT_EQ(d.evictWb, 0u);
    EXPECT_EQ(c.consolidated, partial ? 0u : 1u) << partial;
    w.admit(k.instrs[2], false, isa::BowHint::None, p, c);  // s2
    w.admit(k.instrs[2], false, isa::BowHint::None, p, c);  // s3: r1 (last access at 1) stays
    EXPECT_EQ(c.writebacks + c.transientDropped, 0u);
    const Decision out = w.admit(k.instrs[2], false, isa::BowHint::None, p, c);  // s4: it leaves
    EXPECT_EQ(out.evict, bit(1));
    EXPECT_EQ(out.evictWb, partial ? bit(1) : 0u) << partial;
    EXPECT_EQ(c.writebacks, partial ? 1u : 0u) << partial;
    EXPECT_EQ(c.transientDropped, partial ? 0u : 1u) << partial;
  }
}

// A guarded write over a dirty value under bow-wr's hints: `@p0 add r1, r1, 1` is read by the
// next instruction, so both definitions of r1 are Both (a guarded definition is never transient):
// the guarded one merges into the dirty entry (no consolidation) and stays dirty.
TEST(BowWindow, AGuardedWriteOverADirtyValueIsNoOverwrite) {
  Admitted a;
  admitAll("  s2r r0, %tid.x\n  setp.lt.u32 p0, r0, 8\n  mov.b32 r1, 5\n  @p0 add.u32 r1, r1, 1\n"
           "  add.u32 r2, r1, r0\n  ld.param.b32 r5, [OUT]\n  st.global.b32 [r5], r2\n",
           policy(BowKind::BowWr), a);
  ASSERT_EQ(a.d.size(), 7u);
  EXPECT_EQ(a.d[3].bypass, bit(1));
  EXPECT_EQ(a.d[3].dest, 1);
  EXPECT_TRUE(a.d[3].destDirty);
  EXPECT_EQ(a.d[3].evictWb, 0u);
  // r0 (s2r, Both: read again at distance 3) slid out as 4 entered: written back, read again.
  EXPECT_EQ(a.d[4].bypass, bit(1));
  EXPECT_EQ(a.d[4].evictWb, bit(0));
  EXPECT_EQ(a.d[4].fill, bit(0));
  EXPECT_EQ(a.c.consolidated, 0u);
  EXPECT_EQ(a.c.writebacks, 1u);
  // At the exit r1 (the merged value) and r2 (transient) are dirty; r0 is clean.
  EXPECT_EQ(a.w.flush(a.c), bit(1) | bit(2));
}

// bow-wr-half at IW 3 holds 6 registers (no hints). Two mads fill it: r1 and r2 (clean) make
// room for r7 and r8, r3 for r9; then r10 pushes out r4, dirty and still live (read by the last
// add): it is written back early, and its read goes to the banks.
TEST(BowWindow, HalfStorageEvictsTheOldestEntryAndWritesBackADirtyOne) {
  Admitted a;
  admitAll("  mad.lo.u32 r4, r1, r2, r3\n  mad.lo.u32 r8, r5, r6, r7\n  add.u32 r9, r4, r8\n"
           "  add.u32 r10, r9, r8\n  add.u32 r11, r4, r10\n",
           policy(BowKind::BowWrHalf, 3, false), a);
  ASSERT_EQ(a.d.size(), 5u);
  EXPECT_EQ(a.d[0].fill, bit(1) | bit(2) | bit(3));
  EXPECT_EQ(a.d[1].evict, bit(1) | bit(2));
  EXPECT_EQ(a.d[1].evictWb, 0u);
  EXPECT_EQ(a.d[2].evict, bit(3));
  EXPECT_EQ(a.d[2].bypass, bit(4) | bit(8));
  EXPECT_EQ(a.d[3].evict, bit(4));
  EXPECT_EQ(a.d[3].evictWb, bit(4));
  EXPECT_EQ(a.d[4].evict, bit(5) | bit(6) | bit(7));  // slid out, clean
  EXPECT_EQ(a.d[4].evictWb, 0u);
  EXPECT_EQ(a.d[4].fill, bit(4));
  EXPECT_EQ(a.d[4].bypass, bit(10));
  EXPECT_EQ(a.c.evictions, 4u);
  EXPECT_EQ(a.c.earlyWritebacks, 1u);
  EXPECT_EQ(a.c.writebacks, 0u);
  EXPECT_EQ(a.c.bankReads, 7u);
  EXPECT_EQ(a.c.fills, 7u);
  EXPECT_EQ(a.c.bypassed, 5u);
  EXPECT_EQ(a.c.heldResults, 5u);
  EXPECT_EQ(a.c.occupancyMax, 6u);
  // The full bow-wr (12 registers) evicts nothing here.
  Admitted full;
  admitAll("  mad.lo.u32 r4, r1, r2, r3\n  mad.lo.u32 r8, r5, r6, r7\n  add.u32 r9, r4, r8\n"
           "  add.u32 r10, r9, r8\n  add.u32 r11, r4, r10\n",
           policy(BowKind::BowWr, 3, false), full);
  EXPECT_EQ(full.c.evictions, 0u);
  EXPECT_EQ(full.c.earlyWritebacks, 0u);
  EXPECT_EQ(full.c.bypassed, 6u);  // r4 by the last add too
}

// At the warp's exit every dirty entry is written back (early) and the window empties; a
// write-through window has nothing to write back.
TEST(BowWindow, FlushAtWarpExitWritesBackEveryDirtyEntry) {
  const char* body = "  mov.b32 r1, 1\n  add.u32 r2, r1, 1\n  ld.param.b32 r3, [OUT]\n";
  Admitted wr, wt;
  admitAll(body, policy(BowKind::BowWr, 3, false), wr);
  admitAll(body, policy(BowKind::Bow), wt);
  EXPECT_EQ(wr.w.size(), 3u);
  EXPECT_EQ(wr.w.flush(wr.c), bit(1) | bit(2));  // r3, a memory result, is clean
  EXPECT_EQ(wr.c.earlyWritebacks, 2u);
  EXPECT_EQ(wr.w.size(), 0u);
  EXPECT_EQ(wt.w.flush(wt.c), 0u);
  EXPECT_EQ(wt.c.earlyWritebacks, 0u);
  EXPECT_EQ(wt.w.size(), 0u);
}

// A memory result is kept (BOW) but never dirty: it arrives after the instruction left, written
// through the banks, and fills the entry then (destLoad). Over a dirty value in full lanes, it
// consolidates that value's write.
TEST(BowWindow, AMemoryResultIsKeptCleanAndFilledOnArrival) {
  Admitted a;
  admitAll("  ld.param.b32 r1, [OUT]\n  mov.b32 r2, 5\n  ld.global.b32 r2, [r1]\n  add.u32 r3, r2, 1\n",
           policy(BowKind::BowWr, 3, false), a);
  ASSERT_EQ(a.d.size(), 4u);
  EXPECT_EQ(a.d[0].dest, 1);
  EXPECT_TRUE(a.d[0].destLoad);
  EXPECT_FALSE(a.d[0].destDirty);
  EXPECT_EQ(a.d[2].bypass, bit(1));
  EXPECT_EQ(a.d[2].dest, 2);
  EXPECT_TRUE(a.d[2].destLoad);
  EXPECT_FALSE(a.d[2].destDirty);
  EXPECT_EQ(a.d[2].destDrop, -1);
  EXPECT_EQ(a.d[3].bypass, bit(2));
  EXPECT_EQ(a.c.consolidated, 1u);
  EXPECT_EQ(a.c.bankResults, 2u);  // the two loads
  EXPECT_EQ(a.c.heldResults, 2u);  // mov r2, add r3
  EXPECT_EQ(a.w.flush(a.c), bit(3));  // r2 is clean now
}

// The register-file cache: no window, no fill on a read (allocate on write), loads not kept: a
// load over a cached dirty register drops the entry (consolidated, the load goes to the banks).
TEST(BowWindow, RfcAllocatesOnWriteOnlyAndKeepsNoLoad) {
  Admitted a;
  admitAll("  ld.param.b32 r1, [OUT]\n  add.u32 r2, r1, 1\n  add.u32 r3, r2, r1\n  ld.global.b32 r2, [r1]\n",
           policy(BowKind::Rfc), a);
  ASSERT_EQ(a.d.size(), 4u);
  EXPECT_EQ(a.d[0].dest, -1);
  EXPECT_FALSE(a.d[0].destLoad);
  EXPECT_EQ(a.d[1].fill, 0u);
  EXPECT_TRUE(a.d[1].destDirty);
  EXPECT_EQ(a.d[2].bypass, bit(2));
  EXPECT_EQ(a.d[3].dest, -1);
  EXPECT_EQ(a.d[3].destDrop, 2);
  EXPECT_EQ(a.c.bypassed, 1u);
  EXPECT_EQ(a.c.bankReads, 3u);  // r1 three times
  EXPECT_EQ(a.c.fills, 0u);
  EXPECT_EQ(a.c.keptResults, 2u);
  EXPECT_EQ(a.c.heldResults, 2u);
  EXPECT_EQ(a.c.bankResults, 2u);
  EXPECT_EQ(a.c.consolidated, 1u);
  EXPECT_EQ(a.w.size(), 1u);  // r3
}

// The RFC's FIFO: with 2 entries a third result pushes out the oldest, written back (dirty).
TEST(BowWindow, RfcFifoWritesBackTheOldestResult) {
  Admitted a;
  admitAll("  mov.b32 r1, 1\n  mov.b32 r2, 2\n  mov.b32 r3, 3\n  nop\n  nop\n  nop\n  add.u32 r4, r1, r2\n",
           policy(BowKind::Rfc, 3, false, 2), a);
  ASSERT_EQ(a.d.size(), 7u);
  EXPECT_EQ(a.d[2].evict, bit(1));
  EXPECT_EQ(a.d[2].evictWb, bit(1));
  EXPECT_EQ(a.d[6].bypass, bit(2));  // no window: r2 is still cached 4 instructions later
  EXPECT_EQ(a.d[6].evict, bit(3));   // r2 is older, but the add reads it: r3 leaves for r4
  EXPECT_EQ(a.d[6].evictWb, bit(3));
  EXPECT_EQ(a.c.evictions, 2u);
  EXPECT_EQ(a.c.earlyWritebacks, 2u);
}
