// A parsed PTX module (the text `nvcc -ptx` writes): its kernels (`.entry`), their parameters,
// register declarations, symbols and instructions, kept close to the source so that the
// translation (isa/ptx/ptx_translate.h) can name file, line and column in every message.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace simtlm::isa::ptx {

struct SourcePos {
  int line = 0, col = 0;
};

// One operand as written.
struct Operand {
  enum class Kind {
    Reg,      // %r1 (also %p1, %rd1, %f1; specials are Special)
    Special,  // %tid.x, %ctaid.y, %laneid ...
    Imm,      // integer immediate (two's complement in `value`)
    FloatImm, // 0fXXXXXXXX: the binary32 bits in `value`; 0d...: isDouble
    Symbol,   // a label, parameter, .shared/.local/.const name
    Address,  // [base], [base+off], [off]
    Vector,   // {a, b, c, d}
    Sink,     // _
  };
  Kind kind = Kind::Imm;
  std::string name;        // Reg, Special, Symbol; Address: the base (register or symbol), may be empty
  bool baseIsReg = false;  // Address
  bool negated = false;    // !%p
  bool isDouble = false;   // FloatImm written 0d...
  uint64_t value = 0;      // Imm, FloatImm; Address: the offset (two's complement)
  std::vector<Operand> elems;  // Vector
  SourcePos pos;
};

struct Statement {
  std::string opcode;  // "ld.global.nc.f32", as written
  std::string guard;   // "%p1" or empty
  bool guardNeg = false;
  std::vector<Operand> dsts2;   // second destination of setp's "p|q" (at most one)
  std::vector<Operand> operands;
  SourcePos pos;
};

struct RegDecl {
  std::string type;  // "pred", "b32", "u64", "f32" ...
};

enum class Space { Shared, Local, Const, Global };

struct Symbol {
  std::string name;
  Space space = Space::Shared;
  uint32_t align = 4;
  uint32_t bytes = 0;       // 0 with `unsized`: extern (dynamic) shared memory
  bool unsized = false;
  bool initialized = false; // has `= {...}`
  SourcePos pos;
};

struct Param {
  std::string name;
  std::string type;  // "u64", "u32", "f32", "b8" ...
  uint32_t arrayBytes = 0;  // .b8 name[N]: N (by-value structs), else 0
  SourcePos pos;
};

struct Entry {
  std::string name;
  SourcePos pos;
  std::vector<Param> params;
  std::map<std::string, RegDecl> regs;  // register name -> declaration
  std::vector<Symbol> symbols;          // .shared / .local declared in the body
  std::vector<Statement> body;          // instructions in order
  std::map<std::string, size_t> labels; // label -> index in body of the next instruction
};

struct Module {
  std::string file;
  std::string nvccVersion;  // "release 13.0, V13.0.88" from the header comment, if any
  std::string target;       // sm_75 ...
  std::vector<Entry> entries;
  std::vector<Symbol> symbols;  // module-scope .const / .shared / .global
};

// Parses PTX text; `file` names it in messages. Throws InputError (file:line:col) on text
// that is not PTX or uses a directive outside the subset (docs/ptx.md).
Module parseModule(const std::string& text, const std::string& file);

// "file:line:col: PTX 'X' is not supported (docs/ptx.md lists the subset)" as an InputError.
[[noreturn]] void unsupported(const std::string& file, SourcePos pos, const std::string& what);

}  // namespace simtlm::isa::ptx
