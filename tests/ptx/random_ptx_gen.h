// The random PTX generator's class, private to its three files (the public interface is
// random_ptx.h): random_ptx.cpp (the module text, emission, operands, prologue and epilogue,
// memory, and randomPtxModule / randomPtxInputs), random_ptx_ops.cpp (operations) and
// random_ptx_flow.cpp (control flow).
#pragma once

#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "model/common/splitmix.h"
#include "tests/ptx/random_ptx.h"

namespace simtlm::test::ptxgen {

class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull) {}
  uint64_t next() { return splitmixNext(s_); }
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(next() % n); }
  bool percent(uint32_t p) { return below(100) < p; }
  int between(int lo, int hi) { return lo + static_cast<int>(below(static_cast<uint32_t>(hi - lo + 1))); }
  template <class T>
  const T& pick(const std::vector<T>& v) { return v[below(static_cast<uint32_t>(v.size()))]; }

 private:
  uint64_t s_;
};

inline std::string r(int i) { return "%r" + std::to_string(i); }
inline std::string f(int i) { return "%f" + std::to_string(i); }
inline std::string p(int i) { return "%p" + std::to_string(i); }
inline std::string rd(int i) { return "%rd" + std::to_string(i); }
inline std::string rs(int i) { return "%rs" + std::to_string(i); }
inline std::string num(int64_t v) { return std::to_string(v); }
inline std::string fimm(uint32_t bits) {
  char b[16];
  std::snprintf(b, sizeof b, "0f%08X", bits);
  return b;
}
inline std::string addr(const std::string& base, int64_t off) {
  if (off == 0) return "[" + base + "]";
  return "[" + base + "+" + std::to_string(off) + "]";  // a negative offset: [%rd5+-8], as nvcc writes it
}

class Gen {
 public:
  explicit Gen(uint64_t seed) : seed_(seed), rng_(seed) {}

  std::string run();

 private:
  // Emission (random_ptx.cpp) -----------------------------------------------------------------

  void ins(const std::string& guard, const std::string& op, const std::vector<std::string>& ops);
  void ins(const std::string& op, const std::vector<std::string>& ops) { ins("", op, ops); }
  int newLabel() { return nextLabel_++; }
  void label(int n) { body_ << "$L__BB0_" << n << ":\n"; }
  std::string lbl(int n) { return "$L__BB0_" + std::to_string(n); }

  int newR() { return nextR_++; }
  int newF() { return nextF_++; }
  int newP() { return nextP_++; }
  int newRd() { return nextRd_++; }
  int newRs() { return nextRs_++; }

  // Operands (random_ptx.cpp) -----------------------------------------------------------------

  std::string intImm();
  std::string imm64();
  uint32_t floatBits();
  std::string floatImm() { return fimm(floatBits()); }

  int pr() { return rng_.pick(poolR_); }
  int pf() { return rng_.pick(poolF_); }
  int pp() { return rng_.pick(poolP_); }
  int prd() { return rng_.pick(poolRd_); }
  std::string srcR(int immPercent = 25) { return rng_.percent(immPercent) ? intImm() : r(pr()); }
  std::string srcF(int immPercent = 20) { return rng_.percent(immPercent) ? floatImm() : f(pf()); }
  std::string srcRd(int immPercent = 20) { return rng_.percent(immPercent) ? imm64() : rd(prd()); }
  std::string maybeGuard(int percent = 12);

  // Prologue and epilogue (random_ptx.cpp) ----------------------------------------------------

  void prologue(int nR, int nF, int nP, int nRd);
  void epilogue();

  // Memory (random_ptx.cpp) -------------------------------------------------------------------

  void indexedLoad(bool isFloat, int d, bool fromTid, const std::string& guard = "");
  void vectorLoad();
  void store();
  std::string localAddr();
  void localVector();
  void localAccess();

  // Operations (random_ptx_ops.cpp) -----------------------------------------------------------

  void intOp();
  void narrowConversion(int d, const std::string& g);
  void floatOp();
  void setp(int d, bool allowExtras, const std::string& guard = "");
  void predOp();
  void wideOp();
  void simple();
  void mix(const std::string& reg);

  // Control flow (random_ptx_flow.cpp) --------------------------------------------------------

  std::string cond();
  void block(int depth, int items);
  void deadCode();
  void ifThen(int depth);
  void ifElse(int depth);

  struct LoopCtx {
    int latch, exit;
  };

  void loop(int depth);
  void breakContinue();
  std::string rareCond();
  void earlyExit();

  uint64_t seed_;
  Rng rng_;
  std::ostringstream body_;
  int nextR_ = 1, nextF_ = 1, nextP_ = 1, nextRd_ = 1, nextRs_ = 1, nextLabel_ = 1;
  std::vector<int> poolR_, poolF_, poolP_, poolRd_;
  std::vector<LoopCtx> loops_;
  std::string last_;  // the register the last simple operation wrote, or ""
  int acc_ = 0, out_ = 0, inA_ = 0, inB_ = 0, outBase_ = 0, gtid_ = 0;
  int dumpLabel_ = 0;
  int localWords_ = 0, localAlign_ = 4, dumpSlots_ = 0, freeSlot_ = 0, budget_ = 0, retLabel_ = 0;
};

}  // namespace simtlm::test::ptxgen
