// The lowering of one PTX entry to VCode (internal to the PTX front end).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "isa/ptx/ptx_translate.h"
#include "isa/ptx/ptx_vcode.h"

namespace simtlm::isa::ptx {

class Lowering {
 public:
  Lowering(const Module& m, const Entry& e);
  VCode run(TranslationInfo* info);

  // A PTX register: its virtual number and width (64-bit values are lowered to their low
  // 32 bits, 16-bit ones live in a 32-bit register, width 0 marks .f64).
  struct VReg {
    bool pred = false;
    int id = 0;
    int width = 32;
  };
  // A source that may be an immediate.
  struct Src {
    bool imm = false;
    uint32_t value = 0;
    int reg = kNoReg;
  };
  // A type suffix: kind ('u', 's', 'b', 'f', 'p' for pred) and bits.
  struct Type {
    char kind = 0;
    int bits = 0;
  };

 private:
  struct Sym {
    Space space;
    uint32_t offset;
    const Symbol* decl;
  };

  [[noreturn]] void fail(SourcePos p, const std::string& msg) const;
  int newGpr();
  int newPred();
  const VReg& reg(const Operand& o);
  void declareRegisters();
  void declareParams();
  void declareSymbols();
  int constBase(const std::string& name, SourcePos pos);

  // ptx_lower_ops.cpp (setp, cvt, bit fields: ptx_lower_convert.cpp; memory: ptx_lower_mem.cpp)
  void lowerStatement(const Statement& s);
  void lowerOne(const Statement& s);
  VInstr& emit(Op op);
  Src src(const Operand& o);
  int gprSrc(const Operand& o);
  int toReg(const Src& s);
  int special(const Operand& o, int dst);  // s2r of a special register into dst
  int gprDst(const Operand& o);
  int predSrc(const Operand& o);
  int predDst(const Operand& o);
  void binary(Op op, const Operand& d, const Operand& a, const Operand& b, bool commutative);
  void unary(Op op, const Operand& d, const Operand& a);
  void ternary(Op op, const Operand& d, const Operand& a, const Operand& b, const Operand& c);
  void lowerArith(const std::string& base, const std::vector<std::string>& mods, Type t);
  void lowerFloat(const std::string& base, const std::vector<std::string>& mods);
  void lowerSetp(const std::vector<std::string>& mods, Type t);
  void lowerCvt(const std::vector<std::string>& mods);
  void lowerMov(Type t);
  void lowerMemory(const std::string& base, const std::vector<std::string>& mods);
  void lowerAtomic(const std::string& base, const std::vector<std::string>& mods);
  void lowerBitfield(const std::string& base, Type t);
  void lowerBranch(const std::vector<std::string>& mods);
  // An address operand in `space`: base register (or none) and offset.
  void address(const Operand& o, Space space, VInstr& in);
  void need(size_t n);
  [[noreturn]] void notSupported() const;
  [[noreturn]] void no64() const;
  void checkWidth(const Operand& o, int bits);

  const Module& mod_;
  const Entry& entry_;
  std::string file_;
  VCode code_;
  std::map<std::string, VReg> regs_;
  std::map<std::string, uint32_t> params_;
  std::map<std::string, Sym> symbols_;
  std::map<std::string, int> constRegs_;
  std::vector<std::string> constSymbols_;
  std::vector<VInstr> prologue_, body_;
  const Statement* st_ = nullptr;  // the statement being lowered
  int guard_ = kNoReg;
  bool guardNeg_ = false;
};

// A PTX type suffix ("u32", "f32", "pred" ...) as a Lowering::Type.
bool parseType(const std::string& m, Lowering::Type& t);

}  // namespace simtlm::isa::ptx
