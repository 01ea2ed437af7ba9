// An assembled kernel: code words plus the metadata a launch needs.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "isa/instruction.h"

namespace simtlm::isa {

struct ParamDecl {
  std::string name;
  uint32_t offset = 0;  // byte offset in the parameter buffer; every parameter is 4 bytes
};

// Largest .local size per thread (CUDA's limit, 512 KiB).
inline constexpr uint32_t kMaxLocalBytes = 512 * 1024;

struct Kernel {
  std::string name;
  std::string sourceFile;
  std::vector<uint64_t> code;   // one word per instruction; PC = 8 * index
  std::vector<Instr> instrs;    // decoded code, kept in step with `code`
  std::vector<int> sourceLines; // source line of each instruction (0 if unknown)
  int numRegs = 0;              // general registers per thread
  uint32_t sharedBytes = 0;     // static shared memory per block
  uint32_t localBytes = 0;      // local memory per thread (.local; isa/local_memory.h)
  std::vector<ParamDecl> params;
  // Translated PTX (docs/ptx.md): how many of `params`, at the end, are hidden parameters that
  // hold the addresses of the module's __constant__ symbols (named by the symbol).
  uint32_t constantParams = 0;
  std::map<uint32_t, std::string> labels;  // PC -> label name

  uint32_t paramBytes() const { return static_cast<uint32_t>(params.size() * 4); }
  size_t size() const { return instrs.size(); }
  static constexpr uint32_t pcOf(size_t index) { return static_cast<uint32_t>(index * 8); }
  static constexpr size_t indexOf(uint32_t pc) { return pc / 8; }
  // Re-encodes `code` from `instrs` (after hint bits were rewritten).
  void reencode();
};

// Checks what the interpreter and the timing model rely on (registers within .regs, branch
// targets inside the code, valid predicates, specials and barrier ids); throws ExecError
// naming the PC. Binaries loaded from files go through this before they run.
void checkKernel(const Kernel& k);

}  // namespace simtlm::isa
