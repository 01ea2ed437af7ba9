// Soundness of DARSIE's marking (DESIGN.md rule 2) checked against the interpreter: for random
// and hand-made kernels under many block shapes, every instruction that promoteForLaunch marks
// definitely redundant must leave the same destination vector (all lanes: a follower takes the
// leader's whole register) in every full, non-diverged warp that executes the same dynamic
// instance of it.
//
// Dynamic instance: DARSIE keeps the warps of a block in step on the majority path, synchronizing
// at branches, and resets the path at bar.sync (Sec. 4.3.3). Two warps execute the same
// instance of a PC when they executed the same sequence of (PC, active mask) since the same
// completed barrier (or since the block started). This is the limit study's (PC, k) rule
// restricted to warps on one path: a warp that left the path (skipped a loop iteration, took the
// other side of a branch) is compared again only after the next bar.sync, which is exactly where
// values defined on different paths must have lost their redundancy (the join rule). The plain
// (PC, k) rule is too strict for DARSIE: see KthExecutionAloneIsNotTheInstance.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "isa/assembler.h"
#include "isa/darsie_analysis.h"
#include "isa/disassembler.h"
#include "tests/isa/test_support.h"

using namespace simtlm::isa;
using simtlm::test::dim;

namespace {

uint32_t fullMask(uint32_t lanes) { return lanes == 32 ? 0xFFFFFFFFu : (1u << lanes) - 1; }

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdull;
}

// Checks the property while the interpreter runs and keeps the first few violations.
class SoundnessChecker : public ExecObserver {
 public:
  explicit SoundnessChecker(bool plainPcK) : plainPcK_(plainPcK) {}

  void onLaunch(const Kernel& k, const LaunchConfig& l) override {
    kernel_ = &k;
    lanes_ = l.warpSize;
  }
  void onBlockStart(uint32_t, uint32_t numWarps) override {
    hist_.assign(numWarps, 0);
    barriers_.assign(numWarps, 0);
    visits_.assign(static_cast<size_t>(numWarps) * kernel_->size(), 0);
    seen_.clear();
  }
  void onWarpStep(const WarpStep& s) override {
    size_t idx = Kernel::indexOf(s.pc);
    uint64_t& h = hist_[s.warp];
    h = mix(mix(h, s.pc), s.activeMask);
    uint64_t key = plainPcK_ ? mix(idx, visits_[s.warp * kernel_->size() + idx]++) : h;
    if (s.instr->op == Op::BAR_SYNC) h = mix(0x5eed, ++barriers_[s.warp]);  // next episode
    bool full = s.activeMask == fullMask(lanes_) && s.warpMask == s.activeMask;
    if (!full || !s.result || s.instr->darsie != Redundancy::Definite) return;
    std::vector<uint32_t> v(s.result, s.result + lanes_);
    auto [it, fresh] = seen_.try_emplace(mix(key, idx), Seen{v, s.warp});
    if (fresh) return;
    ++compared;
    if (it->second.value == v || violations.size() >= 3) return;
    std::ostringstream o;
    o << "PC 0x" << std::hex << s.pc << std::dec << " '" << disassemble(*s.instr, kernel_)
      << "': block " << s.blockLinear << ", warp " << s.warp << " vs warp " << it->second.warp;
    for (uint32_t l = 0; l < lanes_; ++l)
      if (v[l] != it->second.value[l]) {
        o << ", lane " << l << ": " << v[l] << " vs " << it->second.value[l];
        break;
      }
    violations.push_back(o.str());
  }

  std::vector<std::string> violations;
  uint64_t compared = 0;  // DR executions compared with an earlier warp's same instance

 private:
  struct Seen {
    std::vector<uint32_t> value;
    uint32_t warp;
  };
  bool plainPcK_;
  const Kernel* kernel_ = nullptr;
  uint32_t lanes_ = 32;
  std::vector<uint64_t> hist_;
  std::vector<uint32_t> barriers_, visits_;
  std::unordered_map<uint64_t, Seen> seen_;
};

struct Shape {
  Dim3 block;
  uint32_t warpSize;
};

