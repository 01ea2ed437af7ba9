// DCT8x8, as the CUDA SDK sample dct8x8 (kernel CUDAkernel1DCT, dct8x8_kernel1.cuh): one 8x8
// block per 8x8 image tile, one thread per coefficient. The tile is staged in shared memory
// (CurBlockLocal1), multiplied from the left by the DCT matrix into a second shared tile
// (CurBlockLocal2: the 1D DCT of every column), then from the right (the 1D DCT of every
// row) back into the first tile, which is written out: Dst = C * A * C^T. Three bar.sync as the
// original's three __syncthreads. The original reads the pixel through a texture and the DCT
// matrix from __constant__ memory; here the pixel is an ld.global.nc (read-only, L1-cached) and
// the matrix a global buffer read with ld.const (through the constant cache; 64 floats,
// DCT[n*8+k] = DCTv8matrix[n*8+k] = c(k) cos((2n+1) k pi / 16)). The unrolled sums
// (`curelem += a * b`, contracted to FMA by nvcc) are fma.f32 in the same order, i = 0..7.
.kernel dct8x8
.regs 18
.shared 512                       // CurBlockLocal1 at 0, CurBlockLocal2 at 256 (8x8 floats each)
.param SRC
.param DST
.param DCT
.param WIDTH
.const LOCAL2 256

  s2r r0, %tid.x                  // tx (coefficient column)
  s2r r1, %tid.y                  // ty (coefficient row)
  s2r r2, %ctaid.x                // bx
  s2r r3, %ctaid.y                // by
  ld.param.b32 r4, [WIDTH]
  shl.b32 r5, r3, 3
  add.u32 r5, r5, r1              // row = (by << 3) + ty
  shl.b32 r6, r2, 3
  add.u32 r6, r6, r0              // col = (bx << 3) + tx
  mad.lo.u32 r7, r5, r4, r6       // row * ImgWidth + col
  shl.b32 r7, r7, 2               // its byte offset (for Src and Dst alike)
  ld.param.b32 r8, [SRC]
  add.u32 r8, r8, r7
  ld.global.nc.b32 r9, [r8]       // the pixel (tex2D(TexSrc, tex_x, tex_y) in the original)
  shl.b32 r10, r1, 5              // &Local[ty][0]
  shl.b32 r11, r0, 2              // &Local[0][tx]
  add.u32 r12, r10, r11           // &Local[ty][tx]
  st.shared.b32 [r12], r9         // CurBlockLocal1[ty][tx] = pixel
  bar.sync 0                      // __syncthreads(): the tile is copied
  // curelem = sum_i DCTv8matrix[i*8 + ty] * CurBlockLocal1[i][tx]   (columns: C * A)
  ld.param.b32 r13, [DCT]
  shl.b32 r14, r1, 2
  add.u32 r14, r13, r14           // &DCTv8matrix[ty]
  mov.b32 r15, 0                  // curelem = 0
  ld.const.b32 r16, [r14+0]         // DCTv8matrix[i*8 + ty]
  ld.shared.b32 r17, [r11+0]        // CurBlockLocal1[i][tx]
  fma.f32 r15, r16, r17, r15       // curelem += a * b
  ld.const.b32 r16, [r14+32]
  ld.shared.b32 r17, [r11+32]
  fma.f32 r15, r16, r17, r15
  ld.const.b32 r16, [r14+64]
  ld.shared.b32 r17, [r11+64]
  fma.f32 r15, r16, r17, r15
  ld.const.b32 r16, [r14+96]
  ld.shared.b32 r17, [r11+96]
  fma.f32 r15, r16, r17, r15
  ld.const.b32 r16, [r14+128]
  ld.shared.b32 r17, [r11+128]
  fma.f32 r15, r16, r17, r15
  ld.const.b32 r16, [r14+160]
  ld.shared.b32 r17, [r11+160]
  fma.f32 r15, r16, r17, r15
  ld.const.b32 r16, [r14+192]
  ld.shared.b32 r17, [r11+192]
  fma.f32 r15, r16, r17, r15
  ld.const.b32 r16, [r14+224]
  ld.shared.b32 r17, [r11+224]
  fma.f32 r15, r16, r17, r15
  st.shared.b32 [r12+LOCAL2], r15 // CurBlockLocal2[ty][tx] = curelem
  bar.sync 0                      // __syncthreads(): C * A is complete
  // curelem = sum_i CurBlockLocal2[ty][i] * DCTv8matrix[i*8 + tx]   (rows: (C * A) * C^T)
  add.u32 r14, r13, r11           // &DCTv8matrix[tx]
  mov.b32 r15, 0                  // curelem = 0
  ld.shared.b32 r16, [r10+256]       // CurBlockLocal2[ty][i]
  ld.const.b32 r17, [r14+0]         // DCTv8matrix[i*8 + tx]
  fma.f32 r15, r16, r17, r15
  ld.shared.b32 r16, [r10+260]
  ld.const.b32 r17, [r14+32]
  fma.f32 r15, r16, r17, r15
  ld.shared.b32 r16, [r10+264]
  ld.const.b32 r17, [r14+64]
  fma.f32 r15, r16, r17, r15
  ld.shared.b32 r16, [r10+268]
  ld.const.b32 r17, [r14+96]
  fma.f32 r15, r16, r17, r15
  ld.shared.b32 r16, [r10+272]
  ld.const.b32 r17, [r14+128]
  fma.f32 r15, r16, r17, r15
  ld.shared.b32 r16, [r10+276]
  ld.const.b32 r17, [r14+160]
  fma.f32 r15, r16, r17, r15
  ld.shared.b32 r16, [r10+280]
  ld.const.b32 r17, [r14+192]
  fma.f32 r15, r16, r17, r15
  ld.shared.b32 r16, [r10+284]
  ld.const.b32 r17, [r14+224]
  fma.f32 r15, r16, r17, r15
  st.shared.b32 [r12], r15        // CurBlockLocal1[ty][tx] = curelem
  bar.sync 0                      // __syncthreads(): the coefficients are in place
  ld.shared.b32 r16, [r12]
  ld.param.b32 r8, [DST]
  add.u32 r8, r8, r7
  st.global.b32 [r8], r16         // Dst[row * ImgWidth + col] = CurBlockLocal1[ty][tx]
  exit
