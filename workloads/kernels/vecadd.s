// c[i] = a[i] + b[i] for i < n; one thread per element, 1D blocks.
// Same algorithm as ../shared/reference/vecadd.cu.
.kernel vecadd
.regs 8
.param A
.param B
.param C
.param N

  s2r r0, %ctaid.x
  s2r r1, %ntid.x
  s2r r2, %tid.x
  mad.lo.u32 r0, r0, r1, r2        // i = blockIdx.x * blockDim.x + threadIdx.x
  ld.param.b32 r3, [N]
  setp.ge.s32 p0, r0, r3
  @p0 exit                         // if (i >= n) return
  shl.b32 r4, r0, 2                // byte offset
  ld.param.b32 r5, [A]
  add.u32 r5, r5, r4
  ld.global.b32 r5, [r5]
  ld.param.b32 r6, [B]
  add.u32 r6, r6, r4
  ld.global.b32 r6, [r6]
  add.f32 r5, r5, r6
  ld.param.b32 r7, [C]
  add.u32 r7, r7, r4
  st.global.b32 [r7], r5
  exit
