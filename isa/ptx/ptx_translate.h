// The PTX front end (docs/ptx.md): a module nvcc wrote is parsed, one `.entry` is lowered to
// simtlm instructions over virtual registers, and the registers are allocated to r0..r63 and
// p0..p6. The interpreter, the analyses, the timing model and every mechanism then run the
// resulting isa::Kernel as they run an assembled one.
#pragma once

#include <string>
#include <vector>

#include "isa/kernel.h"
#include "isa/ptx/ptx_module.h"

namespace simtlm::isa::ptx {

// What a translation produced besides the kernel, for `simtlm ptx`.
struct TranslationInfo {
  int ptxInstructions = 0;  // instructions of the entry in the PTX
  int virtualRegs = 0;      // PTX registers and temporaries (general and predicate)
  int spilledRegs = 0;      // general registers spilled to .local
  std::vector<std::string> constSymbols;  // hidden parameters, in order
};

// The kernels (`.entry`) of a module, in file order.
std::vector<std::string> entryNames(const Module& m);
// Translates one entry. Throws InputError naming file:line:col for PTX outside the subset.
Kernel translate(const Module& m, const std::string& entry, TranslationInfo* info = nullptr);
// Reads, parses and translates `path`. An empty `entry` takes the module's only kernel (an
// error naming the kernels when there are several).
Kernel loadPtxFile(const std::string& path, const std::string& entry = "", TranslationInfo* info = nullptr);
// Is `path` a PTX file (by its extension)?
bool isPtxPath(const std::string& path);

}  // namespace simtlm::isa::ptx
