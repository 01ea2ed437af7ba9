// Floyd-Warshall, as Pannotia's naive kernel `floydwarshall(dist, next, dim, k)` (graph_app/fw):
// one launch per intermediate vertex k, (16,16) blocks, one thread per matrix entry
// (i = blockIdx.x*16 + threadIdx.x, j = blockIdx.y*16 + threadIdx.y, as the original: rows on x,
// so a warp holds 16 values of i and 2 of j, and dist[i][j] is 16-row strided):
//   if (i < dim && j < dim)
//     if (dist[i*dim + k] + dist[k*dim + j] < dist[i*dim + j]) {
//       dist[i*dim + j] = dist[i*dim + k] + dist[k*dim + j];
//       next[i*dim + j] = k;
//     }
// Integer distances; "no edge" is Pannotia's BIGNUM 999999, so a sum of two distances stays far
// below 2^31 and the plain signed add cannot overflow (the original does no other guard).
// As nvcc compiles it: the sum is computed once and reused for the store, the two bounds tests
// are one predicate and one guarded exit, and the update is a second guarded exit.
.kernel floydwarshall
.regs 10
.param DIST          // int dist[dim][dim], updated in place
.param NEXT          // int next[dim][dim]
.param DIM           // dim
.param K             // the intermediate vertex of this launch

  s2r r0, %ctaid.x
  s2r r1, %ntid.x
  s2r r2, %tid.x
  mad.lo.u32 r0, r0, r1, r2       // i = blockIdx.x * blockDim.x + threadIdx.x
  s2r r1, %ctaid.y
  s2r r2, %ntid.y
  s2r r3, %tid.y
  mad.lo.u32 r1, r1, r2, r3       // j = blockIdx.y * blockDim.y + threadIdx.y
  ld.param.b32 r2, [DIM]
  setp.ge.s32 p0, r0, r2
  setp.ge.s32 p1, r1, r2
  por p0, p0, p1
  @p0 exit                        // if (i < dim && j < dim)
  ld.param.b32 r3, [K]
  ld.param.b32 r4, [DIST]
  mul.lo.u32 r5, r0, r2           // i * dim
  add.u32 r6, r5, r3
  shl.b32 r6, r6, 2
  add.u32 r6, r4, r6
  ld.global.b32 r6, [r6]          // dist[i*dim + k]
  mad.lo.u32 r7, r3, r2, r1       // k * dim + j
  shl.b32 r7, r7, 2
  add.u32 r7, r4, r7
  ld.global.b32 r7, [r7]          // dist[k*dim + j]
  add.u32 r5, r5, r1              // i * dim + j
  shl.b32 r5, r5, 2
  add.u32 r8, r4, r5
  ld.global.b32 r9, [r8]          // dist[i*dim + j]
  add.u32 r6, r6, r7              // dist[i][k] + dist[k][j]
  setp.ge.s32 p0, r6, r9
  @p0 exit                        // if (sum < dist[i][j])
  st.global.b32 [r8], r6          //   dist[i][j] = sum
  ld.param.b32 r4, [NEXT]
  add.u32 r4, r4, r5
  st.global.b32 [r4], r3          //   next[i][j] = k
  exit
