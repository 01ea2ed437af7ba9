// The translation's intermediate code: simtlm instructions over virtual registers (PTX's
// unbounded registers plus the translation's temporaries), before register allocation.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "isa/kernel.h"
#include "isa/ptx/ptx_module.h"

namespace simtlm::isa::ptx {

inline constexpr int kNoReg = -1;
inline constexpr int kPt = -2;  // the constant-true predicate as a predicate source

// One simtlm instruction whose register fields are virtual: general (gpr) and predicate (pred)
// numbers are separate spaces, and which fields are which follows the opcode's Format.
struct VInstr {
  Op op = Op::NOP;
  int guard = kNoReg;  // predicate, or kNoReg
  bool guardNeg = false;
  bool hasImm = false, hasBase = false;
  int d = kNoReg, a = kNoReg, b = kNoReg, c = kNoReg;
  int32_t off = 0;
  uint32_t imm = 0;    // immediate, barrier id, special-register number (in `a` for s2r)
  int target = -1;     // branch target: index into VCode::instrs (resolved)
  std::string label;   // branch target label until resolved
  int line = 0;        // PTX source line
};

struct VCode {
  std::vector<VInstr> instrs;
  std::vector<std::pair<size_t, std::string>> labels;  // instruction index -> PTX label
  int numGpr = 0, numPred = 0;
  uint32_t sharedBytes = 0, localBytes = 0;
  std::vector<ParamDecl> params;
  uint32_t constantParams = 0;  // hidden ones at the end of params (__constant__ addresses)
  int ptxInstructions = 0;
};

// Which register fields an instruction reads and writes, as (is predicate, virtual number).
struct RegRef {
  bool pred = false;
  int reg = kNoReg;
};
void readsOf(const VInstr& in, std::vector<RegRef>& out);   // operands and guard, not the old dst

// Calls f(field, isPredicate) for each register field the instruction reads: the guard, then
// its operands as its Format has them (immediates, a missing base and pt, kPt, are skipped).
// `I` is VInstr or const VInstr, so that a pass may rewrite the fields it visits.
template <class I, class F>
void forEachRead(I& in, F f) {
  auto g = [&](auto& r) {
    if (r >= 0) f(r, false);
  };
  auto p = [&](auto& r) {
    if (r >= 0) f(r, true);
  };
  p(in.guard);
  switch (info(in.op).format) {
    case Format::Unary: if (!in.hasImm) g(in.a); break;
    case Format::Binary: g(in.a); if (!in.hasImm) g(in.b); break;
    case Format::Ternary: g(in.a); g(in.b); g(in.c); break;
    case Format::Select: g(in.a); g(in.b); p(in.c); break;
    case Format::Compare: g(in.a); if (!in.hasImm) g(in.b); break;
    case Format::PredBinary: p(in.a); p(in.b); break;
    case Format::PredUnary: p(in.a); break;
    case Format::Load: if (in.hasBase) g(in.a); break;
    case Format::Store: if (in.hasBase) g(in.a); g(in.b); break;
    case Format::Atomic: g(in.a); g(in.b); break;
    case Format::AtomicCas: g(in.a); g(in.b); g(in.c); break;
    default: break;
  }
}
bool writesOf(const VInstr& in, RegRef& out);               // the destination, if any

// Allocates r0..r63 / p0..p6 and builds the kernel (isa/ptx/ptx_regalloc.cpp). Spills general
// registers to .local when 64 are not enough; throws InputError naming `file` when predicates
// do not fit.
Kernel allocate(VCode code, const std::string& name, const std::string& file, int* spilled = nullptr);

}  // namespace simtlm::isa::ptx
