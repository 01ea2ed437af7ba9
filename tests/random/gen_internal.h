// Internals of the random-kernel generator, shared by its source files: the emitter (labels,
// instructions, the nop that keeps a control instruction off a join unless asked for) and the
// register and memory layout every generated kernel follows.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "tests/random/kernel_generator.h"
#include "tests/random/rng.h"

namespace simtlm::test::gen {

// Fixed register roles; r14.. are the work registers, whose final values every thread stores.
enum Reg : int {
  kTid = 0,      // linear thread index in the block
  kGid = 1,      // global thread index
  kOutPtr = 2,   // this thread's output slots
  kInBase = 3,   // IN buffer (only ever loaded: read-only and constant loads read it too)
  kWarp = 4,     // %warpid
  kLane = 5,     // %laneid
  kCounter = 6,  // loop counters r6, r7 (by loop depth)
  kTrip = 8,     // loop trip counts r8, r9
  kTmpA = 10, kTmpB = 11,
  kSink = 12,    // results nobody may use (contended atomics)
  kAtomBase = 13,
  kFirstWork = 14,
};
inline constexpr int kMaxLoopDepth = 2;
inline constexpr uint32_t kInWords = 4096;  // IN buffer: large, so that loads can be uncoalesced
inline constexpr uint32_t kAtomWords = 64;
// ATOM buffer: four words per commutative kind, then one word per contended exch/cas site.
inline constexpr int kAtomKinds = 6;  // add.u32, add.f32, min.s32, min.u32, max.s32, max.u32
inline constexpr int kAtomSiteFirst = kAtomKinds * 4;
// Shared scalar area (words after the three per-thread regions).
inline constexpr int kScReduce = 0;   // one word per commutative kind, read back after bar.sync
inline constexpr int kScReload = 8;   // store-reload words (8)
inline constexpr int kScSink = 16;    // atomics whose memory nobody reads (8 kinds)
inline constexpr int kScWords = 32;

enum class Cond { Tid, Data, WarpUniform, BlockUniform };
enum class Kind { Plain, Control, Barrier };

struct Ctx {
  bool converged = true;  // the whole block runs this code together: barriers are legal here
  bool noExit = false;    // inside a loop that holds barriers: no thread may leave
  int loopDepth = 0;
  int ifDepth = 0;
};

class Gen {
 public:
  Gen(uint64_t seed, const GenOptions& opt);
  GeneratedKernel run();

  // --- emitter
  void ins(const std::string& text, Kind kind = Kind::Plain);
  void label(const std::string& name);
  std::string newLabel(const char* stem) { return stem + std::to_string(labels_++); }
  bool on(Feature f) const { return on_[static_cast<int>(f)]; }
  void mark(Feature f) { result_.features |= 1u << static_cast<int>(f); }

  // --- instructions (gen_instructions.cpp)
  std::string work() { return r(work_[rng.below(static_cast<uint32_t>(work_.size()))]); }
  std::string source(const Ctx& c);  // a work register, an index register or a loop counter
  void randomAlu(const Ctx& c);
  std::string inLoad(int plainPercent);  // ld.global, ld.global.nc or ld.const (IN is never written)
  void globalLoad(const Ctx& c);
  void globalStore();
  void localAccess();
  void privateAtomic(bool shared);
  void contendedAtomic(bool shared);
  void setPredicate(Cond kind, int pred, const Ctx& c);
  void barrier() { ins("bar.sync " + std::to_string(rng.below(16)), Kind::Barrier); }
  static std::string r(int n) { return "r" + std::to_string(n); }
  static std::string p(int n) { return "p" + std::to_string(n); }

  // --- structure (kernel_generator.cpp, gen_constructs.cpp)
  void prologue();
  void epilogue();
  void body(const Ctx& c, int budget);
  void statement(const Ctx& c, int& budget);
  void ifElse(const Ctx& c, int& budget, Cond kind);
  void loop(const Ctx& c, int& budget, bool uniform);
  void earlyExit(const Ctx& c);
  void dump(const std::string& guard);
  void exchange(const Ctx& c);
  void sharedReduce(const Ctx& c);
  void barrierAtJoin(const Ctx& c, int& budget);
  void twoBarrierPcs(const Ctx& c, int& budget);
  void storeReload(const Ctx& c);
  void controlAtJoin(const Ctx& c, int& budget);
  void longBranchHistory(const Ctx& c);

  Rng rng;
  GeneratedKernel result_;
  bool on_[kNumFeatures] = {};
  std::ostringstream out_;
  std::vector<int> work_;     // work register numbers
  uint32_t threads_ = 0, warps_ = 0, sharedWords_ = 0;  // per block; S = sharedWords_
  int slots_ = 0;             // output words per thread: work registers, then 2 private atomic words
  bool atJoin_ = false;
  bool exited_ = false;       // some thread may have left: no barrier from here on
  int labels_ = 0, atomSites_ = 0, reloads_ = 0, exchanges_ = 0;
  bool declareRegs64_ = false;
  bool built_[kNumFeatures] = {};  // the construct of a forced feature was emitted
  bool pending(Feature f) const { return on(f) && !built_[static_cast<int>(f)]; }
  bool barrierPending() const {
    return pending(Feature::BarrierAtJoin) || pending(Feature::TwoBarrierPcs) || pending(Feature::SharedStoreReload);
  }
};

}  // namespace simtlm::test::gen
