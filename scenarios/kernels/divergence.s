// Nested if/else on the global thread id i, both arms of the outer branch diverging again:
//   if (i % 4 < 2) { r = (i % 2 == 0) ? 2 * i : 3 * i;       r += 100; }
//   else           { r = (i % 8 >= 6) ? i + 1000 : 7;         r += 200; }
//   OUT[i] = r; PATH[i] = the leaf taken (1..4)
.kernel divergence
.regs 12
.param OUT
.param PATH

  s2r r0, %ctaid.x
  s2r r1, %ntid.x
  s2r r2, %tid.x
  mad.lo.u32 r0, r0, r1, r2        // i
  and.b32 r3, r0, 3
  setp.lt.u32 p0, r3, 2
  @!p0 bra OUTER_ELSE
  and.b32 r4, r0, 1
  setp.eq.b32 p1, r4, 0
  @!p1 bra INNER_ODD
  shl.b32 r5, r0, 1                // 2 * i
  mov.b32 r6, 1
  bra INNER_JOIN
INNER_ODD:
  mul.lo.u32 r5, r0, 3             // 3 * i
  mov.b32 r6, 2
INNER_JOIN:
  add.u32 r5, r5, 100
  bra OUTER_JOIN
OUTER_ELSE:
  and.b32 r4, r0, 7
  setp.ge.u32 p2, r4, 6
  @p2 bra HIGH
  mov.b32 r5, 7
  mov.b32 r6, 4
  bra ELSE_JOIN
HIGH:
  add.u32 r5, r0, 1000
  mov.b32 r6, 3
ELSE_JOIN:
  add.u32 r5, r5, 200
OUTER_JOIN:
  shl.b32 r7, r0, 2
  ld.param.b32 r8, [OUT]
  add.u32 r8, r8, r7
  st.global.b32 [r8], r5
  ld.param.b32 r9, [PATH]
  add.u32 r9, r9, r7
  st.global.b32 [r9], r6
  exit