// Shapes that promote tid.x, tid.y and tid.z (x | W, x*y | W, x*y*z | W), shapes that do not,
// one-warp blocks, partial last warps, and warp size 8.
const std::vector<Shape>& shapes() {
  static const std::vector<Shape> s = {
      {dim(32, 1), 32}, {dim(16, 2), 32}, {dim(8, 4), 32},   {dim(4, 8), 32},   {dim(64, 1), 32},
      {dim(8, 8), 32},  {dim(16, 4), 32}, {dim(2, 16), 32},  {dim(8, 2, 2), 32}, {dim(4, 4, 4), 32},
      {dim(12, 4), 32}, {dim(8, 1), 8},   {dim(4, 2), 8},    {dim(2, 4), 8},    {dim(8, 4), 8},
      {dim(16, 2), 8},  {dim(4, 4), 8},   {dim(2, 2, 4), 8}, {dim(24, 2), 8},   {dim(3, 5), 8},
  };
  return s;
}

constexpr uint32_t kInWords = 256;

struct CheckResult {
  std::vector<std::string> violations;
  uint64_t compared = 0;
  int divergedAtBarrier = 0;
};

// Runs `text` (two blocks) under every shape, with and without the tid.y/z extension.
CheckResult check(const std::string& text, bool plainPcK = false) {
  Kernel base = assemble(text, "soundness.s");
  Cfg cfg(base);
  CheckResult r;
  for (bool yz : {true, false}) {
    DarsieOptions opt;
    opt.conditionalTidYZ = yz;
    DarsieMarking m = markRedundancy(base, cfg, opt);
    for (const Shape& sh : shapes()) {
      Kernel k = base;
      promoteForLaunch(k, m, sh.block, sh.warpSize);
      GlobalMemory mem;
      std::vector<uint32_t> in(kInWords);
      std::mt19937 rng(7);
      for (auto& w : in) w = rng() % 1000;
      LaunchConfig l;
      l.params.push_back(mem.allocate("IN", kInWords * 4));
      mem.setWords("IN", in);
      l.params.push_back(mem.allocate("OUT", 1024 * 4));
      l.grid = dim(2);
      l.block = sh.block;
      l.warpSize = sh.warpSize;
      l.maxWarpInstructions = 2'000'000;
      SoundnessChecker c(plainPcK);
      try {
        Interpreter(k, mem).run(l, &c);
      } catch (const simtlm::ExecError& e) {
        // A warp still diverged at bar.sync: branches whose paths only meet at kernel exit (one
        // side may `exit`) never reconverge in the interpreter. What ran until then was checked.
        if (std::string(e.what()).find("diverged warp") == std::string::npos) throw;
        ++r.divergedAtBarrier;
      }
      r.compared += c.compared;
      for (const auto& v : c.violations)
        if (r.violations.size() < 4)
          r.violations.push_back("block " + sh.block.str() + ", warp size " +
                                 std::to_string(sh.warpSize) + (yz ? "" : " (tid.x only)") +
                                 ": " + v);
    }
  }
  return r;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}

// Shared by every kernel below: r0 = tid.x, r1 = tid.y, r2 = warpid, r3 = laneid, r4 = ctaid.x,
// r5 = IN, r6 = OUT; shared word t (t = linear thread index mod 256) holds IN[t]; a barrier.
const char* kPrologue = R"(
.regs 32
.shared 1024
.param IN
.param OUT
  s2r r0, %tid.x
  s2r r1, %tid.y
  s2r r2, %warpid
  s2r r3, %laneid
  s2r r4, %ctaid.x
  ld.param.b32 r5, [IN]
  ld.param.b32 r6, [OUT]
  s2r r20, %ntid.x
  mad.lo.u32 r20, r1, r20, r0
  s2r r21, %tid.z
  s2r r22, %ntid.y
  s2r r23, %ntid.x
  mul.lo.u32 r22, r22, r23
  mad.lo.u32 r20, r21, r22, r20
  and.b32 r20, r20, 255
  shl.b32 r20, r20, 2
  add.u32 r21, r5, r20
  ld.global.b32 r21, [r21]
  st.shared.b32 [r20], r21
  bar.sync 0
)";

std::string kernelText(const std::string& name, const std::string& body) {
  return ".kernel " + name + "\n" + kPrologue + body;
}

// ---------------------------------------------------------------------------------------------
// Random kernels: straight-line code, guarded writes, predicates, selp, global and shared loads,
// if / if-else, counted loops with breaks and second back edges, second entries into the middle
// of a region, early exits (taken, or never taken so that only the CFG changes) and barriers.
// Conditions mix warp-dependent (V), tid-dependent (CR), lane-dependent and uniform values.
// Loads read memory that no later store writes (Sec. 4.4's store rule is the timing model's).
// ---------------------------------------------------------------------------------------------

class Generator {
 public:
  Generator(uint32_t seed, bool realExits) : rng_(seed), realExits_(realExits) {}

