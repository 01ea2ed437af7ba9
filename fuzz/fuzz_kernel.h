// Shared by the assembly and binary targets: a kernel that loaded runs on the interpreter, as
// `simtlm emulate` would run it, on a small grid (two blocks, a partial second warp) with every
// parameter pointing at a small buffer and a tight instruction budget. A fault of the kernel
// (ExecError) or a launch the kernel cannot have (std::invalid_argument) is an answer; anything
// else, or a sanitizer report, is a finding.
#pragma once

#include <stdexcept>

#include "fuzz/fuzz_support.h"
#include "isa/interpreter.h"

namespace simtlm::fuzz {

inline void runKernel(const isa::Kernel& k) {
  isa::GlobalMemory mem;
  isa::LaunchConfig launch;
  launch.grid = {2, 1, 1};
  launch.block = {48, 1, 1};
  launch.maxWarpInstructions = 20000;
  const uint32_t base = mem.allocate("buf", 4096);
  for (size_t i = 0; i < k.params.size(); ++i) launch.params.push_back(base + 64 * static_cast<uint32_t>(i % 32));
  try {
    isa::Interpreter interp(k, mem);
    interp.run(launch);
  } catch (const ExecError& e) {
    checkRunError(e.what());
  } catch (const std::invalid_argument& e) {
    checkOneLine(e.what());
  }
}

}  // namespace simtlm::fuzz
