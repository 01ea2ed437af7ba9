// Workloads: a kernel plus its inputs, launch shape, C++ reference and verification.
// Every workload carries its own verify (MGPUSim practice).
#pragma once

#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "isa/interpreter.h"
#include "isa/kernel.h"
#include "isa/memory.h"
#include "workloads/data_dir.h"  // kernelDir()

namespace simtlm::workloads {

// Integer options of a workload ("size=128"); unknown keys and out-of-range values are errors.
using Options = std::map<std::string, long>;

// One kernel launch of a workload: which of its kernels (an index into kernelFiles()) with
// which grid, block and parameters.
struct Step {
  size_t kernel = 0;
  isa::LaunchConfig launch;
};

// The CUDA twin of one kernel (workloads/cuda/, docs/ptx.md): the PTX module nvcc compiled from
// workloads/cuda/NAME.cu, relative to cudaDir(), and the `.entry` in it.
struct CudaKernel {
  std::string ptxFile;
  std::string entry;
};

// Which kernels a workload runs: its hand-written assembly, or the nvcc-compiled CUDA twins.
// Default is the assembly where the workload has one and its CUDA kernels where it has none:
// the UV paper's own benchmarks (nqueens, ...) are CUDA-only, written after the public CUDA
// originals rather than hand-scheduled, so everything that runs "the workload" without naming a
// source (emulate WORKLOAD, tests, sweeps of workload scenarios) runs what it has.
enum class KernelSource { Default, Assembly, Cuda };

class Workload {
 public:
  virtual ~Workload() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  // Kernel source file, relative to the kernels directory (the first, for several kernels).
  // Empty for a CUDA-only workload (no hand-written assembly; cudaKernels() is its kernels).
  virtual std::string kernelFile() const { return ""; }
  // Allocates and initializes buffers in `mem`; returns the (first) launch.
  virtual isa::LaunchConfig setup(isa::GlobalMemory& mem) const = 0;

  // Workloads whose original runs several launches (Floyd-Warshall's k loop, pathfinder's row
  // strips, convolution's rows then columns) override these two; everything that runs a
  // workload as a whole runs launches(), in order, on one memory. launches() calls setup()
  // (allocating the buffers once) and returns its launch first.
  virtual std::vector<std::string> kernelFiles() const {
    return kernelFile().empty() ? std::vector<std::string>{} : std::vector<std::string>{kernelFile()};
  }
  virtual std::vector<Step> launches(isa::GlobalMemory& mem) const { return {Step{0, setup(mem)}}; }
  // Compares output buffers with the C++ reference: empty when correct, else what differs.
  virtual std::string verify(const isa::GlobalMemory& mem) const = 0;

  // The CUDA twins of kernelFiles(), in the same order; each takes the same parameters as its
  // assembly twin, so launches() serves both. Empty when the workload has none. For a CUDA-only
  // workload (kernelFiles() empty) these are its kernels, and Step::kernel indexes them.
  virtual std::vector<CudaKernel> cudaKernels() const { return {}; }
  // The CUDA kernels' `__constant__` arrays (symbol -> the buffer setup() fills with their
  // data). The translation passes each as a hidden parameter after the declared ones.
  virtual std::map<std::string, std::string> constantBuffers() const { return {}; }
};

// Names of all workloads, and a factory that validates the options.
std::vector<std::string> workloadNames();
std::unique_ptr<Workload> makeWorkload(const std::string& name, const Options& options = {});

// What `source` means for `w`: Default resolved (above); Assembly for a CUDA-only workload, or
// Cuda for one without CUDA kernels, is an error naming the workload (std::invalid_argument).
KernelSource resolveSource(const Workload& w, KernelSource source);
// The workload's (first) kernel, and all its kernels in kernelFiles() order; both with the
// DARSIE compiler pass's hint bits, as the scenario loader compiles.
isa::Kernel loadKernel(const Workload& w, KernelSource source = KernelSource::Default);
std::vector<isa::Kernel> loadKernels(const Workload& w, KernelSource source = KernelSource::Default);
// Runs every launch of the workload on the interpreter, in order, on `mem` (which it sets up);
// the counts are summed. An observer sees each launch (its onLaunch starts afresh).
isa::ExecCounts runOnInterpreter(const Workload& w, isa::GlobalMemory& mem,
                                 isa::ExecObserver* observer = nullptr,
                                 KernelSource source = KernelSource::Default);
// The parameter words of `kernel` for a launch of `w`: `declared` (the launch's parameters),
// then the address of each of the kernel's `__constant__` symbols' buffers (constantBuffers()).
std::vector<uint32_t> kernelParams(const Workload& w, const isa::Kernel& kernel,
                                   const std::vector<uint32_t>& declared, const isa::GlobalMemory& mem);

// Reads an option with its default and checks its allowed range (std::invalid_argument).
long option(const Options& o, const std::string& key, long def, long lo, long hi);
void rejectUnknown(const Options& o, const std::vector<std::string>& known, const std::string& workload);

// Bit-exact comparison of a float buffer with a reference; reports the first mismatches.
std::string compareWords(const std::string& buffer, const std::vector<uint32_t>& got,
                         const std::vector<uint32_t>& want);
// The same on buffer `buffer` of `mem`, read where it is (no copy of it).
std::string compareWords(const std::string& buffer, const isa::GlobalMemory& mem, const std::vector<uint32_t>& want);

// compareWords on a reference produced a piece at a time (so no vector of the whole expected
// buffer stands beside the buffer): check() each piece, at its first word, in any order; then
// report() says what compareWords over the whole buffer would (empty when every word matched).
class WordComparison {
 public:
  WordComparison(std::string buffer, const isa::GlobalMemory& mem, size_t words);
  void check(size_t first, const uint32_t* want, size_t n);
  void check(size_t first, const std::vector<uint32_t>& want) { check(first, want.data(), want.size()); }
  std::string report() const;

