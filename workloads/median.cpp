// 3x3 median filter (Kim et al. ISCA 2013 "median", Table 1), the textbook per-pixel median
// (workloads/cuda/median.cu, docs/workloads/median.md): one thread per pixel of a width x height
// grey image (8-bit values, one per word) in 16 x 16 blocks; border pixels keep their value,
// interior pixels take the median of their 3x3 window, sorted by insertion in shared memory.
// The image is a smooth ramp with noise and 10% salt-and-pepper pixels from a fixed-seed LCG.
// CUDA-only.
#include <algorithm>
#include <stdexcept>

#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

constexpr uint32_t kBlock = 16;  // the kernel's BX, BY

class Median : public Workload {
 public:
  explicit Median(const Options& o)
      : width_(option(o, "width", 128, 16, 4096)),
        height_(option(o, "height", 128, 16, 4096)),
        seed_(option(o, "seed", 1, 0, 0xffffffffL)) {
    rejectUnknown(o, {"width", "height", "seed"}, "median");
    if (width_ % kBlock || height_ % kBlock)
      throw std::invalid_argument("options width = " + std::to_string(width_) + ", height = " +
                                  std::to_string(height_) + " must be multiples of 16");
  }
  std::string name() const override { return "median"; }
  std::string description() const override {
    return "3x3 median filter of a " + std::to_string(width_) + " x " + std::to_string(height_) +
           " grey image, insertion sort per pixel, 16 x 16 blocks (CUDA-only)";
  }
  std::vector<CudaKernel> cudaKernels() const override { return {{"median.ptx", "median3x3"}}; }

  isa::LaunchConfig setup(isa::GlobalMemory& mem) const override {
    const uint32_t bytes = static_cast<uint32_t>(width_ * height_ * 4);
    uint32_t in = mem.allocate("in", bytes), out = mem.allocate("out", bytes);
    mem.setWords("in", input());
    isa::LaunchConfig l;
    l.grid = {static_cast<uint32_t>(width_ / kBlock), static_cast<uint32_t>(height_ / kBlock), 1};
    l.block = {kBlock, kBlock, 1};
    l.params = {in, out, static_cast<uint32_t>(width_), static_cast<uint32_t>(height_)};
    return l;
  }

  std::string verify(const isa::GlobalMemory& mem) const override {
    const auto in = input();
    std::vector<uint32_t> want(in);
    for (long y = 1; y < height_ - 1; ++y)
      for (long x = 1; x < width_ - 1; ++x) {
        uint32_t w[9];
        for (int n = 0; n < 9; ++n) w[n] = in[(y + n / 3 - 1) * width_ + x + n % 3 - 1];
        std::nth_element(w, w + 4, w + 9);
        want[y * width_ + x] = w[4];
      }
    return compareWords("out", mem, want);
  }

 private:
  std::vector<uint32_t> input() const {
    uint32_t st = static_cast<uint32_t>(seed_) * 2654435761u + 0x1b873593u;
    auto next = [&] {
      st = st * 1664525u + 1013904223u;  // Numerical Recipes LCG
      return st >> 8;
    };
    std::vector<uint32_t> img(width_ * height_);
    for (long y = 0; y < height_; ++y)
      for (long x = 0; x < width_; ++x) {
        const uint32_t r = next();
        uint32_t v = static_cast<uint32_t>((x + y) * 224 / (width_ + height_)) + r % 32;
        if (r % 100 < 5) v = 0;         // pepper
        else if (r % 100 < 10) v = 255;  // salt
        img[y * width_ + x] = v;
      }
    return img;
  }
  long width_, height_, seed_;
};

}  // namespace

std::unique_ptr<Workload> makeMedian(const Options& o) {
  return std::make_unique<Median>(o);
}

}  // namespace simtlm::workloads
