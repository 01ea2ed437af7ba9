// Ray tracing (the UV paper's "RAY", Table 3: 512 x 512, GPGPU-Sim's ISPASS-2009 set): a
// per-pixel Whitted-style tracer (workloads/cuda/ray.cu, docs/workloads/ray.md): spheres, one
// point light with shadow rays, mirror reflections up to `depth` hits, packed 8-bit RGB out.
// Blocks of 16 x 8 threads, a thread per pixel. The scene is a large floor sphere and
// `spheres` - 1 spheres placed from a fixed-seed LCG. verify() traces every pixel with the
// kernel's operations in its order (no contraction, IEEE sqrt and division). CUDA-only.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "isa/semantics.h"
#include "workloads/workload.h"

namespace simtlm::workloads {
namespace {

constexpr uint32_t kBlockX = 16, kBlockY = 8;
constexpr float kEps = 1e-3f, kFar = 1e30f, kAmbient = 0.1f;

struct V3 {
  float x, y, z;
};
V3 sub(V3 a, V3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
V3 along(V3 o, float t, V3 d) { return {o.x + t * d.x, o.y + t * d.y, o.z + t * d.z}; }
float dot(V3 a, V3 b) {
  const float xx = a.x * b.x, yy = a.y * b.y, zz = a.z * b.z;
  return (xx + yy) + zz;
}
V3 scaled(V3 a, float s) { return {a.x / s, a.y / s, a.z / s}; }

class Ray : public Workload {
 public:
  explicit Ray(const Options& o)
      : width_(option(o, "width", 128, 1, 2048)),
        height_(option(o, "height", 128, 1, 2048)),
        spheres_(option(o, "spheres", 8, 1, 64)),
        depth_(option(o, "depth", 3, 1, 8)),
        seed_(option(o, "seed", 1, 0, 0xffffffffL)) {
    rejectUnknown(o, {"width", "height", "spheres", "depth", "seed"}, "ray");
  }
  std::string name() const override { return "ray"; }
  std::string description() const override {
    return "ray tracing, " + std::to_string(width_) + " x " + std::to_string(height_) + " pixels, " +
           std::to_string(spheres_) + " spheres, up to " + std::to_string(depth_) +
           " hits per pixel, shadows (ISPASS-2009 RAY; CUDA-only)";
  }
  std::vector<CudaKernel> cudaKernels() const override { return {{"ray.ptx", "ray_trace"}}; }

  isa::LaunchConfig setup(isa::GlobalMemory& mem) const override {
    uint32_t image = mem.allocate("image", static_cast<uint32_t>(width_ * height_ * 4));
    uint32_t scene = mem.allocate("spheres", static_cast<uint32_t>(spheres_ * 8 * 4));
    std::vector<uint32_t> w;
    for (float f : scene_()) w.push_back(isa::U(f));
    mem.setWords("spheres", w);
    isa::LaunchConfig l;
    l.grid = {static_cast<uint32_t>((width_ + kBlockX - 1) / kBlockX),
              static_cast<uint32_t>((height_ + kBlockY - 1) / kBlockY), 1};
    l.block = {kBlockX, kBlockY, 1};
    l.params = {image, scene, static_cast<uint32_t>(spheres_), static_cast<uint32_t>(width_),
                static_cast<uint32_t>(height_), static_cast<uint32_t>(depth_)};
    return l;
  }

  std::string verify(const isa::GlobalMemory& mem) const override {
    const auto s = scene_();
    std::vector<uint32_t> want(width_ * height_);
    for (long py = 0; py < height_; ++py)
      for (long px = 0; px < width_; ++px) want[py * width_ + px] = pixel(s, px, py);
    return compareWords("image", mem, want);
  }

 private:
  // The kernel's hitSphere: distance to sphere k's near surface along (o, d), or kFar.
  static float hit(const std::vector<float>& s, long k, V3 o, V3 d) {
    const V3 c{s[8 * k], s[8 * k + 1], s[8 * k + 2]};
    const float r = s[8 * k + 3];
    const V3 oc = sub(o, c);
    const float b = dot(oc, d);
    const float bb = b * b, rr = r * r;
    const float disc = bb - (dot(oc, oc) - rr);
    if (disc <= 0.0f) return kFar;
    const float t = -b - std::sqrt(disc);
    return t > kEps ? t : kFar;
  }
  uint32_t pixel(const std::vector<float>& s, long px, long py) const {
    const float fw = static_cast<float>(width_), fh = static_cast<float>(height_);
    const float scale = 2.0f / fh;
    const float u = ((static_cast<float>(px) + 0.5f) - 0.5f * fw) * scale;
    const float v = (0.5f * fh - (static_cast<float>(py) + 0.5f)) * scale;
    V3 d{u, v, 1.0f};
    d = scaled(d, std::sqrt(dot(d, d)));
    V3 o{0.0f, 0.0f, 0.0f};
    float red = 0.0f, green = 0.0f, blue = 0.0f, weight = 1.0f;
    for (long bounce = 0; bounce < depth_; ++bounce) {
      float tmin = kFar;
      long h = -1;
      for (long k = 0; k < spheres_; ++k) {
        const float t = hit(s, k, o, d);
        if (t < tmin) {
          tmin = t;
          h = k;
        }
      }
      if (h < 0) {
        red = red + weight * 0.2f;
        green = green + weight * 0.3f;
        blue = blue + weight * 0.5f;
        break;
      }
      const float* sp = s.data() + 8 * h;
      const V3 p = along(o, tmin, d);
      const V3 n = scaled(sub(p, V3{sp[0], sp[1], sp[2]}), sp[3]);
      V3 l = sub(V3{5.0f, 8.0f, -4.0f}, p);
      const float ldist = std::sqrt(dot(l, l));
      l = scaled(l, ldist);
      float diffuse = std::fmax(dot(n, l), 0.0f);
      if (diffuse > 0.0f)
        for (long k = 0; k < spheres_; ++k)
          if (hit(s, k, p, l) < ldist) {
            diffuse = 0.0f;
            break;
          }
      const float shade = weight * (kAmbient + diffuse);
      red = red + shade * sp[4];
      green = green + shade * sp[5];
      blue = blue + shade * sp[6];
      weight = weight * sp[7];
      if (weight == 0.0f) break;
      const float dn2 = 2.0f * dot(d, n);
      d = V3{d.x - dn2 * n.x, d.y - dn2 * n.y, d.z - dn2 * n.z};
      o = p;
    }
    auto byte = [](float c) { return static_cast<uint32_t>(std::fmin(c, 1.0f) * 255.0f); };
    return byte(red) | byte(green) << 8 | byte(blue) << 16;
  }
  // 8 floats per sphere: centre, radius, colour (r, g, b), reflectivity. Sphere 0 is the floor
  // (radius 1000 below y = -1); the others lie in front of the camera, 0.3 .. 1.1 in radius,
  // their bottoms 0 .. 2 above the floor, with reflectivity 0, 0.25 or 0.5.
  std::vector<float> scene_() const {
    uint32_t st = static_cast<uint32_t>(seed_) * 2654435761u + 777u;
    auto next = [&] {  // uniform in [0, 1), 24 bits
      st = st * 1664525u + 1013904223u;  // Numerical Recipes LCG
      return static_cast<float>(st >> 8) * (1.0f / 16777216.0f);
    };
    std::vector<float> s = {0.0f, -1001.0f, 5.0f, 1000.0f, 0.8f, 0.8f, 0.7f, 0.25f};
    for (long k = 1; k < spheres_; ++k) {
      const float r = 0.3f + 0.8f * next();
      s.push_back(-3.0f + 6.0f * next());
      s.push_back(-1.0f + r + 2.0f * next());
      s.push_back(4.0f + 6.0f * next());
      s.push_back(r);
      s.push_back(0.2f + 0.8f * next());
      s.push_back(0.2f + 0.8f * next());
      s.push_back(0.2f + 0.8f * next());
      s.push_back(0.25f * static_cast<float>(static_cast<int>(next() * 3.0f)));
    }
    return s;
  }
  long width_, height_, spheres_, depth_, seed_;
};

}  // namespace

std::unique_ptr<Workload> makeRay(const Options& o) {
  return std::make_unique<Ray>(o);
}

}  // namespace simtlm::workloads
