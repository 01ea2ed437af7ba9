// Separable convolution, as the CUDA SDK sample convolutionTexture: two launches, the row pass
// (convolutionRowsKernel, src -> tmp) then the column pass (convolutionColumnsKernel,
// tmp -> dst), 17-tap filter (KERNEL_RADIUS 8), one thread per pixel, 16x16 blocks
// (workloads/kernels/convsep_rows.s, convsep_cols.s, docs/workloads/convsep.md). The filter
// taps are (float)(rand() % 16) as the sample's host code; the image is fractional (24-bit
// values in [0, 1)) rather than the sample's rand() % 16, so that the sums round and the
// bit-exact check depends on the order of the taps.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "isa/semantics.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

constexpr long kBlock = 16;
constexpr int kRadius = 8, kTaps = 2 * kRadius + 1;  // KERNEL_RADIUS, KERNEL_LENGTH

class ConvSep : public Workload {
 public:
  explicit ConvSep(const Options& o)
      : w_(option(o, "width", 256, kBlock, 4096)),
        h_(option(o, "height", 256, kBlock, 4096)),
        seed_(option(o, "seed", 1, 0, 0xffffffffL)) {
    rejectUnknown(o, {"width", "height", "seed"}, "convsep");
    if (w_ % kBlock || h_ % kBlock) throw std::invalid_argument("convsep: width and height must be multiples of 16");
  }
  std::string name() const override { return "convsep"; }
  std::string description() const override {
    return "separable convolution (CUDA SDK convolutionTexture) of a " + std::to_string(w_) + "x" +
           std::to_string(h_) + " float image, 17 taps, rows then columns, 16x16 blocks";
  }
  std::string kernelFile() const override { return "convsep_rows.s"; }
  std::vector<std::string> kernelFiles() const override { return {"convsep_rows.s", "convsep_cols.s"}; }
  std::vector<CudaKernel> cudaKernels() const override {
    return {{"convsep.ptx", "convsep_rows"}, {"convsep.ptx", "convsep_cols"}};
  }
  std::map<std::string, std::string> constantBuffers() const override {
    return {{"c_Kernel", "kernel"}};
  }

  // The row pass: src -> tmp.
  isa::LaunchConfig setup(isa::GlobalMemory& mem) const override {
    const uint32_t bytes = static_cast<uint32_t>(w_ * h_ * 4);
    mem.allocate("dst", bytes);  // the column pass's output
    const uint32_t tmp = mem.allocate("tmp", bytes);
    const uint32_t src = mem.allocate("src", bytes);
    const uint32_t kernel = mem.allocate("kernel", kTaps * 4);
    std::vector<uint32_t> image, taps;
    inputs(image, taps);
    mem.setWords("src", image);
    mem.setWords("kernel", taps);
    isa::LaunchConfig l;
    l.grid = {static_cast<uint32_t>(w_ / kBlock), static_cast<uint32_t>(h_ / kBlock), 1};
    l.block = {kBlock, kBlock, 1};
    l.params = {tmp, static_cast<uint32_t>(w_), static_cast<uint32_t>(h_), src, kernel};
    return l;
  }

  // The column pass, with the same grid: tmp -> dst.
  std::vector<Step> launches(isa::GlobalMemory& mem) const override {
    const isa::LaunchConfig rows = setup(mem);
    isa::LaunchConfig cols = rows;
    cols.params = {mem.region("dst").base, rows.params[1], rows.params[2], rows.params[0], rows.params[4]};
    return {Step{0, rows}, Step{1, cols}};
  }

  // Both passes with the kernels' fma chain: c_Kernel[0] at offset +8 first, c_Kernel[16] at -8
  // last; coordinates clamped to the image. Checks the intermediate and the result.
  std::string verify(const isa::GlobalMemory& mem) const override {
    std::vector<uint32_t> image, taps;
    inputs(image, taps);
    std::vector<float> src(image.size()), tmp(image.size()), c(kTaps);
    for (size_t i = 0; i < image.size(); ++i) src[i] = isa::F(image[i]);
    for (int i = 0; i < kTaps; ++i) c[i] = isa::F(taps[i]);
    std::vector<uint32_t> wantTmp(image.size()), wantDst(image.size());
    for (long y = 0; y < h_; ++y)
      for (long x = 0; x < w_; ++x) {
        float sum = 0;
        for (int i = 0; i < kTaps; ++i)
          sum = std::fma(src[y * w_ + std::clamp(x + kRadius - i, 0L, w_ - 1)], c[i], sum);
        tmp[y * w_ + x] = sum;
        wantTmp[y * w_ + x] = isa::U(sum);
      }
    for (long y = 0; y < h_; ++y)
      for (long x = 0; x < w_; ++x) {
        float sum = 0;
        for (int i = 0; i < kTaps; ++i)
          sum = std::fma(tmp[std::clamp(y + kRadius - i, 0L, h_ - 1) * w_ + x], c[i], sum);
        wantDst[y * w_ + x] = isa::U(sum);
      }
    return compareWords("tmp", mem, wantTmp) + compareWords("dst", mem, wantDst);
  }

 private:
  void inputs(std::vector<uint32_t>& image, std::vector<uint32_t>& taps) const {
    uint32_t s = static_cast<uint32_t>(seed_);
    auto next = [&s] { return (s = s * 1664525u + 1013904223u) >> 8; };  // 24-bit LCG output
    taps.resize(kTaps);
    for (auto& t : taps) t = isa::U(static_cast<float>(next() % 16));  // (float)(rand() % 16)
    image.resize(w_ * h_);
    for (auto& v : image) v = isa::U(static_cast<float>(next()) * (1.0f / 16777216.0f));
  }
  long w_, h_, seed_;
};

}  // namespace

std::unique_ptr<Workload> makeConvSep(const Options& o) { return std::make_unique<ConvSep>(o); }

}  // namespace simtlm::workloads
