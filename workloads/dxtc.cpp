// DXT1 texture compression (the UV paper's "DT", Table 3), after the CUDA SDK sample dxtc
// (workloads/cuda/dxtc.cu, docs/workloads/dxtc.md): a `width` x `height` RGBA8 image, one block
// of 64 threads per 4x4 pixel block, each thread evaluating 16 of 1024 cluster orderings. The
// ordering table holds every split of the 16 ranked colours into four consecutive clusters
// except the four single-cluster ones (965), padded to 1024 with copies of the first. The image
// is a smooth gradient with LCG noise (fixed seed). CUDA-only.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "isa/semantics.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

constexpr int kThreads = 64, kPerms = 1024;

// The kernel's float steps, each rounded as its intrinsic (no contraction: ISO C++ here).
float dot3(float ax, float ay, float az, float bx, float by, float bz) {
  return ax * bx + ay * by + az * bz;
}
int quantize(float& v, float levels, int bits) {
  int q = static_cast<int>(isa::cvtS32(std::nearbyint(v * levels)));  // __float2int_rn
  q = std::min(std::max(q, 0), static_cast<int>(levels));
  v = static_cast<float>((q << (8 - bits)) | (q >> (2 * bits - 8))) * (1.0f / 255.0f);
  return q;
}
float channelError(float a, float b, float a2, float b2, float ab, float ax, float bx) {
  const float quad = a * a * a2 + b * b * b2;
  const float lin = a * b * ab - a * ax - b * bx;
  return quad + 2.0f * lin;
}

class Dxtc : public Workload {
 public:
  explicit Dxtc(const Options& o)
      : width_(option(o, "width", 64, 4, 4096)),
        height_(option(o, "height", 64, 4, 4096)),
        seed_(option(o, "seed", 1, 0, 0xffffffffL)) {
    rejectUnknown(o, {"width", "height", "seed"}, "dxtc");
    if (width_ % 4 || height_ % 4)
      throw std::invalid_argument("options width, height = " + std::to_string(width_) + ", " +
                                  std::to_string(height_) + " are not multiples of 4");
  }
  std::string name() const override { return "dxtc"; }
  std::string description() const override {
    return "DXT1 compression of a " + std::to_string(width_) + " x " + std::to_string(height_) +
           " image, 64 threads per 4x4 block (CUDA SDK dxtc; CUDA-only)";
  }
  std::vector<CudaKernel> cudaKernels() const override { return {{"dxtc.ptx", "compress"}}; }

  isa::LaunchConfig setup(isa::GlobalMemory& mem) const override {
    uint32_t perms = mem.allocate("permutations", kPerms * 4);
    uint32_t image = mem.allocate("image", static_cast<uint32_t>(width_ * height_ * 4));
    uint32_t result = mem.allocate("result", static_cast<uint32_t>(width_ / 4 * height_ / 4 * 8));
    mem.setWords("permutations", permutations());
    mem.setWords("image", pixels());
    isa::LaunchConfig l;
    l.grid = {static_cast<uint32_t>(width_ / 4), static_cast<uint32_t>(height_ / 4), 1};
    l.block = {kThreads, 1, 1};
    l.params = {perms, image, result};
    return l;
  }

  std::string verify(const isa::GlobalMemory& mem) const override {
    const auto perms = permutations();
    const auto img = pixels();
    std::vector<uint32_t> want;
    for (long by = 0; by < height_ / 4; ++by)
      for (long bx = 0; bx < width_ / 4; ++bx) {
        const auto w = compressBlock(perms, img, bx, by);
        want.push_back(w.first);
        want.push_back(w.second);
      }
    return compareWords("result", mem, want);
  }

