// SRAD v1, as the `srad` kernel of Rodinia srad_v1 (NUMBER_THREADS 512): directional
// derivatives and the saturated diffusion coefficient of a column-major rows x cols image, one
// launch. The image is a fixed-seed LCG speckle pattern I = 1 + p/256 (p in 0..255, exact in
// float, standing in for Rodinia's exp(pixel/255)); q0sqr comes from the whole image's mean and
// variance as Rodinia's host computes it from its reduction (here in double on the host).
#include <cmath>
#include <cstdint>

#include "isa/semantics.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

constexpr long kThreads = 512;
constexpr float kLambda = 0.5f;  // Rodinia's run script; used by srad2, not by this kernel

class Srad : public Workload {
 public:
  explicit Srad(const Options& o)
      : rows_(option(o, "rows", 502, 2, 4096)), cols_(option(o, "cols", 458, 2, 4096)) {
    rejectUnknown(o, {"rows", "cols"}, "srad");
  }
  std::string name() const override { return "srad"; }
  std::string description() const override {
    return "SRAD v1 diffusion coefficient of a " + std::to_string(rows_) + "x" + std::to_string(cols_) +
           " image, 1D blocks of 512";
  }
  std::string kernelFile() const override { return "srad.s"; }
  std::vector<CudaKernel> cudaKernels() const override { return {{"srad.ptx", "srad"}}; }

  isa::LaunchConfig setup(isa::GlobalMemory& mem) const override {
    const long ne = rows_ * cols_;
    const uint32_t bytes = static_cast<uint32_t>(ne * 4);
    uint32_t in = mem.allocate("iN", static_cast<uint32_t>(rows_ * 4));
    uint32_t is = mem.allocate("iS", static_cast<uint32_t>(rows_ * 4));
    uint32_t je = mem.allocate("jE", static_cast<uint32_t>(cols_ * 4));
    uint32_t jw = mem.allocate("jW", static_cast<uint32_t>(cols_ * 4));
    uint32_t dn = mem.allocate("dN", bytes), ds = mem.allocate("dS", bytes);
    uint32_t de = mem.allocate("dE", bytes), dw = mem.allocate("dW", bytes);
    uint32_t c = mem.allocate("c", bytes), img = mem.allocate("I", bytes);
    // Rodinia's neighbour tables: iN[i] = i-1, iS[i] = i+1, jW[j] = j-1, jE[j] = j+1, clamped.
    std::vector<uint32_t> n(rows_), s(rows_), e(cols_), w(cols_);
    for (long i = 0; i < rows_; ++i) {
      n[i] = static_cast<uint32_t>(i == 0 ? 0 : i - 1);
      s[i] = static_cast<uint32_t>(i == rows_ - 1 ? rows_ - 1 : i + 1);
    }
    for (long j = 0; j < cols_; ++j) {
      w[j] = static_cast<uint32_t>(j == 0 ? 0 : j - 1);
      e[j] = static_cast<uint32_t>(j == cols_ - 1 ? cols_ - 1 : j + 1);
    }
    mem.setWords("iN", n);
    mem.setWords("iS", s);
    mem.setWords("jE", e);
    mem.setWords("jW", w);
    mem.setWords("I", image());
    isa::LaunchConfig l;
    l.grid = {static_cast<uint32_t>((ne + kThreads - 1) / kThreads), 1, 1};
    l.block = {kThreads, 1, 1};
    l.params = {isa::U(kLambda), static_cast<uint32_t>(rows_), static_cast<uint32_t>(cols_),
                static_cast<uint32_t>(ne), in, is, je, jw, dn, ds, de, dw, isa::U(q0sqr()), c, img};
    return l;
  }

  // The kernel's float operations in its order, element by element (column-major).
  std::string verify(const isa::GlobalMemory& mem) const override {
    const auto iw = image();
    auto I = [&](long r, long c) { return isa::F(iw[c * rows_ + r]); };
    const float q0 = q0sqr();
    const long ne = rows_ * cols_;
    // Column by column: no expected buffer as large as the outputs beside them (peak memory).
    const char* names[] = {"dN", "dS", "dW", "dE", "c"};
    std::vector<WordComparison> out;
    for (const char* name : names) out.emplace_back(name, mem, ne);
    std::vector<uint32_t> wn(rows_), ws(rows_), ww(rows_), we(rows_), wc(rows_);
    for (long col = 0; col < cols_; ++col) {
      for (long row = 0; row < rows_; ++row) {
        const float jc = I(row, col);
        const float dN = I(row == 0 ? 0 : row - 1, col) - jc;
        const float dS = I(row == rows_ - 1 ? row : row + 1, col) - jc;
        const float dW = I(row, col == 0 ? 0 : col - 1) - jc;
        const float dE = I(row, col == cols_ - 1 ? col : col + 1) - jc;
        float g2 = dN * dN;
        g2 = std::fma(dS, dS, g2);
        g2 = std::fma(dW, dW, g2);
        g2 = std::fma(dE, dE, g2);
        g2 = g2 / (jc * jc);
        const float l = (((dN + dS) + dW) + dE) / jc;
        const float l16 = (l * l) * 0.0625f;
        const float num = g2 * 0.5f - l16;
        float den = std::fma(l, 0.25f, 1.0f);
        const float qsqr = num / (den * den);
        den = (qsqr - q0) / (q0 * (q0 + 1.0f));
        float c = 1.0f / (den + 1.0f);
        if (c < 0.0f)
          c = 0.0f;
        else if (c > 1.0f)
          c = 1.0f;
        wn[row] = isa::U(dN);
        ws[row] = isa::U(dS);
        ww[row] = isa::U(dW);
        we[row] = isa::U(dE);
        wc[row] = isa::U(c);
      }
      const std::vector<uint32_t>* want[] = {&wn, &ws, &ww, &we, &wc};
      for (size_t b = 0; b < out.size(); ++b) out[b].check(col * rows_, *want[b]);
    }
    std::string r;
    for (const auto& o : out) r += o.report();
    return r;
  }

 private:
  std::vector<uint32_t> image() const {
    std::vector<uint32_t> v(rows_ * cols_);
    uint32_t x = 2024u;  // LCG (Numerical Recipes constants)
    for (auto& word : v) {
      x = x * 1664525u + 1013904223u;
      word = isa::U(1.0f + static_cast<float>((x >> 16) & 255u) / 256.0f);
    }
    return v;
  }
  // q0sqr = var / mean^2 over the whole image (Rodinia: the ROI is the whole image).
  float q0sqr() const {
    double sum = 0, sum2 = 0;
    for (uint32_t w : image()) {
      const double v = isa::F(w);
      sum += v;
      sum2 += v * v;
    }
    const double ne = static_cast<double>(rows_ * cols_);
    const double mean = sum / ne, var = sum2 / ne - mean * mean;
    return static_cast<float>(var / (mean * mean));
  }
  long rows_, cols_;
};

}  // namespace

std::unique_ptr<Workload> makeSrad(const Options& o) { return std::make_unique<Srad>(o); }

}  // namespace simtlm::workloads
