// The generator's statement choice and its multi-instruction constructs: shared-memory
// exchanges, reductions through shared atomics, and the constructs of issue 14's failure
// classes (barrier at a join, two barrier PCs with one id, store then TB-redundant reload,
// control instructions at joins, long guarded-branch histories).
#include <vector>

#include "tests/random/gen_internal.h"

namespace simtlm::test::gen {
namespace {

struct Option {
  int weight;
  int id;
};

}  // namespace

void Gen::statement(const Ctx& c, int& budget) {
  enum { Alu, Load, Store, PrivAtom, ContAtom, If, Loop, ULoop, Exit, Exch, Reduce, BarJoin, TwoBar,
         Reload, CtrlJoin, History, Local };
  const bool barriers = c.converged && !exited_;
  std::vector<Option> opts = {{30, Alu}, {8, Load}, {3, Store}, {4, PrivAtom}, {4, ContAtom}, {4, Local}};
  if (c.ifDepth < 3) opts.push_back({14, If});
  if (c.loopDepth < kMaxLoopDepth) opts.push_back({6, Loop});
  if (barriers && c.loopDepth < kMaxLoopDepth) opts.push_back({4, ULoop});
  if (!c.noExit && !barrierPending()) opts.push_back({2, Exit});
  if (barriers) opts.push_back({6, Exch});
  if (barriers) opts.push_back({3, Reduce});
  if (barriers && on(Feature::BarrierAtJoin)) opts.push_back({8, BarJoin});
  if (barriers && on(Feature::TwoBarrierPcs)) opts.push_back({4, TwoBar});
  if (barriers && on(Feature::SharedStoreReload)) opts.push_back({4, Reload});
  if (on(Feature::ControlAtJoin)) opts.push_back({4, CtrlJoin});
  if (on(Feature::LongBranchHistory) && c.loopDepth == 0 && !built_[static_cast<int>(Feature::LongBranchHistory)])
    opts.push_back({2, History});
  int total = 0;
  for (const auto& o : opts) total += o.weight;
  int x = static_cast<int>(rng.below(static_cast<uint32_t>(total)));
  int choice = Alu;
  for (const auto& o : opts) {
    if (x < o.weight) { choice = o.id; break; }
    x -= o.weight;
  }
  switch (choice) {
    case Alu: {
      const int n = std::min(budget, rng.range(1, 3));
      for (int i = 0; i < n; ++i) randomAlu(c);
      budget -= n;
      return;
    }
    case Load: globalLoad(c); break;
    case Store: globalStore(); break;
    case Local: localAccess(); break;
    case PrivAtom: privateAtomic(rng.chance(50)); break;
    case ContAtom: contendedAtomic(rng.chance(50)); break;
    case If: {
      static const std::vector<Cond> kinds = {Cond::Tid, Cond::Data, Cond::Data, Cond::WarpUniform, Cond::BlockUniform};
      return ifElse(c, budget, rng.pick(kinds));
    }
    case Loop: return loop(c, budget, false);
    case ULoop: return loop(c, budget, true);
    case Exit: earlyExit(c); break;
    case Exch: exchange(c); break;
    case Reduce: sharedReduce(c); break;
    case BarJoin: return barrierAtJoin(c, budget);
    case TwoBar: return twoBarrierPcs(c, budget);
    case Reload: storeReload(c); break;
    case CtrlJoin: return controlAtJoin(c, budget);
    case History: longBranchHistory(c); break;
  }
  budget -= 2;
}

// Loads of a neighbour's word: r11 = 4 * ((t + k) mod S) from the region at `base` bytes.
namespace {
std::string neighbour(Gen& g, uint32_t words) {
  const int k = g.rng.range(1, static_cast<int>(words) - 1);
  g.ins("add.u32 r11, r0, " + std::to_string(k));
  g.ins("and.b32 r11, r11, " + std::to_string(words - 1));
  g.ins("shl.b32 r11, r11, 2");
  return "r11";
}
}  // namespace

// Every thread writes its word, the block synchronizes, every thread reads another's (and
// sometimes one word for the whole block: a TB-redundant load), and synchronizes again before
// the region is written anew.
void Gen::exchange(const Ctx& c) {
  (void)c;
  const uint32_t base = 4 * sharedWords_ * (exchanges_++ % 2);
  ins("shl.b32 r10, r0, 2");
  ins("st.shared.b32 [r10+" + std::to_string(base) + "], " + work());
  barrier();
  ins("ld.shared.b32 " + work() + ", [" + neighbour(*this, sharedWords_) + "+" + std::to_string(base) + "]");
  if (rng.chance(50))
    ins("ld.shared.b32 " + work() + ", [" + std::to_string(base + 4 * rng.below(threads_)) + "]");
  barrier();
}

// A block-wide reduction through one commutative shared atomic, read back after bar.sync.
void Gen::sharedReduce(const Ctx& c) {
  static const char* const kinds[] = {"add.u32", "add.f32", "min.s32", "min.u32", "max.s32", "max.u32"};
  const int k = static_cast<int>(rng.below(6));
  std::string value = source(c);
  if (k == 1) {
    ins("and.b32 r11, " + value + ", 15");
    ins("cvt.f32.u32 r11, r11");
    value = "r11";
  }
  const uint32_t word = 4 * (3 * sharedWords_ + kScReduce + static_cast<uint32_t>(k));
  ins("mov.b32 r10, " + std::to_string(word));
  ins(std::string(rng.chance(30) ? "@p" + std::to_string(rng.below(6)) + " " : "") + "atom.shared." + kinds[k] +
      " r12, [r10], " + value);
  barrier();
  ins("ld.shared.b32 " + work() + ", [" + std::to_string(word) + "]");
  barrier();
}

// Issue 14 class 2: bar.sync is the reconvergence point of a divergent if/else whose taken path
// is not empty. Both paths write the thread's shared word; the join's barrier publishes them.
void Gen::barrierAtJoin(const Ctx& c, int& budget) {
  built_[static_cast<int>(Feature::BarrierAtJoin)] = true;
  barrier();  // every warp rejoins DARSIE's majority path here
  const int pred = c.ifDepth % 4;
  setPredicate(rng.chance(50) ? Cond::Tid : Cond::Data, pred, c);
  const std::string e = newLabel("BJ_ELSE"), j = newLabel("BJ_JOIN");
  const uint32_t base = 4 * sharedWords_ * (exchanges_++ % 2);
  ins("shl.b32 r10, r0, 2");
  ins("@" + p(pred) + " bra " + e, Kind::Control);
  randomAlu(c);
  ins("st.shared.b32 [r10+" + std::to_string(base) + "], " + work());
  ins("bra " + j, Kind::Control);
  label(e);
  randomAlu(c);
  ins("st.shared.b32 [r10+" + std::to_string(base) + "], " + work());
  label(j);
  barrier();
  ins("ld.shared.b32 " + work() + ", [" + neighbour(*this, sharedWords_) + "+" + std::to_string(base) + "]");
  barrier();
  budget -= 4;
}

// Issue 14 class 3: a warp-uniform if/else with a bar.sync of the same id in each arm, so that
// warps of one block wait at two different barrier PCs; values cross warps through shared memory.
void Gen::twoBarrierPcs(const Ctx& c, int& budget) {
  built_[static_cast<int>(Feature::TwoBarrierPcs)] = true;
  mark(Feature::TwoBarrierPcs);
  const int pred = c.ifDepth % 4;
  setPredicate(Cond::WarpUniform, pred, c);
  const std::string e = newLabel("TB_ELSE"), j = newLabel("TB_JOIN");
  const uint32_t base = 4 * sharedWords_ * (exchanges_++ % 2);
  const std::string id = std::to_string(rng.below(16));
  ins("shl.b32 r10, r0, 2");
  const std::string n = neighbour(*this, sharedWords_);
  ins("@" + p(pred) + " bra " + e, Kind::Control);
  for (int arm = 0; arm < 2; ++arm) {
    if (arm == 1) label(e);
    randomAlu(c);
    ins("st.shared.b32 [r10+" + std::to_string(base) + "], " + work());
    ins("bar.sync " + id, Kind::Barrier);
    ins("ld.shared.b32 " + work() + ", [" + n + "+" + std::to_string(base) + "]");
    randomAlu(c);
    if (arm == 0) ins("bra " + j, Kind::Control);
  }
  label(j);
  barrier();
  budget -= 6;
}

// Issue 14 class 5: one warp (not the first, which usually leads) stores to a shared word every
// warp then loads with a TB-redundant load. Only the storing warp keeps the loaded value: the
// others' loads race with the store, and a selp drops what they read.
void Gen::storeReload(const Ctx& c) {
  (void)c;
  built_[static_cast<int>(Feature::SharedStoreReload)] = true;
  mark(Feature::SharedStoreReload);
  const uint32_t k = warps_ > 1 ? static_cast<uint32_t>(rng.range(1, static_cast<int>(warps_) - 1)) : 0;
  const std::string word = std::to_string(4 * (3 * sharedWords_ + kScReload + static_cast<uint32_t>(reloads_++ % 8)));
  if (rng.chance(70)) barrier();
  ins("setp.eq.b32 p5, r4, " + std::to_string(k));
  ins("@p5 st.shared.b32 [" + word + "], " + work());
  ins("ld.shared.b32 r10, [" + word + "]");
  const std::string w = work();
  ins("selp.b32 " + w + ", r10, " + w + ", p5");
  barrier();
}

// Issue 14 class 1: the instruction at the join of a divergent if/else is a guarded bra or an
// unconditional bra, and the taken (first-run) path falls through into it.
void Gen::controlAtJoin(const Ctx& c, int& budget) {
  built_[static_cast<int>(Feature::ControlAtJoin)] = true;
  const bool guarded = rng.chance(50);
  if (guarded) setPredicate(rng.chance(50) ? Cond::Tid : Cond::Data, 6, c);
  const int pred = c.ifDepth % 4;
  setPredicate(rng.chance(50) ? Cond::Tid : Cond::Data, pred, c);
  const std::string e = newLabel("CJ_ELSE"), j = newLabel("CJ_JOIN"), s = newLabel("CJ_NEXT");
  ins("@" + p(pred) + " bra " + e, Kind::Control);
  randomAlu(c);
  ins("bra " + j, Kind::Control);
  label(e);
  randomAlu(c);
  label(j);
  ins(std::string(guarded ? "@p6 " : "") + "bra " + s, Kind::Control);
  if (guarded) randomAlu(c);
  label(s);
  budget -= 4;
}

// Issue 14 class 4: a loop of 90..130 iterations with two guarded branches each. Even warps
// are slowed without a branch (a branch would take them off DARSIE's majority path): only they
// perform a guarded, uncoalesced load (a stride of 129 words; on the full platform every lane
// misses its own line). Every warp takes the same direction for the first K iterations, so the
// slow ones stay on the majority path; then the direction depends on bit 1 of the warp index,
// which splits slow and fast warps alike. r8 holds a value the two directions change differently.
void Gen::longBranchHistory(const Ctx& c) {
  built_[static_cast<int>(Feature::LongBranchHistory)] = true;
  mark(Feature::LongBranchHistory);
  const std::string cnt = r(kCounter), u = r(kTrip), lane = r(kTrip + 1);
  const std::string h = newLabel("LH_LOOP"), alt = newLabel("LH_ALT"), j = newLabel("LH_JOIN");
  const int agree = rng.range(50, 70), total = agree + rng.range(40, 60);
  if (c.converged && !exited_) barrier();  // every warp rejoins DARSIE's majority path here
  // Counter, value and lane start from tid & 0: equal in every warp, but vector to the analysis,
  // so DARSIE skips nothing in the loop. (Skipped instructions hold rename registers until every
  // warp has passed them, and a pool running out makes fast warps wait for slow ones.)
  ins("and.b32 " + cnt + ", r0, 0");
  ins("add.u32 " + u + ", " + cnt + ", " + std::to_string(rng.range(0, 100)));
  ins("add.u32 " + lane + ", " + cnt + ", r5");
  label(h);
  const std::string w = work();
  ins("and.b32 r10, r4, 1");
  ins("setp.eq.b32 p5, r10, 0");
  ins("mul.lo.u32 r10, " + lane + ", 129");
  ins("add.u32 r10, r10, " + cnt);
  ins("and.b32 r10, r10, " + std::to_string(kInWords / 2 - 1));  // the offsets below stay in IN
  ins("shl.b32 r10, r10, 2");
  ins("add.u32 r10, r10, r3");
  for (int i = 0; i < 4; ++i) {  // four misses of a line per lane, one after the other
    ins("@p5 ld.global.b32 r11, [r10+" + std::to_string(1024 * i) + "]");
    ins("@p5 add.u32 " + w + ", " + w + ", r11");
  }
  ins("setp.ge.u32 p5, " + cnt + ", " + std::to_string(agree));
  ins("and.b32 r10, r4, 2");
  ins("setp.ne.b32 p6, r10, 0");
  ins("pand p5, p5, p6");
  ins("@p5 bra " + alt, Kind::Control);
  ins("add.u32 " + u + ", " + u + ", 3");
  ins("bra " + j, Kind::Control);
  label(alt);
  ins("xor.b32 " + u + ", " + u + ", " + cnt);
  label(j);
  ins("add.u32 " + cnt + ", " + cnt + ", 1");
  ins("setp.lt.u32 p4, " + cnt + ", " + std::to_string(total));
  ins("@p4 bra " + h, Kind::Control);
  ins("add.u32 " + w + ", " + w + ", " + u);
}

}  // namespace simtlm::test::gen
