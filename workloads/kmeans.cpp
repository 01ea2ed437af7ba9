// K-means cluster assignment (Kim et al. ISCA 2013 "kmeans", Table 1/2, from Rodinia), after
// Rodinia's kmeans CUDA kernels (workloads/cuda/kmeans.cu, docs/workloads/kmeans.md): `points`
// points of `features` floats around `clusters` hidden centres; the host runs Rodinia's first
// iteration (the first `clusters` points as centres, assignment, new centres as the means),
// and the GPU the second: a transpose of the features to feature-major, then one thread per
// point finding its nearest centre (centres in __constant__ memory), rewriting its membership
// when it changes and counting the changes in `delta`. Blocks of 256. CUDA-only.
#include <cfloat>
#include <cmath>
#include <stdexcept>

#include "isa/semantics.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

constexpr uint32_t kBlock = 256;       // the kernel's BLOCK
constexpr long kMaxCentreWords = 4096;  // the kernel's MAX_CENTRE_WORDS

class KMeans : public Workload {
 public:
  explicit KMeans(const Options& o)
      : points_(option(o, "points", 4096, 1, 1 << 20)),
        features_(option(o, "features", 34, 1, 256)),
        clusters_(option(o, "clusters", 5, 1, 64)),
        seed_(option(o, "seed", 1, 0, 0xffffffffL)) {
    rejectUnknown(o, {"points", "features", "clusters", "seed"}, "kmeans");
    if (clusters_ * features_ > kMaxCentreWords)
      throw std::invalid_argument("options clusters x features = " +
                                  std::to_string(clusters_ * features_) + " exceed " +
                                  std::to_string(kMaxCentreWords) + " (the __constant__ array)");
    if (clusters_ > points_)
      throw std::invalid_argument("option clusters = " + std::to_string(clusters_) +
                                  " exceeds points = " + std::to_string(points_));
    if (points_ * features_ > (1L << 24))
      throw std::invalid_argument("options points x features = " +
                                  std::to_string(points_ * features_) + " exceed 16M floats");
  }
  std::string name() const override { return "kmeans"; }
  std::string description() const override {
    return "k-means assignment of " + std::to_string(points_) + " points of " +
           std::to_string(features_) + " features to " + std::to_string(clusters_) +
           " centres (Rodinia's second iteration), transpose then assignment, blocks of 256 "
           "(Rodinia kmeans; CUDA-only)";
  }
  std::vector<CudaKernel> cudaKernels() const override {
    return {{"kmeans.ptx", "invert_mapping"}, {"kmeans.ptx", "kmeans_point"}};
  }
  std::map<std::string, std::string> constantBuffers() const override {
    return {{"c_clusters", "centres"}};
  }

  isa::LaunchConfig setup(isa::GlobalMemory& mem) const override {
    const auto pts = input();
    const auto first = assign(pts, initialCentres(pts));
    const uint32_t bytes = static_cast<uint32_t>(points_ * features_ * 4);
    uint32_t in = mem.allocate("features", bytes);
    mem.allocate("features_t", bytes);
    mem.allocate("membership", static_cast<uint32_t>(points_ * 4));
    mem.allocate("delta", 4);
    mem.allocate("centres", static_cast<uint32_t>(kMaxCentreWords * 4));
    mem.setWords("features", pts);
    mem.setWords("membership", first);
    auto c = means(pts, first, initialCentres(pts));
    c.resize(kMaxCentreWords, 0);
    mem.setWords("centres", c);
    isa::LaunchConfig l;
    l.grid = {static_cast<uint32_t>((points_ + kBlock - 1) / kBlock), 1, 1};
    l.block = {kBlock, 1, 1};
    l.params = {in, mem.region("features_t").base, static_cast<uint32_t>(points_),
                static_cast<uint32_t>(features_)};
    return l;
  }
  std::vector<Step> launches(isa::GlobalMemory& mem) const override {
    Step invert{0, setup(mem)}, assignment{1, invert.launch};
    assignment.launch.params = {mem.region("features_t").base, static_cast<uint32_t>(features_),
                                static_cast<uint32_t>(points_), static_cast<uint32_t>(clusters_),
                                mem.region("membership").base, mem.region("delta").base};
    return {invert, assignment};
  }

