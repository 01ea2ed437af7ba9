// Fast Fourier Transform (the UV paper's "FFT", Table 3: 128 x 128), a radix-2 shared-memory
// FFT (workloads/cuda/fft.cu, docs/workloads/fft.md): forward 2D complex FFTs of `images`
// `size` x `size` images, all rows, then all columns (two launches of one kernel, in place).
// Blocks hold max(1, 512 / size) lines of size / 2 threads (256 threads up to size 512). The
// twiddles W_N^k = exp(-2 pi i k / N), k < N / 2, are computed on the host in double and
// rounded to float; the input is uniform in [-1, 1) from a fixed-seed LCG. CUDA-only.
#include <cmath>
#include <stdexcept>

#include "isa/semantics.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

class Fft : public Workload {
 public:
  explicit Fft(const Options& o)
      : size_(option(o, "size", 128, 32, 1024)),
        images_(option(o, "images", 2, 1, 1024)),
        seed_(option(o, "seed", 1, 0, 0xffffffffL)) {
    rejectUnknown(o, {"size", "images", "seed"}, "fft");
    if (size_ & (size_ - 1))
      throw std::invalid_argument("option size = " + std::to_string(size_) +
                                  " is not a power of two");
    if (images_ * size_ * size_ > (1L << 22))
      throw std::invalid_argument(
          "options images x size^2 = " + std::to_string(images_ * size_ * size_) +
          " exceed 4M complex values");
    while ((1L << log2n_) < size_) ++log2n_;
  }
  std::string name() const override { return "fft"; }
  std::string description() const override {
    return "2D complex FFT, " + std::to_string(images_) + (images_ == 1 ? " image" : " images") +
           " of " + std::to_string(size_) + " x " + std::to_string(size_) +
           ", radix 2 in shared memory, rows then columns (CUDA-only)";
  }
  std::vector<CudaKernel> cudaKernels() const override { return {{"fft.ptx", "fft_radix2"}}; }

  isa::LaunchConfig setup(isa::GlobalMemory& mem) const override {
    uint32_t data = mem.allocate("data", static_cast<uint32_t>(images_ * size_ * size_ * 8));
    uint32_t tw = mem.allocate("twiddle", static_cast<uint32_t>(size_ / 2 * 8));
    mem.setWords("data", input());
    mem.setWords("twiddle", twiddles());
    const long lines = std::max(1L, 512 / size_);
    isa::LaunchConfig l;
    l.grid = {static_cast<uint32_t>(images_ * size_ / lines), 1, 1};
    l.block = {static_cast<uint32_t>(size_ / 2), static_cast<uint32_t>(lines), 1};
    l.params = {data, tw, static_cast<uint32_t>(log2n_), static_cast<uint32_t>(size_), 1};  // rows
    return l;
  }
  std::vector<Step> launches(isa::GlobalMemory& mem) const override {
    Step rows{0, setup(mem)}, cols = rows;
    cols.launch.params[3] = 1;
    cols.launch.params[4] = static_cast<uint32_t>(size_);
    return {rows, cols};
  }

  std::string verify(const isa::GlobalMemory& mem) const override {
    auto d = input();
    const auto tw = twiddles();
    const long n = size_;
    std::vector<float> re(n), im(n);
    for (int pass = 0; pass < 2; ++pass)
      for (long line = 0; line < images_ * n; ++line) {
        const long lineStride = pass == 0 ? n : 1, elemStride = pass == 0 ? 1 : n;
        const long base = (line / n) * n * n + (line % n) * lineStride;
        for (long k = 0; k < n; ++k) {
          long r = 0;
          for (int b = 0; b < log2n_; ++b) r |= ((k >> b) & 1) << (log2n_ - 1 - b);
          re[r] = isa::F(d[2 * (base + k * elemStride)]);
          im[r] = isa::F(d[2 * (base + k * elemStride) + 1]);
        }
        for (int s = 0; s < log2n_; ++s) {
          const long half = 1L << s;
          for (long t = 0; t < n / 2; ++t) {
            const long pos = t & (half - 1), i0 = ((t - pos) << 1) + pos, i1 = i0 + half;
            const float wr = isa::F(tw[2 * (pos << (log2n_ - 1 - s))]),
                        wi = isa::F(tw[2 * (pos << (log2n_ - 1 - s)) + 1]);
            const float tr = wr * re[i1] - wi * im[i1], ti = wr * im[i1] + wi * re[i1];
            const float ar = re[i0], ai = im[i0];
            re[i0] = ar + tr;
            im[i0] = ai + ti;
            re[i1] = ar - tr;
            im[i1] = ai - ti;
          }
        }
        for (long k = 0; k < n; ++k) {
          d[2 * (base + k * elemStride)] = isa::U(re[k]);
          d[2 * (base + k * elemStride) + 1] = isa::U(im[k]);
        }
      }
    return compareWords("data", mem, d);
  }

 private:
  std::vector<uint32_t> input() const {
    uint32_t st = static_cast<uint32_t>(seed_);
    std::vector<uint32_t> v(images_ * size_ * size_ * 2);
    for (auto& w : v) {
      st = st * 1664525u + 1013904223u;  // Numerical Recipes LCG
      w = isa::U(static_cast<float>(st >> 8) * (2.0f / 16777216.0f) - 1.0f);
    }
    return v;
  }
  std::vector<uint32_t> twiddles() const {
    std::vector<uint32_t> v;
    for (long k = 0; k < size_ / 2; ++k) {
      const double a = -2.0 * M_PI * static_cast<double>(k) / static_cast<double>(size_);
      v.push_back(isa::U(static_cast<float>(std::cos(a))));
      v.push_back(isa::U(static_cast<float>(std::sin(a))));
    }
    return v;
  }
  long size_, images_, seed_;
  int log2n_ = 0;
};

}  // namespace

std::unique_ptr<Workload> makeFft(const Options& o) {
  return std::make_unique<Fft>(o);
}

}  // namespace simtlm::workloads
