// Vector add, as ../shared/reference/vecadd.cu: a[i] = i * 0.5, b[i] = 2 * i, c = a + b.
#include "isa/semantics.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

class VecAdd : public Workload {
 public:
  explicit VecAdd(const Options& o)
      : n_(option(o, "n", 1 << 20, 1, 1 << 24)), block_(option(o, "block", 256, 1, 1024)) {
    rejectUnknown(o, {"n", "block"}, "vecadd");
  }
  std::string name() const override { return "vecadd"; }
  std::string description() const override {
    return "c = a + b over " + std::to_string(n_) + " floats, 1D blocks of " + std::to_string(block_);
  }
  std::string kernelFile() const override { return "vecadd.s"; }
  std::vector<CudaKernel> cudaKernels() const override { return {{"vecadd.ptx", "vecadd"}}; }

  isa::LaunchConfig setup(isa::GlobalMemory& mem) const override {
    uint32_t bytes = static_cast<uint32_t>(n_ * 4);
    uint32_t a = mem.allocate("a", bytes), b = mem.allocate("b", bytes), c = mem.allocate("c", bytes);
    mem.setWords("a", input(0.5f));
    mem.setWords("b", input(2.0f));
    isa::LaunchConfig l;
    l.grid = {static_cast<uint32_t>((n_ + block_ - 1) / block_), 1, 1};
    l.block = {static_cast<uint32_t>(block_), 1, 1};
    l.params = {a, b, c, static_cast<uint32_t>(n_)};
    return l;
  }

  std::string verify(const isa::GlobalMemory& mem) const override {
    auto a = input(0.5f), b = input(2.0f);
    std::vector<uint32_t> want(n_);
    for (long i = 0; i < n_; ++i) want[i] = isa::U(isa::F(a[i]) + isa::F(b[i]));
    return compareWords("c", mem, want);
  }

 private:
  std::vector<uint32_t> input(float scale) const {
    std::vector<uint32_t> v(n_);
    for (long i = 0; i < n_; ++i) v[i] = isa::U(static_cast<float>(i) * scale);
    return v;
  }
  long n_, block_;
};

}  // namespace

std::unique_ptr<Workload> makeVecAdd(const Options& o) { return std::make_unique<VecAdd>(o); }

}  // namespace simtlm::workloads