  std::string kernel(int id) {
    o_.str("");
    for (int r = 7; r <= 15; ++r) o_ << "  mov.b32 r" << r << ", " << pick(0, 9) << "\n";
    block(0, 0, pick(6, 14));
    o_ << "  exit\n";
    return kernelText("rnd" + std::to_string(id), o_.str());
  }

 private:
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool chance(int percent) { return pick(0, 99) < percent; }
  std::string reg() { return "r" + std::to_string(chance(40) ? pick(0, 6) : pick(7, 15)); }
  std::string dst() { return "r" + std::to_string(pick(7, 15)); }
  std::string pred() { return "p" + std::to_string(pick(0, 4)); }
  std::string label() { return "L" + std::to_string(labels_++); }

  // A condition in p5; half of them depend on the warp only (no SIMD divergence).
  void condition() {
    static const char* cmp[] = {"setp.lt.u32", "setp.eq.b32", "setp.ne.b32", "setp.gt.u32"};
    int kind = pick(0, 7);
    std::string a = kind <= 2 ? "r2" : kind == 3 ? "r0" : kind == 4 ? "r1" : kind == 5 ? "r3" : reg();
    o_ << "  and.b32 r24, " << a << ", " << pick(1, 7) << "\n";
    o_ << "  " << cmp[pick(0, 3)] << " p5, r24, " << pick(0, 4) << "\n";
  }

  void statement(int depth, int loopDepth) {
    static const char* bin[] = {"add.u32", "sub.u32", "mul.lo.u32", "and.b32", "or.b32",
                                "xor.b32", "min.u32", "max.u32",    "shr.u32", "rem.u32"};
    static const char* specials[] = {"%tid.x", "%tid.y", "%tid.z", "%laneid", "%warpid",
                                     "%ctaid.x", "%ntid.x"};
    static const char* cmp[] = {"setp.lt.u32", "setp.eq.b32", "setp.ne.b32", "setp.ge.u32"};
    int r = pick(0, 99);
    bool nest = depth < 3;
    if (r < 22) {
      o_ << "  " << bin[pick(0, 9)] << " " << dst() << ", " << reg() << ", " << reg() << "\n";
    } else if (r < 32) {
      o_ << "  " << bin[pick(0, 9)] << " " << dst() << ", " << reg() << ", " << pick(1, 9) << "\n";
    } else if (r < 36) {
      o_ << "  s2r " << dst() << ", " << specials[pick(0, 6)] << "\n";
    } else if (r < 43) {
      o_ << "  " << cmp[pick(0, 3)] << " " << pred() << ", " << reg() << ", "
         << (chance(50) ? reg() : std::to_string(pick(0, 9))) << "\n";
    } else if (r < 51) {
      o_ << "  @" << (chance(50) ? "!" : "") << pred() << " " << bin[pick(0, 9)] << " " << dst()
         << ", " << reg() << ", " << reg() << "\n";
    } else if (r < 54) {
      o_ << "  selp.b32 " << dst() << ", " << reg() << ", " << reg() << ", " << pred() << "\n";
    } else if (r < 57) {
      static const char* pops[] = {"pand", "por", "pxor"};
      if (chance(25)) o_ << "  pnot " << pred() << ", " << pred() << "\n";
      else o_ << "  " << pops[pick(0, 2)] << " " << pred() << ", " << pred() << ", " << pred() << "\n";
    } else if (r < 63) {
      o_ << "  and.b32 r25, " << reg() << ", 255\n  shl.b32 r25, r25, 2\n";
      std::string guard = chance(20) ? "@" + pred() + " " : "";
      if (chance(50)) {
        o_ << "  " << guard << "ld.shared.b32 " << dst() << ", [r25]\n";
      } else {
        o_ << "  add.u32 r25, r25, r5\n  " << guard << "ld.global.b32 " << dst() << ", [r25]\n";
      }
    } else if (r < 66) {
      o_ << "  mad.lo.u32 " << dst() << ", " << reg() << ", " << reg() << ", " << reg() << "\n";
    } else if (r < 73 && nest) {  // if / if-else
      std::string els = label(), end = label();
      condition();
      o_ << "  @" << (chance(50) ? "!" : "") << "p5 bra " << els << "\n";
      block(depth + 1, loopDepth, pick(1, 4));
      bool hasElse = chance(50);
      if (hasElse) o_ << "  bra " << end << "\n";
      o_ << els << ":\n";
      if (hasElse) block(depth + 1, loopDepth, pick(1, 4));
      o_ << end << ":\n";
    } else if (r < 80 && nest && loopDepth < 2) {  // counted loop (1..4 trips)
      std::string top = label(), out = label();
      int ctr = 16 + loopDepth, bound = 18 + loopDepth;
      o_ << "  and.b32 r" << bound << ", " << reg() << ", 3\n  add.u32 r" << bound << ", r"
         << bound << ", 1\n  mov.b32 r" << ctr << ", 0\n" << top << ":\n";
      block(depth + 1, loopDepth + 1, pick(1, 3));
      if (chance(35)) {  // break
        condition();
        o_ << "  @p5 bra " << out << "\n";
        block(depth + 1, loopDepth + 1, pick(0, 2));
      }
      if (chance(20)) {  // continue: a second back edge
        condition();
        o_ << "  add.u32 r" << ctr << ", r" << ctr << ", 1\n";
        o_ << "  setp.lt.u32 p6, r" << ctr << ", r" << bound << "\n  pand p6, p6, p5\n";
        o_ << "  @p6 bra " << top << "\n";
        o_ << "  sub.u32 r" << ctr << ", r" << ctr << ", 1\n";
        block(depth + 1, loopDepth + 1, pick(0, 2));
      }
      o_ << "  add.u32 r" << ctr << ", r" << ctr << ", 1\n  setp.lt.u32 p6, r" << ctr << ", r"
         << bound << "\n  @p6 bra " << top << "\n" << out << ":\n";
    } else if (r < 85 && nest) {  // a second entry into the middle of a region
      std::string mid = label(), end = label();
      condition();
      o_ << "  @p5 bra " << mid << "\n";
      block(depth + 1, loopDepth, pick(1, 3));
      condition();
      o_ << "  @p5 bra " << end << "\n";
      block(depth + 1, loopDepth, pick(0, 2));
      o_ << mid << ":\n";
      block(depth + 1, loopDepth, pick(1, 3));
      o_ << end << ":\n";
    } else if (r < 89) {  // an early exit
      if (realExits_) condition();
      else o_ << "  setp.gt.u32 p5, r4, 1000\n";  // never true: only the CFG changes
      o_ << "  @p5 exit\n";
    } else {
      o_ << "  mov.b32 " << dst() << ", " << pick(0, 9) << "\n";
    }
    // Barriers (never after a real exit: a warp that left would deadlock the block) make warps
    // that took different paths comparable again.
    if (depth == 0 && !realExits_ && chance(40)) o_ << "  bar.sync " << pick(0, 1) << "\n";
  }

