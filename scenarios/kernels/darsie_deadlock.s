// DARSIE scenario 11 (scenarios/darsie_11_barrier_deadlock.yaml): a barrier that can never
// complete. Warp 3 of a 32x4 block exits (a guarded exit of the whole warp); warps 0-2 pass
// TB-redundant instructions and a uniform guarded branch (a DARSIE branch barrier among the
// majority warps, which must not wait for the exited warp) and then wait at bar.sync for a
// warp that will never come.
.kernel darsie_deadlock
.regs 6
.param OUT

  s2r r0, %tid.x                  // redundant
  s2r r1, %tid.y                  // vector: the warp number
  ld.param.b32 r5, [OUT]          // redundant
  mul.lo.u32 r2, r0, 3            // redundant
  setp.eq.b32 p0, r1, 3
  @p0 exit                        // warp 3 leaves the kernel (and the majority path)
  setp.lt.u32 p1, r2, 1000        // true in every thread
  @p1 bra NEXT                    // uniform branch: a DARSIE branch barrier of warps 0-2
  add.u32 r2, r2, 1               // never executed
NEXT:
  add.u32 r3, r2, 5               // redundant
  bar.sync 0                      // warps 0-2 wait here forever
  shl.b32 r4, r0, 2
  add.u32 r4, r5, r4
  st.global.b32 [r4], r3
  exit
