// The random-kernel generator: launch shape, buffers, prologue and epilogue, and the recursive
// structure of statements (if/else, loops, early exits, shared exchanges, atomics).
#include "tests/random/kernel_generator.h"

#include <cstring>
#include <sstream>

#include "tests/random/gen_internal.h"

namespace simtlm::test {

const char* featureName(Feature f) {
  static const char* const names[] = {"control-at-join", "barrier-at-join", "two-barrier-pcs",
                                      "long-branch-history", "shared-store-reload", "regs64"};
  return names[static_cast<int>(f)];
}

std::string GeneratedKernel::describe() const {
  std::ostringstream s;
  s << "seed " << seed << ": grid " << grid.str() << ", block " << block.str() << ", warp size "
    << warpSize << ", features {";
  bool first = true;
  for (int f = 0; f < kNumFeatures; ++f)
    if (has(static_cast<Feature>(f))) {
      s << (first ? "" : ", ") << featureName(static_cast<Feature>(f));
      first = false;
    }
  s << "}";
  return s.str();
}

isa::LaunchConfig GeneratedKernel::setup(isa::GlobalMemory& mem) const {
  isa::LaunchConfig l;
  l.grid = grid;
  l.block = block;
  l.warpSize = warpSize;
  for (const auto& [name, words] : buffers) {
    l.params.push_back(mem.allocate(name, static_cast<uint32_t>(words.size() * 4)));
    mem.setWords(name, words);
  }
  for (uint32_t s : scalars) l.params.push_back(s);
  l.maxWarpInstructions = 50'000'000;  // generated kernels are small; a runaway is a generator bug
  return l;
}

namespace gen {

Gen::Gen(uint64_t seed, const GenOptions& opt) : rng(seed) {
  result_.seed = seed;
  for (int f = 0; f < kNumFeatures; ++f) {
    const Choice c = opt[static_cast<Feature>(f)];
    on_[f] = c == Choice::On || (c == Choice::Auto && rng.chance(25));
  }
  // Launch shape: 1D, 2D or 3D blocks of at most 128 threads; warps of 4..32 threads, so that
  // the last warp is often partial.
  static const std::vector<int> warpSizes = {4, 8, 16, 32, 32, 5, 7, 12, 24, 16, 8, 32};
  uint32_t w = static_cast<uint32_t>(rng.pick(warpSizes));
  isa::Dim3 b;
  switch (rng.below(3)) {
    case 0: b.x = static_cast<uint32_t>(rng.range(1, 128)); break;
    case 1:
      b.x = static_cast<uint32_t>(rng.pick(std::vector<int>{2, 4, 8, 16, 3, 5, 6}));
      b.y = static_cast<uint32_t>(rng.range(1, static_cast<int>(128 / b.x)));
      break;
    default:
      b.x = static_cast<uint32_t>(rng.pick(std::vector<int>{2, 4, 8, 3}));
      b.y = static_cast<uint32_t>(rng.range(1, 4));
      b.z = static_cast<uint32_t>(rng.range(1, std::min(64, static_cast<int>(128 / (b.x * b.y)))));
      break;
  }
  // The constructs that need several warps get them.
  const bool needWarps = on(Feature::TwoBarrierPcs) || on(Feature::SharedStoreReload) ||
                         on(Feature::LongBranchHistory) || on(Feature::BarrierAtJoin);
  if (b.count() < 2 * w && (needWarps || rng.chance(50))) {
    if (b.count() >= 8) {
      while (w > 4 && b.count() < 2 * w) w /= 2;
    } else if (needWarps) {
      b = isa::Dim3{static_cast<uint32_t>(rng.range(static_cast<int>(w) + 1, 128)), 1, 1};
    }
  }
  // A forced failure class gets a block of several full warps, which DARSIE keeps on its
  // majority path (partial warps never join it), where the classes show.
  bool forced = false;
  for (int f = 0; f < kNumFeatures; ++f) forced = forced || opt[static_cast<Feature>(f)] == Choice::On;
  if (forced && rng.chance(70)) {
    w = static_cast<uint32_t>(rng.pick(std::vector<int>{4, 8, 8, 16, 32}));
    b = isa::Dim3{w * static_cast<uint32_t>(rng.range(3, std::min(16, static_cast<int>(128 / w)))), 1, 1};
    if (on(Feature::LongBranchHistory)) {  // many warps per scheduler: greedy scheduling spreads them
      w = rng.chance(50) ? 8 : 16;  // lanes each missing their own line: slow warps are slow
      b = isa::Dim3{w * static_cast<uint32_t>(rng.range(6, static_cast<int>(128 / w))), 1, 1};
    }
  }
  result_.block = b;
  result_.warpSize = w;
  threads_ = static_cast<uint32_t>(b.count());
  warps_ = (threads_ + w - 1) / w;
  isa::Dim3 g;
  switch (rng.below(3)) {
    case 0: g.x = static_cast<uint32_t>(rng.range(1, 3)); break;
    case 1: g.x = static_cast<uint32_t>(rng.range(1, 2)); g.y = 2; break;
    default: g.y = static_cast<uint32_t>(rng.range(1, 2)); g.z = 2; break;
  }
  result_.grid = g;
  sharedWords_ = 4;
  while (sharedWords_ < threads_) sharedWords_ *= 2;

  const int numWork = rng.range(6, 12);
  for (int i = 0; i < numWork; ++i) work_.push_back(kFirstWork + i);
  if (on(Feature::Regs64)) {
    if (rng.chance(50)) declareRegs64_ = true;
    else work_.back() = 63;
    mark(Feature::Regs64);
  }
  slots_ = numWork + 2;

  std::vector<uint32_t> in(kInWords);
  for (auto& v : in) {
    switch (rng.below(4)) {
      case 0: v = rng.below(16); break;
      case 1: { float f = static_cast<float>(rng.range(-1000, 1000)) / 8.0f; std::memcpy(&v, &f, 4); break; }
      default: v = rng.word(); break;
    }
  }
  std::vector<uint32_t> atom(kAtomWords);
  for (uint32_t i = 0; i < kAtomWords; ++i) {
    if (i >= 4 && i < 8) { float f = static_cast<float>(rng.below(100)); std::memcpy(&atom[i], &f, 4); }
    else if (static_cast<int>(i) >= kAtomSiteFirst) atom[i] = static_cast<uint32_t>(rng.range(-5, 5));
    else atom[i] = rng.word();
  }
  result_.buffers = {{"IN", in}, {"OUT", std::vector<uint32_t>(g.count() * threads_ * slots_, 0)}, {"ATOM", atom}};
  result_.scalars = {static_cast<uint32_t>(rng.range(0, 4)), rng.word()};  // TRIP, SEED
}

void Gen::label(const std::string& name) {
  out_ << name << ":\n";
  atJoin_ = true;
}

// A control instruction or bar.sync right after a label would sit at a reconvergence point:
// failure classes 1 and 2 of issue 14. Unless the kernel is to contain them, a nop goes first.
void Gen::ins(const std::string& text, Kind kind) {
  if (atJoin_ && kind != Kind::Plain) {
    const Feature f = kind == Kind::Control ? Feature::ControlAtJoin : Feature::BarrierAtJoin;
    if (on(f)) mark(f);
    else out_ << "  nop\n";
  }
  atJoin_ = false;
  out_ << "  " << text << "\n";
}

void Gen::prologue() {
  out_ << "// random kernel, seed " << result_.seed << "\n.kernel random_" << result_.seed << "\n";
  if (declareRegs64_) out_ << ".regs 64\n";
  out_ << ".shared " << 4 * (3 * sharedWords_ + kScWords) << "\n";
  out_ << ".local 64\n";
  out_ << ".param IN\n.param OUT\n.param ATOM\n.param TRIP\n.param SEED\n";
  const std::string a = r(kTmpA), b = r(kTmpB);
  // t = tid.x + ntid.x * (tid.y + ntid.y * tid.z); block = ctaid.x + nctaid.x * (ctaid.y + nctaid.y * ctaid.z)
  for (const auto& [dst, lo, n] : {std::tuple{kTid, "%tid", "%ntid"}, std::tuple{kGid, "%ctaid", "%nctaid"}}) {
    ins("s2r " + r(dst) + ", " + lo + ".z");
    ins("s2r " + a + ", " + n + ".y");
    ins("s2r " + b + ", " + lo + ".y");
    ins("mad.lo.u32 " + r(dst) + ", " + r(dst) + ", " + a + ", " + b);
    ins("s2r " + a + ", " + n + ".x");
    ins("s2r " + b + ", " + lo + ".x");
    ins("mad.lo.u32 " + r(dst) + ", " + r(dst) + ", " + a + ", " + b);
  }
  ins("mul.lo.u32 " + r(kGid) + ", " + r(kGid) + ", " + std::to_string(threads_));
  ins("add.u32 " + r(kGid) + ", " + r(kGid) + ", " + r(kTid));
  ins("ld.param.b32 " + r(kOutPtr) + ", [OUT]");
  ins("mul.lo.u32 " + a + ", " + r(kGid) + ", " + std::to_string(4 * slots_));
  ins("add.u32 " + r(kOutPtr) + ", " + r(kOutPtr) + ", " + a);
  ins("ld.param.b32 " + r(kInBase) + ", [IN]");
  ins("ld.param.b32 " + r(kAtomBase) + ", [ATOM]");
  ins("s2r " + r(kWarp) + ", %warpid");
  ins("s2r " + r(kLane) + ", %laneid");
  // Work registers start as a mix of uniform and per-thread values.
  for (int w : work_) {
    switch (rng.below(5)) {
      case 0: ins("mov.b32 " + r(w) + ", " + std::to_string(rng.range(-100, 100))); break;
      case 1: ins("ld.param.b32 " + r(w) + ", [SEED]"); break;
      case 2: ins("add.u32 " + r(w) + ", " + r(kTid) + ", " + std::to_string(rng.range(0, 9))); break;
      default: {
        ins("and.b32 " + a + ", " + r(rng.chance(50) ? kGid : kTid) + ", " + std::to_string(kInWords - 1));
        ins("shl.b32 " + a + ", " + a + ", 2");
        ins("add.u32 " + a + ", " + a + ", " + r(kInBase));
        ins(inLoad(60) + " " + r(w) + ", [" + a + "]");
      }
    }
  }
}

void Gen::dump(const std::string& guard) {
  for (size_t i = 0; i < work_.size(); ++i)
    ins(guard + "st.global.b32 [" + r(kOutPtr) + "+" + std::to_string(4 * i) + "], " + r(work_[i]));
}

void Gen::epilogue() {
  if (on(Feature::ControlAtJoin) && rng.chance(50)) {
    // The kernel ends at the join of an if/else: the taken path runs first and falls into `exit`.
    const std::string e = newLabel("TAIL_ELSE"), j = newLabel("TAIL_JOIN");
    setPredicate(rng.chance(50) ? Cond::Tid : Cond::Data, 6, Ctx{});
    ins("@p6 bra " + e, Kind::Control);
    dump("");
    ins("bra " + j, Kind::Control);
    label(e);
    randomAlu(Ctx{});
    dump("");
    label(j);
  } else {
    dump("");
  }
  ins("exit", Kind::Control);
}

void Gen::body(const Ctx& c, int budget) {
  while (budget > 0) statement(c, budget);
}

void Gen::ifElse(const Ctx& c, int& budget, Cond kind) {
  const int pred = c.ifDepth % 4;
  setPredicate(kind, pred, c);
  Ctx inner = c;
  inner.ifDepth++;
  inner.converged = c.converged && kind == Cond::BlockUniform;
  const std::string guard = std::string(rng.chance(50) ? "@" : "@!") + p(pred) + " ";
  const int thenBudget = std::min(budget, rng.range(0, 6));
  const int elseBudget = std::min(budget - thenBudget, rng.range(0, 6));
  budget -= 1 + thenBudget + std::max(0, elseBudget);
  const std::string j = newLabel("JOIN");
  if (rng.chance(60)) {
    const std::string e = newLabel("ELSE");
    ins(guard + "bra " + e, Kind::Control);
    body(inner, thenBudget);
    ins("bra " + j, Kind::Control);
    label(e);
    body(inner, elseBudget);
  } else {
    ins(guard + "bra " + j, Kind::Control);
    body(inner, thenBudget);
  }
  label(j);
}

// A loop with a data-dependent trip count (0..7 per thread) and an optional break, or, where
// the block is converged, a block-uniform one (from TRIP or from IN[ctaid]) whose body may hold
// barriers.
void Gen::loop(const Ctx& c, int& budget, bool uniform) {
  const int depth = c.loopDepth;
  const std::string cnt = r(kCounter + depth), trip = r(kTrip + depth), a = r(kTmpA);
  if (uniform) {
    if (rng.chance(50)) {
      ins("ld.param.b32 " + trip + ", [TRIP]");
    } else {
      ins("s2r " + a + ", %ctaid.x");
      ins("shl.b32 " + a + ", " + a + ", 2");
      ins("add.u32 " + a + ", " + a + ", " + r(kInBase));
      ins(inLoad(50) + " " + trip + ", [" + a + "]");
      ins("and.b32 " + trip + ", " + trip + ", 3");
    }
  } else {
    ins("and.b32 " + trip + ", " + (rng.chance(70) ? work() : r(kTid)) + ", 7");
  }
  Ctx inner = c;
  inner.loopDepth++;
  inner.converged = c.converged && uniform;
  inner.noExit = c.noExit || inner.converged;
  const std::string head = newLabel("LOOP"), end = newLabel("END");
  ins("mov.b32 " + cnt + ", 0");
  ins("setp.ge.u32 p4, " + cnt + ", " + trip);
  ins("@p4 bra " + end, Kind::Control);
  label(head);
  const int sub = std::min(budget, rng.range(1, 8));
  budget -= 2 + sub;
  const int first = rng.range(0, sub);
  body(inner, first);
  if (!uniform && rng.chance(50)) {  // break
    setPredicate(rng.chance(50) ? Cond::Data : Cond::Tid, 5, inner);
    ins("@p5 bra " + end, Kind::Control);
  }
  body(inner, sub - first);
  ins("add.u32 " + cnt + ", " + cnt + ", 1");
  ins("setp.lt.u32 p4, " + cnt + ", " + trip);
  ins("@p4 bra " + head, Kind::Control);
  label(end);
}

// Some threads leave: they store their work registers first. No barrier may follow.
void Gen::earlyExit(const Ctx& c) {
  setPredicate(rng.chance(50) ? Cond::Tid : Cond::Data, 5, c);
  dump("@p5 ");
  ins("@p5 exit", Kind::Control);
  exited_ = true;
}

GeneratedKernel Gen::run() {
  prologue();
  // Forced constructs the random body did not produce go between its two halves; no thread
  // exits while a barrier construct is still to come (statement()).
  Ctx top;
  body(top, rng.range(5, 25));
  int none = 0;
  if (pending(Feature::BarrierAtJoin)) barrierAtJoin(top, none);
  if (pending(Feature::TwoBarrierPcs)) twoBarrierPcs(top, none);
  if (pending(Feature::SharedStoreReload)) storeReload(top);
  if (pending(Feature::LongBranchHistory)) longBranchHistory(top);
  if (pending(Feature::ControlAtJoin)) controlAtJoin(top, none);
  body(top, rng.range(5, 25));
  epilogue();
  result_.text = out_.str();
  return result_;
}

}  // namespace gen

GeneratedKernel generateKernel(uint64_t seed, const GenOptions& opt) { return gen::Gen(seed, opt).run(); }

}  // namespace simtlm::test
