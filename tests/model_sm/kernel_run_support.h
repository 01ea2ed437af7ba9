// Shared by the SM tests that run a small hand-written kernel whose only parameter is an output
// buffer "out" of one word per thread: assembled with DARSIE's hints, run on the timing model
// (sm::runGrid, memory latency 100, instruction fills free) and on the functional interpreter,
// each on its own memory.
#pragma once

#include <cstdint>
#include <string>

#include "isa/assembler.h"
#include "isa/cfg.h"
#include "isa/darsie_analysis.h"
#include "isa/interpreter.h"
#include "model/mechanisms/registry.h"
#include "model/sm/grid_runner.h"

namespace simtlm::test {

struct KernelRun {
  sm::GridResult result;
  stats::Registry reg;
  bool equal = false;  // the timed memory equals the interpreter's
  double stat(const std::string& name) const { return reg.value(name).value_or(-1); }
};

inline void runAgainstInterpreter(const std::string& source, const config::GpuConfig& cfg,
                                  const isa::LaunchConfig& launch, KernelRun& out) {
  isa::Kernel k = isa::assemble(source, "kernel.s");
  isa::applyStaticHints(k, isa::markRedundancy(k, isa::Cfg(k)));
  isa::GlobalMemory golden, timed;
  isa::LaunchConfig l = launch;
  const uint32_t bytes = static_cast<uint32_t>(4 * l.grid.count() * l.block.count());
  l.params = {golden.allocate("out", bytes)};
  timed.allocate("out", bytes);
  isa::Interpreter(k, golden).run(l);
  out.result = sm::runGrid(cfg, mechanisms::factoryFor(cfg), k, l, timed, out.reg, 100, 0);
  out.equal = golden == timed;
}

}  // namespace simtlm::test
