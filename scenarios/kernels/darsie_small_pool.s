// DARSIE scenario 7 (scenarios/darsie_07_rename_pool_2.yaml): more TB-redundant values live at
// once than the rename pool has registers. The first two leaders (s2r tid.x, ld.param OUT) take
// both registers of a 2-register pool; r0 and r9 stay mapped in every warp to the end, so the
// pool never refills and the later redundant instructions are executed by every warp itself.
.kernel darsie_small_pool
.regs 8
.param OUT

  s2r r0, %tid.x                  // election 1: pool 2 -> 1
  ld.param.b32 r7, [OUT]          // election 2: pool 1 -> 0, a freelist synchronization point
  mul.lo.u32 r2, r0, r0           // redundant, but no free register: every warp executes it
  add.u32 r3, r2, 7               // the same
  shl.b32 r4, r0, 2               // the same
  s2r r1, %tid.y                  // vector
  shl.b32 r5, r1, 7
  add.u32 r5, r5, r4
  add.u32 r5, r7, r5
  add.u32 r3, r3, r1
  st.global.b32 [r5], r3          // OUT[32y + x] = x*x + 7 + y
  exit
