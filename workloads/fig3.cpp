// DARSIE Fig. 3: an 8-thread block (8x1 or 4x2) with warp size 4 loads MEM[base + 4*tid.x]
// from the array [7, 3, 0, 90, 55, 8, 22, 1].
#include <stdexcept>

#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

const std::vector<uint32_t> kValues = {7, 3, 0, 90, 55, 8, 22, 1};

class Fig3 : public Workload {
 public:
  explicit Fig3(const Options& o) : x_(option(o, "x", 8, 1, 8)), y_(option(o, "y", 1, 1, 8)) {
    rejectUnknown(o, {"x", "y"}, "fig3");
    if (x_ * y_ > 8) throw std::invalid_argument("fig3: x * y must be at most 8");
  }
  std::string name() const override { return "fig3"; }
  std::string description() const override {
    return "DARSIE Fig. 3 array read, block " + std::to_string(x_) + "x" + std::to_string(y_) + ", warp size 4";
  }
  std::string kernelFile() const override { return "fig3.s"; }
  std::vector<CudaKernel> cudaKernels() const override { return {{"fig3.ptx", "fig3"}}; }

  isa::LaunchConfig setup(isa::GlobalMemory& mem) const override {
    uint32_t base = mem.allocate("mem", 8 * 4);
    uint32_t out = mem.allocate("out", static_cast<uint32_t>(x_ * y_ * 4));
    mem.setWords("mem", kValues);
    isa::LaunchConfig l;
    l.block = {static_cast<uint32_t>(x_), static_cast<uint32_t>(y_), 1};
    l.warpSize = 4;
    l.params = {base, out};
    return l;
  }

  std::string verify(const isa::GlobalMemory& mem) const override {
    std::vector<uint32_t> want;
    for (long t = 0; t < x_ * y_; ++t) want.push_back(kValues[t % x_]);
    return compareWords("out", mem, want);
  }

 private:
  long x_, y_;
};

}  // namespace

std::unique_ptr<Workload> makeFig3(const Options& o) { return std::make_unique<Fig3>(o); }

}  // namespace simtlm::workloads
