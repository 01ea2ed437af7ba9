// ScalarProduct (the UV paper's "SP", Table 3), after the CUDA SDK sample scalarProd
// (workloads/cuda/scalarprod.cu, docs/workloads/scalarprod.md): `vectors` dot products of
// `elements` floats each, `blocks` blocks of 256 threads (the SDK's launch is 128 x 256). Inputs
// are uniform in [0, 1) as the sample's RandFloat draws them, from a fixed-seed LCG. CUDA-only.
#include <cmath>
#include <stdexcept>

#include "isa/semantics.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

constexpr long kAccumN = 1024;  // the kernel's ACCUM_N
constexpr uint32_t kThreads = 256;

class ScalarProd : public Workload {
 public:
  explicit ScalarProd(const Options& o)
      : vectors_(option(o, "vectors", 256, 1, 65536)),
        elements_(option(o, "elements", 2048, 1, 1 << 20)),
        blocks_(option(o, "blocks", 128, 1, 65535)),
        seed_(option(o, "seed", 1, 0, 0xffffffffL)) {
    rejectUnknown(o, {"vectors", "elements", "blocks", "seed"}, "scalarprod");
    if (vectors_ * elements_ > (1L << 24))
      throw std::invalid_argument(
          "options vectors x elements = " + std::to_string(vectors_ * elements_) +
          " exceed 16M floats per input");
  }
  std::string name() const override { return "scalarprod"; }
  std::string description() const override {
    return "scalar products of " + std::to_string(vectors_) + " vector pairs of " +
           std::to_string(elements_) + " floats, " + std::to_string(blocks_) +
           " blocks of 256 (CUDA SDK scalarProd; CUDA-only)";
  }
  std::vector<CudaKernel> cudaKernels() const override {
    return {{"scalarprod.ptx", "scalarProdGPU"}};
  }

  isa::LaunchConfig setup(isa::GlobalMemory& mem) const override {
    const uint32_t bytes = static_cast<uint32_t>(vectors_ * elements_ * 4);
    uint32_t c = mem.allocate("c", static_cast<uint32_t>(vectors_ * 4));
    uint32_t a = mem.allocate("a", bytes), b = mem.allocate("b", bytes);
    mem.setWords("a", input(0));
    mem.setWords("b", input(1));
    isa::LaunchConfig l;
    l.grid = {static_cast<uint32_t>(blocks_), 1, 1};
    l.block = {kThreads, 1, 1};
    l.params = {c, a, b, static_cast<uint32_t>(vectors_), static_cast<uint32_t>(elements_)};
    return l;
  }

  // The kernel's order: partial i = fma over elements i, i + 1024, ... (ascending), then the
  // tree: partial[i] += partial[i + stride] for stride 512, 256, ..., 1.
  std::string verify(const isa::GlobalMemory& mem) const override {
    const auto a = input(0), b = input(1);
    std::vector<uint32_t> want(vectors_);
    std::vector<float> acc(kAccumN);
    for (long v = 0; v < vectors_; ++v) {
      const long base = v * elements_;
      for (long i = 0; i < kAccumN; ++i) {
        float sum = 0.0f;
        for (long p = i; p < elements_; p += kAccumN)
          sum = std::fma(isa::F(a[base + p]), isa::F(b[base + p]), sum);
        acc[i] = sum;
      }
      for (long stride = kAccumN / 2; stride > 0; stride >>= 1)
        for (long i = 0; i < stride; ++i) acc[i] = acc[i] + acc[stride + i];
      want[v] = isa::U(acc[0]);
    }
    return compareWords("c", mem, want);
  }

 private:
  // Input `which` (0: a, 1: b): uniform floats in [0, 1) from the seeded LCG, 24 bits each.
  std::vector<uint32_t> input(uint32_t which) const {
    uint32_t st = static_cast<uint32_t>(seed_) * 2654435761u + which * 0x9e3779b9u;
    std::vector<uint32_t> v(vectors_ * elements_);
    for (auto& w : v) {
      st = st * 1664525u + 1013904223u;  // Numerical Recipes LCG
      w = isa::U(static_cast<float>(st >> 8) * (1.0f / 16777216.0f));
    }
    return v;
  }
  long vectors_, elements_, blocks_, seed_;
};

}  // namespace

std::unique_ptr<Workload> makeScalarProd(const Options& o) {
  return std::make_unique<ScalarProd>(o);
}

}  // namespace simtlm::workloads