 private:
  std::string buffer_;
  const std::vector<uint8_t>& bytes_;
  size_t words_;
  std::map<size_t, std::pair<uint32_t, uint32_t>> first_;  // the lowest differing words: got, want
  size_t bad_ = 0;
};

// Fills buffer `name` of `mem` with f(0), f(1), ... in place (setWords without a vector of the
// whole buffer beside it).
template <class F>
void fillWords(isa::GlobalMemory& mem, const std::string& name, F f) {
  std::vector<uint8_t>& bytes = mem.bytes(name);
  for (size_t i = 0; i + 4 <= bytes.size(); i += 4) {
    const uint32_t w = f(i / 4);
    std::memcpy(bytes.data() + i, &w, 4);
  }
}

// Constructors of the individual workloads (one file each).
std::unique_ptr<Workload> makeVecAdd(const Options& o);
std::unique_ptr<Workload> makeMatmul(const Options& o);
std::unique_ptr<Workload> makeFig3(const Options& o);
// DARSIE Table 1 workloads (issue 6; docs/workloads/).
std::unique_ptr<Workload> makeDct8x8(const Options& o);
std::unique_ptr<Workload> makeFwt(const Options& o);
std::unique_ptr<Workload> makeHotspot(const Options& o);
std::unique_ptr<Workload> makeSrad(const Options& o);
std::unique_ptr<Workload> makeBackprop(const Options& o);
std::unique_ptr<Workload> makeBinomial(const Options& o);
std::unique_ptr<Workload> makeCp(const Options& o);
std::unique_ptr<Workload> makeLibor(const Options& o);
std::unique_ptr<Workload> makeConvSep(const Options& o);
std::unique_ptr<Workload> makeNlm(const Options& o);
std::unique_ptr<Workload> makeFloydWarshall(const Options& o);
std::unique_ptr<Workload> makePathfinder(const Options& o);
// UV paper Table 3 benchmarks simtlm lacked (issue 38), CUDA-only (workloads/cuda/).
std::unique_ptr<Workload> makeScalarProd(const Options& o);
std::unique_ptr<Workload> makeMersenne(const Options& o);
std::unique_ptr<Workload> makeFft(const Options& o);
std::unique_ptr<Workload> makeNQueens(const Options& o);
std::unique_ptr<Workload> makeDxtc(const Options& o);
// Kim et al. ISCA 2013 GP-SIMT benchmarks simtlm lacked (issue 38), CUDA-only (workloads/cuda/).
std::unique_ptr<Workload> makeBfs(const Options& o);
std::unique_ptr<Workload> makeKMeans(const Options& o);
std::unique_ptr<Workload> makeLps(const Options& o);
std::unique_ptr<Workload> makeMedian(const Options& o);
// BOW paper Table III and UV paper Table 3 benchmarks simtlm lacked (issue 38), CUDA-only.
std::unique_ptr<Workload> makeSad(const Options& o);
std::unique_ptr<Workload> makeNw(const Options& o);
std::unique_ptr<Workload> makeGaussian(const Options& o);
std::unique_ptr<Workload> makeRay(const Options& o);
std::unique_ptr<Workload> makeHeartWall(const Options& o);

}  // namespace simtlm::workloads
