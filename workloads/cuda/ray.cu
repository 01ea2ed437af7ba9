// Ray tracing (the UV paper's "RAY", Table 3: 512 x 512, from GPGPU-Sim's ISPASS-2009 set),
// after the per-pixel Whitted-style tracer that benchmark is (docs/workloads/ray.md): one thread
// per pixel casts a primary ray from the camera at the origin through the pixel, finds the
// nearest of the scene's spheres, shades the hit point (ambient plus Lambert diffuse from one
// point light, zero diffuse when a shadow ray towards the light hits a sphere), and follows the
// mirror reflection up to `depth` hits, adding each hit's colour weighted by the reflectivities
// so far; a ray that leaves the scene adds the sky colour. The pixel is written as packed
// 8-bit RGB (red in the low byte), as the original writes its image buffer.
// The scene (spheres: centre, radius, colour, reflectivity; 8 floats each) is a read-only
// global array every thread walks in the same order: its loads are uniform across the warp
// and the grid, the long-latency uniform instructions UV's IRB skips.
// Every float operation is an explicit intrinsic (no contraction) and sqrt and division are
// IEEE (sqrt.rn, div.rn), so that the C++ reference repeats each rounding. CUDA-only.
// Compile: nvcc -ptx -O3 -arch=compute_75 ray.cu -o ray.ptx

#define EPS 1e-3f
#define FAR 1e30f
#define LIGHT_X 5.0f
#define LIGHT_Y 8.0f
#define LIGHT_Z -4.0f
#define AMBIENT 0.1f

struct V3 {
  float x, y, z;
};
__device__ __forceinline__ V3 v3(float x, float y, float z) {
  V3 v = {x, y, z};
  return v;
}
__device__ __forceinline__ V3 sub(V3 a, V3 b) {
  return v3(__fsub_rn(a.x, b.x), __fsub_rn(a.y, b.y), __fsub_rn(a.z, b.z));
}
__device__ __forceinline__ V3 along(V3 o, float t, V3 d) {  // o + t d
  return v3(__fadd_rn(o.x, __fmul_rn(t, d.x)), __fadd_rn(o.y, __fmul_rn(t, d.y)),
            __fadd_rn(o.z, __fmul_rn(t, d.z)));
}
__device__ __forceinline__ float dot(V3 a, V3 b) {
  return __fadd_rn(__fadd_rn(__fmul_rn(a.x, b.x), __fmul_rn(a.y, b.y)), __fmul_rn(a.z, b.z));
}
__device__ __forceinline__ V3 scaled(V3 a, float s) {  // a / s
  return v3(__fdiv_rn(a.x, s), __fdiv_rn(a.y, s), __fdiv_rn(a.z, s));
}

// The distance along the ray (o, d), |d| = 1, to sphere k's near surface, or FAR when the ray
// misses it or the hit lies behind EPS.
__device__ __forceinline__ float hitSphere(const float* __restrict__ s, int k, V3 o, V3 d) {
  const V3 c = v3(s[8 * k], s[8 * k + 1], s[8 * k + 2]);
  const float r = s[8 * k + 3];
  const V3 oc = sub(o, c);
  const float b = dot(oc, d);
  const float disc = __fsub_rn(__fmul_rn(b, b), __fsub_rn(dot(oc, oc), __fmul_rn(r, r)));
  if (disc <= 0.0f) return FAR;
  const float t = __fsub_rn(-b, __fsqrt_rn(disc));
  return t > EPS ? t : FAR;
}

extern "C" __global__ void ray_trace(unsigned int* image, const float* __restrict__ spheres,
                                     int nspheres, int width, int height, int depth) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  const int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= width || py >= height) return;

  // The primary ray: the image plane at z = 1 spans y in [-1, 1].
  const float scale = __fdiv_rn(2.0f, (float)height);
  const float u = __fmul_rn(__fsub_rn(__fadd_rn((float)px, 0.5f), __fmul_rn(0.5f, (float)width)), scale);
  const float v = __fmul_rn(__fsub_rn(__fmul_rn(0.5f, (float)height), __fadd_rn((float)py, 0.5f)), scale);
  V3 d = v3(u, v, 1.0f);
  d = scaled(d, __fsqrt_rn(dot(d, d)));
  V3 o = v3(0.0f, 0.0f, 0.0f);

  float red = 0.0f, green = 0.0f, blue = 0.0f, weight = 1.0f;
  for (int bounce = 0; bounce < depth; ++bounce) {
    float tmin = FAR;
    int hit = -1;
    for (int k = 0; k < nspheres; ++k) {
      const float t = hitSphere(spheres, k, o, d);
      if (t < tmin) {
        tmin = t;
        hit = k;
      }
    }
    if (hit < 0) {  // the sky
      red = __fadd_rn(red, __fmul_rn(weight, 0.2f));
      green = __fadd_rn(green, __fmul_rn(weight, 0.3f));
      blue = __fadd_rn(blue, __fmul_rn(weight, 0.5f));
      break;
    }
    const float* s = spheres + 8 * hit;
    const V3 p = along(o, tmin, d);
    const V3 n = scaled(sub(p, v3(s[0], s[1], s[2])), s[3]);
    V3 l = sub(v3(LIGHT_X, LIGHT_Y, LIGHT_Z), p);
    const float ldist = __fsqrt_rn(dot(l, l));
    l = scaled(l, ldist);
    float diffuse = fmaxf(dot(n, l), 0.0f);
    if (diffuse > 0.0f)
      for (int k = 0; k < nspheres; ++k)
        if (hitSphere(spheres, k, p, l) < ldist) {
          diffuse = 0.0f;
          break;
        }
    const float shade = __fmul_rn(weight, __fadd_rn(AMBIENT, diffuse));
    red = __fadd_rn(red, __fmul_rn(shade, s[4]));
    green = __fadd_rn(green, __fmul_rn(shade, s[5]));
    blue = __fadd_rn(blue, __fmul_rn(shade, s[6]));
    weight = __fmul_rn(weight, s[7]);
    if (weight == 0.0f) break;
    // The mirror direction d - 2 (d . n) n, from p.
    const float dn2 = __fmul_rn(2.0f, dot(d, n));
    d = v3(__fsub_rn(d.x, __fmul_rn(dn2, n.x)), __fsub_rn(d.y, __fmul_rn(dn2, n.y)),
           __fsub_rn(d.z, __fmul_rn(dn2, n.z)));
    o = p;
  }

  const unsigned int r8 = (unsigned int)__fmul_rn(fminf(red, 1.0f), 255.0f);
  const unsigned int g8 = (unsigned int)__fmul_rn(fminf(green, 1.0f), 255.0f);
  const unsigned int b8 = (unsigned int)__fmul_rn(fminf(blue, 1.0f), 255.0f);
  image[py * width + px] = r8 | (g8 << 8) | (b8 << 16);
}
