// K-means cluster assignment (Kim et al. ISCA 2013 "kmeans", Table 1/2, from Rodinia), after
// Rodinia's kmeans CUDA kernels (docs/workloads/kmeans.md): a first kernel transposes the
// points' features from point-major to feature-major (one thread per point), and the
// assignment kernel gives each point (one thread) the index of its nearest cluster centre by
// squared Euclidean distance, the centres held in __constant__ memory as in Rodinia. The
// running minimum's update (`if (dist < min_dist)`) is data-dependent (nvcc if-converts it).
// The kernel runs one iteration of Rodinia's loop after the first: `membership` holds the
// previous assignment, and a point whose cluster changes rewrites it and counts itself in
// `delta` (Rodinia's host counts delta from the memberships; its GPU_DELTA_REDUCTION variant
// does it on the GPU; Kim's own kmeans updates shared state with atomics): the divergent branch.
// Changed: the features are read with plain loads rather than through a texture; the distance
// is summed with an explicit fma (what nvcc contracts `ans += diff * diff` to), so that the C++
// reference repeats every rounding. CUDA-only.
// Compile: nvcc -ptx -O3 -arch=compute_75 kmeans.cu -o kmeans.ptx

#define BLOCK 256          // threads per block (Rodinia's; the launch must use it)
#define MAX_CENTRE_WORDS 4096  // clusters x features, at most (16 KiB of __constant__)

__constant__ float c_clusters[MAX_CENTRE_WORDS];

extern "C" __global__ void invert_mapping(const float* __restrict__ input, float* output,
                                          int npoints, int nfeatures) {
  const int point = blockIdx.x * BLOCK + threadIdx.x;
  if (point < npoints)
    for (int f = 0; f < nfeatures; f++) output[point + npoints * f] = input[point * nfeatures + f];
}

extern "C" __global__ void kmeans_point(const float* __restrict__ features, int nfeatures,
                                        int npoints, int nclusters, int* membership,
                                        int* delta) {
  const int point = blockIdx.x * BLOCK + threadIdx.x;
  if (point < npoints) {
    int nearest = -1;
    float min_dist = 3.402823466e+38f;  // FLT_MAX
    for (int c = 0; c < nclusters; c++) {
      float dist = 0.0f;
      for (int f = 0; f < nfeatures; f++) {
        const float diff = __fsub_rn(features[point + f * npoints], c_clusters[c * nfeatures + f]);
        dist = __fmaf_rn(diff, diff, dist);
      }
      if (dist < min_dist) {
        min_dist = dist;
        nearest = c;
      }
    }
    if (membership[point] != nearest) {
      membership[point] = nearest;
      atomicAdd(delta, 1);
    }
  }
}
