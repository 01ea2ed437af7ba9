// DARSIE scenarios 10a/10b (scenarios/darsie_10a_block_1d.yaml, darsie_10b_block_24x4.yaml):
// which instructions are TB-redundant depends on the launched block shape (Sec. 4.2, launch-time
// promotion). The kernel mixes block-invariant values (ntid, parameters, a load of IN[0]) with
// tid.x- and tid.y-derived ones:
//   always redundant (uniform): s2r ntid.x, s2r ntid.y, 2 x ld.param, ld.global IN[0], mul     6
//   conditionally redundant on tid.x: mul x*x, add;  on tid.y: s2r tid.y;  on tid.x: s2r tid.x
//   vector unless x and y both repeat: mad y*ntid.x + x and what follows
.kernel darsie_shape
.regs 10
.param IN
.param OUT

  s2r r0, %tid.x                  // CR(x)
  s2r r1, %tid.y                  // CR(y)
  s2r r2, %ntid.x                 // DR
  s2r r3, %ntid.y                 // DR
  ld.param.b32 r8, [IN]           // DR
  ld.param.b32 r9, [OUT]          // DR
  ld.global.b32 r4, [r8]          // DR: IN[0], the same address in every thread
  mul.lo.u32 r5, r4, r3           // DR: IN[0] * ntid.y
  mul.lo.u32 r6, r0, r0           // CR(x): x*x
  add.u32 r6, r6, r5              // CR(x)
  mad.lo.u32 r7, r1, r2, r0       // CR(x,y): y*ntid.x + x, the linear thread index
  shl.b32 r7, r7, 2
  add.u32 r7, r9, r7
  add.u32 r6, r6, r1              // CR(x,y)
  st.global.b32 [r7], r6          // OUT[y*ntid.x + x] = x*x + IN[0]*ntid.y + y
  exit
