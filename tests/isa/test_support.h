// Helpers shared by the tests of tests/isa: launching kernels on the interpreter and catching
// what it throws, recording warp steps, reading files and the workload kernels, and finding
// instructions and labels in a kernel.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "isa/assembler.h"
#include "isa/diagnostics.h"
#include "isa/disassembler.h"
#include "isa/interpreter.h"
#include "isa/kernel.h"
#include "isa/memory.h"

#define EXPECT_CONTAINS(haystack, needle)                                                    \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos)                         \
      << "message:\n  " << (haystack) << "\ndoes not contain:\n  " << (needle)

namespace simtlm::test {

using Words = std::vector<uint32_t>;

// "0x..." without leading zeros, as the interpreter prints addresses and PCs.
inline std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%x", v);
  return b;
}

// ---------------------------------------------------------------------------------------------
// Kernels: labels, instructions, files
// ---------------------------------------------------------------------------------------------

inline uint32_t labelPc(const isa::Kernel& k, const std::string& name) {
  for (const auto& [pc, n] : k.labels)
    if (n == name) return pc;
  ADD_FAILURE() << "no label " << name;
  return 0;
}

// Index of the n-th instruction (0-based) whose disassembly starts with `prefix`.
inline size_t findInstr(const isa::Kernel& k, const std::string& prefix, int n = 0) {
  for (size_t i = 0; i < k.size(); ++i)
    if (isa::disassemble(k.instrs[i], &k).rfind(prefix, 0) == 0 && n-- == 0) return i;
  ADD_FAILURE() << "no instruction " << prefix;
  return 0;
}

// Index of the first instruction with opcode `op`, destination `d` and source `a`.
inline size_t findOp(const isa::Kernel& k, isa::Op op, int d, int a) {
  for (size_t i = 0; i < k.size(); ++i)
    if (k.instrs[i].op == op && k.instrs[i].d == d && k.instrs[i].a == a) return i;
  ADD_FAILURE() << "instruction not found";
  return size_t{0};
}

// The whole file, or "" when it cannot be read.
inline std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The regular files of `dir` whose extension is `ext` (".s"), sorted.
inline std::vector<std::filesystem::path> filesWithExtension(const std::filesystem::path& dir,
                                                             const std::string& ext) {
  std::vector<std::filesystem::path> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.is_regular_file() && e.path().extension() == ext) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// workloads/kernels of the source tree.
inline std::filesystem::path kernelDir() {
  return std::filesystem::path(SIMTLM_SOURCE_DIR) / "workloads" / "kernels";
}

// Assembles workloads/kernels/<file> ("matmul_tiled.s").
inline isa::Kernel assembleWorkloadKernel(const std::string& file) {
  return isa::assembleFile(std::string(SIMTLM_SOURCE_DIR) + "/workloads/kernels/" + file);
}

// ---------------------------------------------------------------------------------------------
// Launching on the interpreter
// ---------------------------------------------------------------------------------------------

inline isa::LaunchConfig launch(isa::Dim3 grid, isa::Dim3 block, std::vector<uint32_t> params,
                                uint32_t warpSize = 32) {
  isa::LaunchConfig l;
  l.grid = grid;
  l.block = block;
  l.params = std::move(params);
  l.warpSize = warpSize;
  l.maxWarpInstructions = 1'000'000;  // every kernel here needs far fewer; a broken one fails fast
  return l;
}

// Runs and returns the ExecError message (failing the test when nothing is thrown).
inline std::string runError(const isa::Kernel& k, isa::GlobalMemory& mem,
                            const isa::LaunchConfig& l) {
  try {
    isa::Interpreter(k, mem).run(l);
  } catch (const ExecError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an ExecError";
  return "";
}

// Runs on fresh memory and returns the std::invalid_argument message of a rejected launch.
inline std::string launchError(const isa::Kernel& k, const isa::LaunchConfig& l) {
  isa::GlobalMemory mem;
  try {
    isa::Interpreter(k, mem).run(l);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected std::invalid_argument";
  return "";
}

inline isa::Dim3 dim(uint32_t x, uint32_t y = 1, uint32_t z = 1) {
  isa::Dim3 d;
  d.x = x;
  d.y = y;
  d.z = z;
  return d;
}

// A named global buffer with its initial words.
struct Buffer {
  std::string name;
  std::vector<uint32_t> words;
};

struct RunResult {
  isa::GlobalMemory mem;
  isa::ExecCounts counts;
  std::vector<uint32_t> operator[](const std::string& name) const { return mem.words(name); }
};

// Assembles `text`, allocates the buffers (their base addresses become the first parameters,
// in order, followed by `scalars`) and runs the grid.
inline RunResult runKernel(const std::string& text, const std::vector<Buffer>& buffers,
                           isa::Dim3 grid, isa::Dim3 block, uint32_t warpSize = 32,
                           const std::vector<uint32_t>& scalars = {}) {
  isa::Kernel k = isa::assemble(text, "test.s");
  RunResult r;
  isa::LaunchConfig l;
  for (const auto& b : buffers) {
    l.params.push_back(r.mem.allocate(b.name, static_cast<uint32_t>(b.words.size() * 4)));
    r.mem.setWords(b.name, b.words);
  }
  l.params.insert(l.params.end(), scalars.begin(), scalars.end());
  l.grid = grid;
  l.block = block;
  l.warpSize = warpSize;
  r.counts = isa::Interpreter(k, r.mem).run(l);
  return r;
}

// ---------------------------------------------------------------------------------------------
// Observing a run
// ---------------------------------------------------------------------------------------------

// Records every warp step (scalars only: the pointers in WarpStep do not outlive the call).
struct Recorder : isa::ExecObserver {
  struct Step {
    uint32_t block, warp, pc, active, exec, warpMask;
    bool operator==(const Step& o) const {
      return std::tie(block, warp, pc, active, exec, warpMask) ==
             std::tie(o.block, o.warp, o.pc, o.active, o.exec, o.warpMask);
    }
  };
  std::vector<Step> steps;
  int launches = 0, blockStarts = 0, blockEnds = 0, gridEnds = 0;
  std::vector<uint32_t> warpsPerBlock;

  void onLaunch(const isa::Kernel&, const isa::LaunchConfig&) override { ++launches; }
  void onBlockStart(uint32_t, uint32_t numWarps) override {
    ++blockStarts;
    warpsPerBlock.push_back(numWarps);
  }
  void onWarpStep(const isa::WarpStep& s) override {
    steps.push_back({s.blockLinear, s.warp, s.pc, s.activeMask, s.execMask, s.warpMask});
  }
  void onBlockEnd(uint32_t) override { ++blockEnds; }
  void onGridEnd() override { ++gridEnds; }

  // Active masks of every execution of `pc` by (block, warp), in order.
  std::vector<uint32_t> masksAt(uint32_t pc, uint32_t block, uint32_t warp) const {
    std::vector<uint32_t> out;
    for (const auto& s : steps)
      if (s.pc == pc && s.block == block && s.warp == warp) out.push_back(s.active);
    return out;
  }
  size_t countAt(uint32_t pc) const {
    return static_cast<size_t>(
        std::count_if(steps.begin(), steps.end(), [&](const Step& s) { return s.pc == pc; }));
  }
};

}  // namespace simtlm::test
