// libFuzzer target: PTX text (isa/ptx), read as `simtlm ptx` and a scenario read a .ptx:
// parseModule, then translate for every entry of the module. Each step may reject the input with
// an InputError (which must keep the one-line, names-where promise); anything else is a finding.
// A translated kernel must also pass what the tools do with it next: checkKernel, the CFG and
// DARSIE pass a scenario applies, and a run on the interpreter.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_kernel.h"
#include "isa/cfg.h"
#include "isa/darsie_analysis.h"
#include "isa/ptx/ptx_module.h"
#include "isa/ptx/ptx_translate.h"

using namespace simtlm;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string file = "fuzz.ptx";
  isa::ptx::Module m;
  try {
    m = isa::ptx::parseModule(text, file);
  } catch (const InputError& e) {
    fuzz::checkInputError(e, file, text);
    return 0;
  }
  for (const std::string& entry : isa::ptx::entryNames(m)) {
    isa::Kernel k;
    try {
      k = isa::ptx::translate(m, entry);
    } catch (const InputError& e) {
      fuzz::checkInputError(e, file, text);
      continue;
    }
    try {
      isa::checkKernel(k);
    } catch (const ExecError& e) {
      fuzz::broken("the PTX translation produced a kernel checkKernel rejects", e.what());
    }
    isa::applyStaticHints(k, isa::markRedundancy(k, isa::Cfg(k)));
    fuzz::runKernel(k);
  }
  return 0;
}
