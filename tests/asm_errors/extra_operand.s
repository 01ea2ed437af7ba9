// expect: extra_operand.s:4:21: error: expected end of statement, found ','
.kernel k
.regs 4
  add.u32 r0, r1, r2, r3
  exit
