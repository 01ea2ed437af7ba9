// libFuzzer target: assembly text (isa/assembler, isa/asm_lexer). An accepted kernel must also
// pass what the tools do with it next: checkKernel, the CFG and DARSIE pass a scenario applies,
// disassembly that assembles back to the same words, a binary round trip, and a run on the
// interpreter.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_kernel.h"
#include "isa/assembler.h"
#include "isa/binary.h"
#include "isa/cfg.h"
#include "isa/darsie_analysis.h"
#include "isa/disassembler.h"

using namespace simtlm;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string file = "fuzz.s";
  isa::Kernel k;
  try {
    k = isa::assemble(text, file);
  } catch (const InputError& e) {
    fuzz::checkInputError(e, file, text);
    return 0;
  }
  try {
    isa::checkKernel(k);
  } catch (const ExecError& e) {
    fuzz::broken("the assembler accepted a kernel checkKernel rejects", e.what());
  }
  isa::applyStaticHints(k, isa::markRedundancy(k, isa::Cfg(k)));
  const std::string listing = isa::disassemble(k);
  try {
    if (isa::assemble(listing, "listing.s").code != k.code) fuzz::broken("disassembly assembles to other words", listing);
  } catch (const InputError& e) {
    fuzz::broken("disassembly does not assemble", std::string(e.what()) + "\n" + listing);
  }
  if (isa::deserializeKernel(isa::serializeKernel(k), "k.bin").code != k.code) fuzz::broken("binary round trip", "");
  fuzz::runKernel(k);
  return 0;
}