 private:
  // The kernel's steps for block (bx, by), in its order; sums as its trees add them.
  std::pair<uint32_t, uint32_t> compressBlock(const std::vector<uint32_t>& perms,
                                              const std::vector<uint32_t>& img, long bx,
                                              long by) const {
    float col[3][16];
    for (int i = 0; i < 16; ++i) {
      const uint32_t c = img[(by * 4 + (i >> 2)) * width_ + bx * 4 + (i & 3)];
      for (int k = 0; k < 3; ++k)
        col[k][i] = static_cast<float>((c >> (8 * k)) & 0xff) * (1.0f / 255.0f);
    }
    auto sum16 = [](float v[16]) {
      float s[16];
      std::copy(v, v + 16, s);
      for (int n = 8; n > 0; n >>= 1)
        for (int i = 0; i < n; ++i) s[i] = s[i] + s[i + n];
      return s[0];
    };
    const float sr = sum16(col[0]), sg = sum16(col[1]), sb = sum16(col[2]);
    float cov[6][16];
    for (int i = 0; i < 16; ++i) {
      const float dr = col[0][i] - sr * 0.0625f, dg = col[1][i] - sg * 0.0625f,
                  db = col[2][i] - sb * 0.0625f;
      const float terms[6] = {dr * dr, dr * dg, dr * db, dg * dg, dg * db, db * db};
      for (int k = 0; k < 6; ++k) cov[k][i] = terms[k];
    }
    float m[6];
    for (int k = 0; k < 6; ++k) m[k] = sum16(cov[k]);
    float vx = 1.0f, vy = 1.0f, vz = 1.0f;
    for (int it = 0; it < 8; ++it) {
      const float x = dot3(vx, vy, vz, m[0], m[1], m[2]);
      const float y = dot3(vx, vy, vz, m[1], m[3], m[4]);
      const float z = dot3(vx, vy, vz, m[2], m[4], m[5]);
      const float mx = isa::F(isa::maxF32(isa::U(x), isa::maxF32(isa::U(y), isa::U(z))));
      if (mx > 0.0f) {
        const float iv = 1.0f / mx;
        vx = x * iv;
        vy = y * iv;
        vz = z * iv;
      }
    }
    float dps[16], sorted[3][16];
    int xref[16];
    for (int i = 0; i < 16; ++i) dps[i] = dot3(col[0][i], col[1][i], col[2][i], vx, vy, vz);
    for (int i = 0; i < 16; ++i) {
      int rank = 0;
      for (int j = 0; j < 16; ++j) rank += (dps[j] < dps[i] || (dps[j] == dps[i] && j < i)) ? 1 : 0;
      xref[i] = rank;
      for (int k = 0; k < 3; ++k) sorted[k][rank] = col[k][i];
    }
    // Each thread's best, then the lowest (error, thread).
    float blockErr = 0.0f;
    uint32_t blockStart = 0, blockEnd = 0, blockPerm = 0;
    for (int t = 0; t < kThreads; ++t) {
      float bestErr = 3.0e38f;
      uint32_t bestStart = 0, bestEnd = 0, bestPerm = 0;
      for (int p = 0; p < kPerms / kThreads; ++p) {
        const uint32_t perm = perms[t + kThreads * p];
        float a2 = 0, b2 = 0, ab = 0, ax[3] = {0, 0, 0}, bxs[3];
        for (int k = 0; k < 16; ++k) {
          const float beta = static_cast<float>((perm >> (2 * k)) & 3) * (1.0f / 3.0f),
                      alpha = 1.0f - beta;
          a2 = a2 + alpha * alpha;
          b2 = b2 + beta * beta;
          ab = ab + alpha * beta;
          for (int c = 0; c < 3; ++c) ax[c] = ax[c] + alpha * sorted[c][k];
        }
        const float sums[3] = {sr, sg, sb};
        for (int c = 0; c < 3; ++c) bxs[c] = sums[c] - ax[c];
        const float factor = 1.0f / (a2 * b2 - ab * ab);
        float a[3], b[3];
        for (int c = 0; c < 3; ++c) {
          a[c] = (ax[c] * b2 - bxs[c] * ab) * factor;
          b[c] = (bxs[c] * a2 - ax[c] * ab) * factor;
        }
        const uint32_t start = (quantize(a[0], 31.0f, 5) << 11) | (quantize(a[1], 63.0f, 6) << 5) |
                               quantize(a[2], 31.0f, 5);
        const uint32_t end = (quantize(b[0], 31.0f, 5) << 11) | (quantize(b[1], 63.0f, 6) << 5) |
                             quantize(b[2], 31.0f, 5);
        const float err = channelError(a[0], b[0], a2, b2, ab, ax[0], bxs[0]) +
                          channelError(a[1], b[1], a2, b2, ab, ax[1], bxs[1]) +
                          channelError(a[2], b[2], a2, b2, ab, ax[2], bxs[2]);
        if (err < bestErr) {
          bestErr = err;
          bestStart = start;
          bestEnd = end;
          bestPerm = perm;
        }
      }
      if (t == 0 || bestErr < blockErr) {
        blockErr = bestErr;
        blockStart = bestStart;
        blockEnd = bestEnd;
        blockPerm = bestPerm;
      }
    }
    uint32_t start = blockStart, end = blockEnd, perm = blockPerm;
    if (start < end) {
      std::swap(start, end);
      perm = ~perm;
    }
    uint32_t indices = 0;
    for (int i = 0; i < 16; ++i)
      indices |= ((0x78u >> (2 * ((perm >> (2 * xref[i])) & 3))) & 3) << (2 * i);
    return {start | (end << 16), indices};
  }

  // Every split of 16 ranked colours into clusters 0..3 of sizes n0..n3 (n0 + ... + n3 = 16),
  // without the four that put all colours in one cluster, padded with the first.
  static std::vector<uint32_t> permutations() {
    std::vector<uint32_t> out;
    for (int n0 = 0; n0 <= 16; ++n0)
      for (int n1 = 0; n0 + n1 <= 16; ++n1)
        for (int n2 = 0; n0 + n1 + n2 <= 16; ++n2) {
          const int n3 = 16 - n0 - n1 - n2;
          if (n0 == 16 || n1 == 16 || n2 == 16 || n3 == 16) continue;
          uint32_t p = 0;
          for (int k = 0; k < 16; ++k)
            p |= static_cast<uint32_t>(k < n0             ? 0
                                       : k < n0 + n1      ? 1
                                       : k < n0 + n1 + n2 ? 2
                                                          : 3)
                 << (2 * k);
          out.push_back(p);
        }
    while (out.size() < static_cast<size_t>(kPerms)) out.push_back(out[0]);
    return out;
  }
  // RGBA8: a diagonal colour gradient plus up to +-24 of LCG noise per channel.
  std::vector<uint32_t> pixels() const {
    uint32_t st = static_cast<uint32_t>(seed_);
    std::vector<uint32_t> v(width_ * height_);
    for (long y = 0; y < height_; ++y)
      for (long x = 0; x < width_; ++x) {
        uint32_t px = 0xff000000u;
        const long base[3] = {x * 255 / width_, y * 255 / height_,
                              (x + y) * 127 / (width_ + height_) + 64};
        for (int c = 0; c < 3; ++c) {
          st = st * 1664525u + 1013904223u;  // Numerical Recipes LCG
          const long val =
              std::min(255L, std::max(0L, base[c] + static_cast<long>(st >> 24) % 49 - 24));
          px |= static_cast<uint32_t>(val) << (8 * c);
        }
        v[y * width_ + x] = px;
      }
    return v;
  }
  long width_, height_, seed_;
};

}  // namespace

std::unique_ptr<Workload> makeDxtc(const Options& o) {
  return std::make_unique<Dxtc>(o);
}

}  // namespace simtlm::workloads
