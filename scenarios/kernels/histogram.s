// A 16-bin histogram with global atomics: thread i (i < N) adds 1 to BINS[DATA[i] & 15] and
// adds DATA[i] to SUM[0]. Many threads of every warp hit the same bin at the same time.
.kernel histogram
.regs 12
.param DATA
.param BINS
.param SUM
.param N

  s2r r0, %ctaid.x
  s2r r1, %ntid.x
  s2r r2, %tid.x
  mad.lo.u32 r0, r0, r1, r2        // i = blockIdx.x * blockDim.x + threadIdx.x
  ld.param.b32 r3, [N]
  setp.ge.u32 p0, r0, r3
  @p0 exit                         // if (i >= n) return
  shl.b32 r4, r0, 2
  ld.param.b32 r5, [DATA]
  add.u32 r5, r5, r4
  ld.global.b32 r6, [r5]           // v = data[i]
  and.b32 r7, r6, 15
  shl.b32 r7, r7, 2
  ld.param.b32 r8, [BINS]
  add.u32 r8, r8, r7
  mov.b32 r9, 1
  atom.global.add.u32 r10, [r8], r9   // bins[v & 15] += 1
  ld.param.b32 r11, [SUM]
  atom.global.add.u32 r10, [r11], r6  // sum += v
  exit