  void block(int depth, int loopDepth, int n) {
    for (int i = 0; i < n; ++i) statement(depth, loopDepth);
  }

  std::mt19937 rng_;
  bool realExits_;
  int labels_ = 0;
  std::ostringstream o_;
};

}  // namespace

TEST(DarsieSoundness, RandomKernels) {
  // SIMTLM_SOUNDNESS_SEEDS=N runs more kernels (the default keeps the test well under a second).
  const char* env = std::getenv("SIMTLM_SOUNDNESS_SEEDS");
  const uint32_t n = env ? static_cast<uint32_t>(std::strtoul(env, nullptr, 10)) : 400;
  uint64_t compared = 0;
  int diverged = 0;
  for (uint32_t seed = 1; seed <= n; ++seed) {
    Generator g(seed, seed % 4 == 0);
    std::string text = g.kernel(static_cast<int>(seed));
    CheckResult r = check(text);
    compared += r.compared;
    diverged += r.divergedAtBarrier;
    ASSERT_TRUE(r.violations.empty()) << "seed " << seed << "\n" << join(r.violations) << text;
  }
  // The property was really exercised, across warps that met again after barriers.
  EXPECT_GT(compared, 100u * n);
  EXPECT_LT(diverged, static_cast<int>(n * shapes().size()));  // most runs complete
}

// A second way into the middle of a region: warps that take the first (warp-dependent) branch
// reach `mid` with r7 = 1, the others with r7 = 2. `mid` is not the branch's immediate
// post-dominator (`end` is), so a join rule applied only there misses it.
TEST(DarsieSoundness, JoinInsideTheRegion) {
  std::string text = kernelText("inner_join", R"(
  mov.b32 r7, 1
  setp.eq.b32 p0, r2, 0          // V: warp 0 only
  @p0 bra mid
  mov.b32 r7, 2
  setp.gt.u32 p1, r4, 1000       // DR, never true
  @p1 bra end
mid:
  bar.sync 0
  add.u32 r8, r7, 10             // r7 differs between warps: must not be DR
end:
  exit
)");
  CheckResult r = check(text);
  EXPECT_EQ(join(r.violations), "");
  EXPECT_GT(r.compared, 0u);
}

