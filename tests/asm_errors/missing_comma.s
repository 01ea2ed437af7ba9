// expect: missing_comma.s:4:14: error: expected ',', found 'r1'
.kernel k
.regs 4
  add.u32 r0 r1, r2
  exit
