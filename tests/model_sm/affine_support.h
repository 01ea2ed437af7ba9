// What the affine tests share (affine_test.cpp, affine_ab_test.cpp): a kernel run as one
// 64-thread block per launch block on one SM, and the SM's affine statistics.
#pragma once

#include <stdexcept>
#include <string>

#include "tests/isa/test_support.h"
#include "tests/model_sm/kernel_run_support.h"

namespace simtlm::test {

inline void runAffine(const std::string& source, config::Mechanism m, KernelRun& out, int asrfEntries = 64, int simd = 32,
                      uint32_t blocks = 1) {
  config::GpuConfig c;
  c.gpu.num_sms = 1;
  c.exec.simd_width = simd;
  c.affine.asrf_entries = asrfEntries;
  c.mechanism = m;
  isa::LaunchConfig l;
  l.block = {64, 1, 1};
  l.grid = {blocks, 1, 1};
  runAgainstInterpreter(source, c, l, out);
}

// A kernel of the affine scenarios (scenarios/kernels/NAME), so that a test and its scenario run
// the same text.
inline std::string scenarioKernel(const std::string& name) {
  const std::string path = std::string(SIMTLM_SOURCE_DIR) + "/scenarios/kernels/" + name;
  std::string text = readFile(path);
  if (text.empty()) throw std::runtime_error("cannot read " + path);
  return text;
}

inline double affineStat(const KernelRun& r, const std::string& name) { return r.stat("sm0.affine." + name); }

}  // namespace simtlm::test