// A loop left after a warp-dependent number of trips that also holds a (never taken) early
// exit: the loop branch's post-dominator is the kernel exit, yet the warps meet at `out`.
TEST(DarsieSoundness, LoopExitWhenThePostDominatorIsTheKernelExit) {
  std::string text = kernelText("loop_exit", R"(
  mov.b32 r7, 0
top:
  add.u32 r7, r7, 1
  setp.gt.u32 p0, r7, r2         // V: warp w leaves after w+1 trips
  @p0 bra out
  setp.gt.u32 p1, r4, 1000       // DR, never true
  @p1 exit
  bra top
out:
  bar.sync 0
  add.u32 r8, r7, 10             // r7 = warpid + 1: must not be DR
  exit
)");
  CheckResult r = check(text);
  EXPECT_EQ(join(r.violations), "");
  EXPECT_GT(r.compared, 0u);
}

// if (warp-dependent) { if (never) return; r7 = 2; }: the outer branch's post-dominator is the
// kernel exit because of the return, yet both paths continue at `after`.
TEST(DarsieSoundness, EarlyReturnInsideABranch) {
  std::string text = kernelText("early_return", R"(
  mov.b32 r7, 1
  setp.eq.b32 p0, r2, 0          // V
  @p0 bra after
  setp.gt.u32 p1, r4, 1000       // DR, never true
  @p1 exit
  mov.b32 r7, 2
after:
  bar.sync 0
  add.u32 r8, r7, 10             // must not be DR
  exit
)");
  CheckResult r = check(text);
  EXPECT_EQ(join(r.violations), "");
  EXPECT_GT(r.compared, 0u);
}

// Matching by (PC, k) alone pairs different dynamic instances once a warp skips one: warp 0
// skips `work` in the first trip and runs it in the second (r9 = 1), warp 1 runs it in the first
// (r9 = 0). DARSIE never pairs those (warp 0 left the majority path at the branch), and within
// each trip every warp that runs `work` computes the same value, so DR is right.
TEST(DarsieSoundness, KthExecutionAloneIsNotTheInstance) {
  std::string text = kernelText("skip_instance", R"(
  mov.b32 r9, 0
top:
  setp.eq.b32 p0, r2, r9         // V: warp w skips `work` in trip w
  @p0 bra next
work:
  add.u32 r8, r9, 100            // DR
next:
  add.u32 r9, r9, 1
  setp.lt.u32 p1, r9, 2          // DR
  @p1 bra top
  exit
)");
  Kernel k = assemble(text);
  Cfg cfg(k);
  EXPECT_EQ(markRedundancy(k, cfg).instr[simtlm::test::findInstr(k, "add.u32 r8")].hint(),
            Redundancy::Definite);
  EXPECT_EQ(join(check(text).violations), "");
  EXPECT_NE(join(check(text, /*plainPcK=*/true).violations), "");
}

// Observers see an atomic's operands as it read them, also when rD is one of them.
TEST(DarsieSoundness, AtomicOperandsObservedBeforeTheWrite) {
  Kernel k = assemble(R"(
.kernel atom_alias
.param BUF
  ld.param.b32 r2, [BUF]
  mov.b32 r1, 5
  mov.b32 r3, 9
  atom.global.add.u32 r1, [r2], r1
  atom.global.cas.b32 r3, [r2], r1, r3
  exit
)");
  struct Capture : ExecObserver {
    std::vector<std::vector<uint32_t>> srcs;  // lane-0 value of each source, per atomic
    void onWarpStep(const WarpStep& s) override {
      if (info(s.instr->op).cls != OpClass::AtomicGlobal) return;
      std::vector<uint32_t> v;
      for (int i = 0; i < s.numSrcs; ++i) v.push_back(s.src[i][0]);
      srcs.push_back(v);
    }
  } cap;
  GlobalMemory mem;
  LaunchConfig l;
  l.params.push_back(mem.allocate("BUF", 4));
  l.block = dim(1);
  Interpreter(k, mem).run(l, &cap);
  ASSERT_EQ(cap.srcs.size(), 2u);
  EXPECT_EQ(cap.srcs[0][1], 5u);   // r1 before the atomic wrote the old word (0) into it
  EXPECT_EQ(cap.srcs[1][1], 0u);   // compare value r1 = 0
  EXPECT_EQ(cap.srcs[1][2], 9u);   // swap value r3 before it received the old word (5)
}
