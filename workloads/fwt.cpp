// Fast Walsh transform, as the CUDA SDK sample fastWalshTransform (fwtBatch1Kernel): a batch
// of independent N-point Walsh-Hadamard transforms (N = 2^log2n, 1024 by default), one block
// of N/4 threads (256) per transform, radix-4 butterflies in shared memory
// (workloads/kernels/fwt.s). Inputs in [-1, 1) from a fixed-seed LCG.
#include "isa/semantics.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

class Fwt : public Workload {
 public:
  explicit Fwt(const Options& o)
      : batches_(option(o, "batches", 512, 1, 16384)),
        log2n_(option(o, "log2n", 10, 2, 10)),
        seed_(option(o, "seed", 1, 0, 0xffffffffL)) {
    rejectUnknown(o, {"batches", "log2n", "seed"}, "fwt");
  }
  std::string name() const override { return "fwt"; }
  std::string description() const override {
    return "fast Walsh transform of " + std::to_string(batches_) + " x " + std::to_string(n()) +
           " floats, 1D blocks of " + std::to_string(n() / 4) + " (CUDA SDK fwtBatch1Kernel)";
  }
  std::string kernelFile() const override { return "fwt.s"; }
  std::vector<CudaKernel> cudaKernels() const override { return {{"fwt.ptx", "fwt"}}; }

  isa::LaunchConfig setup(isa::GlobalMemory& mem) const override {
    uint32_t bytes = static_cast<uint32_t>(batches_ * n() * 4);
    uint32_t dst = mem.allocate("dst", bytes);
    uint32_t src = mem.allocate("src", bytes);
    Input in(seed_);
    fillWords(mem, "src", [&](size_t) { return in.next(); });
    isa::LaunchConfig l;
    l.grid = {static_cast<uint32_t>(batches_), 1, 1};
    l.block = {static_cast<uint32_t>(n() / 4), 1, 1};
    l.params = {dst, src, static_cast<uint32_t>(log2n_)};
    return l;
  }

  // The kernel's stages in its order; within a stage the butterflies touch disjoint elements,
  // so running them one after another gives the same words as the parallel kernel.
  std::string verify(const isa::GlobalMemory& mem) const override {
    Input in(seed_);  // batch by batch: no copy of the whole input or output
    const long N = n();
    WordComparison dst("dst", mem, batches_ * N);
    std::vector<uint32_t> want(N);
    std::vector<float> s(N);
    for (long b = 0; b < batches_; ++b) {
      for (long i = 0; i < N; ++i) s[i] = isa::F(in.next());
      for (long stride = N >> 2; stride > 0; stride >>= 2)
        for (long pos = 0; pos < N / 4; ++pos) {
          long lo = pos & (stride - 1), i0 = ((pos - lo) << 2) + lo;
          long i1 = i0 + stride, i2 = i1 + stride, i3 = i2 + stride;
          float d0 = s[i0], d1 = s[i1], d2 = s[i2], d3 = s[i3];
          float e0 = d0 + d2, e2 = d0 - d2, e1 = d1 + d3, e3 = d1 - d3;
          s[i0] = e0 + e1;
          s[i1] = e0 - e1;
          s[i2] = e2 + e3;
          s[i3] = e2 - e3;
        }
      if (log2n_ & 1)
        for (long pos = 0; pos < N / 2; ++pos) {
          float d0 = s[2 * pos], d1 = s[2 * pos + 1];
          s[2 * pos] = d0 + d1;
          s[2 * pos + 1] = d0 - d1;
        }
      for (long i = 0; i < N; ++i) want[i] = isa::U(s[i]);
      dst.check(b * N, want);
    }
    return dst.report();
  }

 private:
  long n() const { return 1L << log2n_; }
  // The input words in order, one at a time.
  struct Input {
    explicit Input(long seed) : s(static_cast<uint32_t>(seed)) {}
    uint32_t next() {
      s = s * 1664525u + 1013904223u;  // Numerical Recipes LCG; 24 bits, exact in a float
      return isa::U(static_cast<float>(s >> 8) * (1.0f / 8388608.0f) - 1.0f);
    }
    uint32_t s;
  };
  long batches_, log2n_, seed_;
};

}  // namespace

std::unique_ptr<Workload> makeFwt(const Options& o) { return std::make_unique<Fwt>(o); }

}  // namespace simtlm::workloads
