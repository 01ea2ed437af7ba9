// DARSIE scenario 5 (scenarios/darsie_05_store_invalidates.yaml): a store between two
// TB-redundant loads of the same address. Every thread reads X = BUF[0] (load 1); after a
// barrier (so that every warp has read X before any warp writes) every warp stores X + 1 to
// BUF[0] and reads BUF[0] again (load 2). All stores write the same value, so the result does
// not depend on the order of the warps: load 2 reads X + 1 everywhere.
//
// Sec. 4.4: a store of the block clears its load entries from the PC skip table. Load 2's entry,
// created by the first warp to get there, is cleared by the stores of the warps behind it, and
// the warps that had not skipped it yet execute load 2 themselves.
.kernel darsie_store_reload
.regs 10
.param BUF
.param OUT

  s2r r0, %tid.x
  s2r r1, %tid.y
  ld.param.b32 r9, [BUF]          // uniform
  ld.param.b32 r8, [OUT]          // uniform
  ld.global.b32 r2, [r9]          // load 1: X (uniform address: TB-redundant)
  bar.sync 0                      // every warp has read X
  add.u32 r3, r2, 1               // X + 1 (redundant)
  st.global.b32 [r9], r3          // every warp, every lane: BUF[0] = X + 1
  ld.global.b32 r4, [r9]          // load 2: same address, must see X + 1
  mul.lo.u32 r5, r2, 100
  add.u32 r5, r5, r4              // 100 X + (X + 1)
  shl.b32 r6, r1, 7
  shl.b32 r7, r0, 2
  add.u32 r6, r6, r7
  add.u32 r6, r8, r6
  st.global.b32 [r6], r5          // OUT[32y + x]
  exit
