// Non-local means denoising, as the CUDA SDK sample imageDenoising (kernel NLM, 7x7 window of
// 7x7 patches), on a single-channel float image with 16x16 blocks, one thread per pixel
// (workloads/kernels/nlm.s, docs/workloads/nlm.md). Noise = 1 / 1.45^2 and lerpC = 0.2 as the
// sample's host code. The input is a normalized 8-bit image (k / 255) from a fixed-seed LCG:
// 8x8 tiles alternate between a flat, lightly noisy grey and full-range noise, so both lerp
// directions occur.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "isa/semantics.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

constexpr long kBlock = 16;
constexpr int kWindow = 3, kPatch = 3;  // NLM_WINDOW_RADIUS, NLM_BLOCK_RADIUS
const float kInvArea = 1.0f / 49.0f;    // INV_NLM_WINDOW_AREA
const float kThreshold = 0.10f;         // NLM_WEIGHT_THRESHOLD, NLM_LERP_THRESHOLD
const float kNegLog2e = -1.4426950408889634f;
const float kNoise = 1.0f / (1.45f * 1.45f), kLerpC = 0.2f;

class Nlm : public Workload {
 public:
  explicit Nlm(const Options& o)
      : w_(option(o, "width", 128, kBlock, 4096)),
        h_(option(o, "height", 112, kBlock, 4096)),
        seed_(option(o, "seed", 1, 0, 0xffffffffL)) {
    rejectUnknown(o, {"width", "height", "seed"}, "nlm");
    if (w_ % kBlock || h_ % kBlock) throw std::invalid_argument("nlm: width and height must be multiples of 16");
  }
  std::string name() const override { return "nlm"; }
  std::string description() const override {
    return "non-local means denoising (CUDA SDK imageDenoising NLM) of a " + std::to_string(w_) + "x" +
           std::to_string(h_) + " float image, 7x7 window of 7x7 patches, 16x16 blocks";
  }
  std::string kernelFile() const override { return "nlm.s"; }
  std::vector<CudaKernel> cudaKernels() const override { return {{"nlm.ptx", "nlm"}}; }

  isa::LaunchConfig setup(isa::GlobalMemory& mem) const override {
    const uint32_t bytes = static_cast<uint32_t>(w_ * h_ * 4);
    uint32_t dst = mem.allocate("dst", bytes);
    uint32_t src = mem.allocate("src", bytes);
    mem.setWords("src", input());
    isa::LaunchConfig l;
    l.grid = {static_cast<uint32_t>(w_ / kBlock), static_cast<uint32_t>(h_ / kBlock), 1};
    l.block = {kBlock, kBlock, 1};
    l.params = {dst, static_cast<uint32_t>(w_), static_cast<uint32_t>(h_), isa::U(kNoise), isa::U(kLerpC), src};
    return l;
  }

  // The kernel's float operations per pixel in its order; ex2 as the interpreter computes it.
  std::string verify(const isa::GlobalMemory& mem) const override {
    const auto in = input();
    auto tex = [&](long x, long y) {  // clamp addressing
      x = std::clamp(x, 0L, w_ - 1);
      y = std::clamp(y, 0L, h_ - 1);
      return isa::F(in[y * w_ + x]);
    };
    std::vector<uint32_t> want(in.size());
    for (long iy = 0; iy < h_; ++iy)
      for (long ix = 0; ix < w_; ++ix) {
        float fCount = 0, sumWeights = 0, clr = 0;
        for (int i = -kWindow; i <= kWindow; ++i) {
          const float ii = static_cast<float>(i) * static_cast<float>(i);
          for (int j = -kWindow; j <= kWindow; ++j) {
            float weight = 0;
            for (int n = -kPatch; n <= kPatch; ++n)
              for (int m = -kPatch; m <= kPatch; ++m) {
                const float d = tex(ix + m, iy + n) - tex(ix + j + m, iy + i + n);
                weight = std::fma(d, d, weight);
              }
            const float fj = static_cast<float>(j);
            float arg = std::fma(fj, fj, ii) * kInvArea;
            arg = std::fma(weight, kNoise, arg) * kNegLog2e;
            weight = isa::F(isa::evalLane(isa::Op::EX2_F32, isa::U(arg), 0, 0));
            clr = std::fma(tex(ix + j, iy + i), weight, clr);
            sumWeights += weight;
            if (weight > kThreshold) fCount += kInvArea;
          }
        }
        sumWeights = 1.0f / sumWeights;
        clr *= sumWeights;
        const float lerpQ = fCount > kThreshold ? kLerpC : -kLerpC + 1.0f;
        clr = std::fma(tex(ix, iy) - clr, lerpQ, clr);
        want[iy * w_ + ix] = isa::U(clr);
      }
    return compareWords("dst", mem, want);
  }

 private:
  std::vector<uint32_t> input() const {
    std::vector<uint32_t> v(w_ * h_);
    uint32_t s = static_cast<uint32_t>(seed_);
    for (long y = 0; y < h_; ++y)
      for (long x = 0; x < w_; ++x) {
        s = s * 1664525u + 1013904223u;  // Numerical Recipes LCG
        const uint32_t r = s >> 24;
        const bool flat = ((x / 8) + (y / 8)) % 2 == 0;
        const uint32_t k = flat ? 96 + r % 16 : r;  // an 8-bit texel
        v[y * w_ + x] = isa::U(static_cast<float>(k) / 255.0f);
      }
    return v;
  }
  long w_, h_, seed_;
};

}  // namespace

std::unique_ptr<Workload> makeNlm(const Options& o) { return std::make_unique<Nlm>(o); }

}  // namespace simtlm::workloads
