// DCT8x8, as the CUDA SDK sample dct8x8 (CUDAkernel1DCT): the 2D DCT of every 8x8 tile of a
// float image, 8x8 blocks, shared-memory tiles (workloads/kernels/dct8x8.s). Pixels are
// integers in [-128, 127] (the SDK subtracts 128 from 8-bit pixels) from a fixed-seed LCG.
#include <cmath>
#include <stdexcept>

#include "isa/semantics.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

constexpr long kBlock = 8;

class Dct8x8 : public Workload {
 public:
  explicit Dct8x8(const Options& o)
      : width_(option(o, "width", option(o, "size", 512, 8, 4096), 8, 4096)),
        height_(option(o, "height", width_, 8, 4096)),
        seed_(option(o, "seed", 1, 0, 0xffffffffL)) {
    rejectUnknown(o, {"size", "width", "height", "seed"}, "dct8x8");
    if (width_ % kBlock || height_ % kBlock)
      throw std::invalid_argument("dct8x8: width and height must be multiples of 8 (got " +
                                  std::to_string(width_) + "x" + std::to_string(height_) + ")");
  }
  std::string name() const override { return "dct8x8"; }
  std::string description() const override {
    return "DCT8x8 of a " + std::to_string(width_) + "x" + std::to_string(height_) +
           " image, 8x8 blocks, shared-memory tiles (CUDA SDK CUDAkernel1DCT)";
  }
  std::string kernelFile() const override { return "dct8x8.s"; }
  std::vector<CudaKernel> cudaKernels() const override { return {{"dct8x8.ptx", "dct8x8"}}; }
  std::map<std::string, std::string> constantBuffers() const override { return {{"c_DCTv8matrix", "dct"}}; }

  isa::LaunchConfig setup(isa::GlobalMemory& mem) const override {
    uint32_t bytes = static_cast<uint32_t>(width_ * height_ * 4);
    uint32_t src = mem.allocate("src", bytes);
    uint32_t dst = mem.allocate("dst", bytes);
    uint32_t dct = mem.allocate("dct", 64 * 4);
    uint32_t s = static_cast<uint32_t>(seed_);
    fillWords(mem, "src", [&](size_t) { return pixel(s); });
    mem.setWords("dct", matrix());
    isa::LaunchConfig l;
    l.grid = {static_cast<uint32_t>(width_ / kBlock), static_cast<uint32_t>(height_ / kBlock), 1};
    l.block = {kBlock, kBlock, 1};
    l.params = {src, dst, dct, static_cast<uint32_t>(width_)};
    return l;
  }

  // Per tile: T = C * A (T[y][x] = sum_i M[i*8+y] * A[i][x]), then D = T * C^T
  // (D[y][x] = sum_i T[y][i] * M[i*8+x]), each sum a chain of fused multiply-adds from 0 in
  // the kernel's order, i = 0..7, so the comparison is bit-exact.
  std::string verify(const isa::GlobalMemory& mem) const override {
    auto m = matrix();
    WordComparison dst("dst", mem, width_ * height_);  // band by band: no copy of the whole image
    std::vector<uint32_t> want(kBlock * width_), band(kBlock * width_);
    uint32_t seed = static_cast<uint32_t>(seed_);
    for (long by = 0; by < height_; by += kBlock) {
      for (auto& p : band) p = pixel(seed);  // the image 8 rows at a time
      for (long bx = 0; bx < width_; bx += kBlock) {
        float a[8][8], t[8][8];
        for (int y = 0; y < 8; ++y)
          for (int x = 0; x < 8; ++x) a[y][x] = isa::F(band[y * width_ + bx + x]);
        for (int y = 0; y < 8; ++y)
          for (int x = 0; x < 8; ++x) {
            float acc = 0.0f;
            for (int i = 0; i < 8; ++i) acc = std::fma(isa::F(m[i * 8 + y]), a[i][x], acc);
            t[y][x] = acc;
          }
        for (int y = 0; y < 8; ++y)
          for (int x = 0; x < 8; ++x) {
            float acc = 0.0f;
            for (int i = 0; i < 8; ++i) acc = std::fma(t[y][i], isa::F(m[i * 8 + x]), acc);
            want[y * width_ + bx + x] = isa::U(acc);
          }
      }
      dst.check(by * width_, want);
    }
    return dst.report();
  }

 private:
  // The image's next pixel in row-major order from the LCG state `s` (never the whole image
  // in a vector: it is as large as the buffers).
  static uint32_t pixel(uint32_t& s) {
    s = s * 1664525u + 1013904223u;  // Numerical Recipes LCG
    return isa::U(static_cast<float>(static_cast<int>(s >> 24) - 128));
  }
  // DCTv8matrix[n*8+k] = c(k) cos((2n+1) k pi / 16), c(0) = sqrt(1/8), c(k>0) = sqrt(2/8): the
  // SDK's constant table (computed in double, rounded once; kernel and reference read the
  // same buffer, so the comparison does not depend on the host's cos).
  static std::vector<uint32_t> matrix() {
    std::vector<uint32_t> v(64);
    const double pi = 3.14159265358979323846;
    for (int n = 0; n < 8; ++n)
      for (int k = 0; k < 8; ++k) {
        double c = k == 0 ? std::sqrt(1.0 / 8.0) : std::sqrt(2.0 / 8.0);
        v[n * 8 + k] = isa::U(static_cast<float>(c * std::cos((2 * n + 1) * k * pi / 16.0)));
      }
    return v;
  }
  long width_, height_, seed_;
};

}  // namespace

std::unique_ptr<Workload> makeDct8x8(const Options& o) { return std::make_unique<Dct8x8>(o); }

}  // namespace simtlm::workloads
