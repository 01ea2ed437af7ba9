// DARSIE scenarios 3 and 12 (scenarios/darsie_03_loop_versions.yaml,
// darsie_12_small_table_loop.yaml): a loop whose body holds
// TB-redundant instructions. Each iteration writes new versions of r4, r5 and r6; followers
// skip each instance and read the leader's version of that iteration, and versions no warp
// reads any more go back to the freelist.
//
// TB-redundant (skippable) instructions for a 32x4 block:
//   before the loop: s2r tid.x, ld.param OUT, ld.param N, mov r4, mov r5, mov r7      6
//   per iteration:   add r5 (acc += x), mul r6 (i*x), add r4 (i++)                    3
//   after the loop:  shl r11                                                          1
// The loop branch depends only on r4 and N (uniform): every warp takes it the same way, so it
// is a branch barrier per iteration and no warp ever leaves the majority path.
.kernel darsie_loop
.regs 12
.param OUT
.param N

  s2r r0, %tid.x                  // affine 0..31
  s2r r1, %tid.y                  // vector: the warp number
  ld.param.b32 r9, [OUT]          // uniform
  ld.param.b32 r8, [N]            // uniform
  mov.b32 r4, 0                   // i
  mov.b32 r5, 0                   // redundant accumulator: sum of x over the iterations
  mov.b32 r7, 0                   // vector accumulator (becomes vector at LOOP)
LOOP:
  add.u32 r5, r5, r0              // redundant: (i+1)*x
  mul.lo.u32 r6, r4, r0           // redundant: i*x
  add.u32 r7, r7, r1              // vector: + y
  add.u32 r7, r7, r6              // vector
  add.u32 r4, r4, 1               // redundant (uniform): i+1
  setp.lt.u32 p0, r4, r8
  @p0 bra LOOP                    // uniform branch: a DARSIE branch barrier per iteration
  shl.b32 r10, r1, 7              // vector 128*y
  shl.b32 r11, r0, 2              // redundant 4x
  add.u32 r10, r10, r11
  add.u32 r10, r9, r10
  add.u32 r7, r7, r5              // OUT[32y+x] = N*y + x*N(N-1)/2 + N*x
  st.global.b32 [r10], r7
  exit