  std::string verify(const isa::GlobalMemory& mem) const override {
    const auto pts = input();
    const auto first = assign(pts, initialCentres(pts));
    const auto second = assign(pts, means(pts, first, initialCentres(pts)));
    uint32_t delta = 0;
    for (long p = 0; p < points_; ++p) delta += first[p] != second[p];
    std::vector<uint32_t> t(points_ * features_);  // the transpose
    for (long p = 0; p < points_; ++p)
      for (long f = 0; f < features_; ++f) t[p + points_ * f] = pts[p * features_ + f];
    std::string err = compareWords("features_t", mem, t);
    if (err.empty()) err = compareWords("membership", mem, second);
    if (err.empty()) err = compareWords("delta", mem, {delta});
    return err;
  }

 private:
  // Points (point-major, as Rodinia's input files) scattered around `clusters` hidden centres
  // uniform in [0, 1): each feature the centre's plus uniform noise in [-0.5, 0.5), so that
  // clusters overlap and assignments near their borders change between iterations.
  std::vector<uint32_t> input() const {
    uint32_t st = static_cast<uint32_t>(seed_) * 2654435761u + 0x7f4a7c15u;
    auto unit = [&] {
      st = st * 1664525u + 1013904223u;  // Numerical Recipes LCG
      return static_cast<float>(st >> 8) * (1.0f / 16777216.0f);
    };
    std::vector<float> hidden(clusters_ * features_);
    for (auto& h : hidden) h = unit();
    std::vector<uint32_t> pts(points_ * features_);
    for (long p = 0; p < points_; ++p) {
      const long c = static_cast<long>(unit() * static_cast<float>(clusters_)) % clusters_;
      for (long f = 0; f < features_; ++f)
        pts[p * features_ + f] = isa::U(hidden[c * features_ + f] + (unit() - 0.5f));
    }
    return pts;
  }
  // Rodinia's initial centres: the first `clusters` points.
  std::vector<uint32_t> initialCentres(const std::vector<uint32_t>& pts) const {
    return std::vector<uint32_t>(pts.begin(), pts.begin() + clusters_ * features_);
  }
  // The kernel's assignment: per point the first centre of least distance, the distance summed
  // over the features in order as fma(diff, diff, dist).
  std::vector<uint32_t> assign(const std::vector<uint32_t>& pts,
                               const std::vector<uint32_t>& centres) const {
    std::vector<uint32_t> out(points_);
    for (long p = 0; p < points_; ++p) {
      float minDist = FLT_MAX;
      int32_t nearest = -1;
      for (long c = 0; c < clusters_; ++c) {
        float dist = 0.0f;
        for (long f = 0; f < features_; ++f) {
          const float diff = isa::F(pts[p * features_ + f]) - isa::F(centres[c * features_ + f]);
          dist = std::fma(diff, diff, dist);
        }
        if (dist < minDist) {
          minDist = dist;
          nearest = static_cast<int32_t>(c);
        }
      }
      out[p] = static_cast<uint32_t>(nearest);
    }
    return out;
  }
  // Rodinia's host step: each centre the mean of its points (a centre with none keeps its value).
  std::vector<uint32_t> means(const std::vector<uint32_t>& pts, const std::vector<uint32_t>& member,
                              const std::vector<uint32_t>& old) const {
    std::vector<float> sum(clusters_ * features_, 0.0f);
    std::vector<long> count(clusters_, 0);
    for (long p = 0; p < points_; ++p) {
      ++count[member[p]];
      for (long f = 0; f < features_; ++f) sum[member[p] * features_ + f] += isa::F(pts[p * features_ + f]);
    }
    std::vector<uint32_t> out(old);
    for (long c = 0; c < clusters_; ++c)
      if (count[c])
        for (long f = 0; f < features_; ++f)
          out[c * features_ + f] = isa::U(sum[c * features_ + f] / static_cast<float>(count[c]));
    return out;
  }
  long points_, features_, clusters_, seed_;
};

}  // namespace

std::unique_ptr<Workload> makeKMeans(const Options& o) {
  return std::make_unique<KMeans>(o);
}

}  // namespace simtlm::workloads
