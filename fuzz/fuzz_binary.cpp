// libFuzzer target: the kernel binary (isa/binary), read as `simtlm disasm`, `run` and a scenario
// read a .bin: deserializeKernel, then checkKernel; an accepted kernel is then disassembled and
// analysed (CFG, DARSIE marking) as a scenario would, and run on the interpreter.
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
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const std::string file = "fuzz.bin";
  isa::Kernel k;
  try {
    k = isa::deserializeKernel(bytes, file);
  } catch (const InputError& e) {
    fuzz::checkOneLine(e.what());
    if (e.file() != file || e.line() != 0) fuzz::broken("binary error does not name the file alone", e.what());
    return 0;
  }
  try {
    isa::checkKernel(k);
  } catch (const ExecError& e) {
    fuzz::checkOneLine(e.what());
    return 0;
  }
  // What `simtlm disasm` prints must assemble, to a kernel that prints the same. (Not to the same
  // words: a word may carry bits in fields its format does not use, which no text can give.)
  const std::string listing = isa::disassemble(k);
  try {
    if (isa::disassemble(isa::assemble(listing, "listing.s")) != listing) fuzz::broken("disassembly reassembles to another kernel", listing);
  } catch (const InputError& e) {
    fuzz::broken("disassembly of an accepted binary does not assemble", std::string(e.what()) + "\n" + listing);
  }
  isa::markRedundancy(k, isa::Cfg(k));
  fuzz::runKernel(k);
  return 0;
}
