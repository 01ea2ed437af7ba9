// expect: TODO
.kernel k
.regs 4
  foo.u32 r0, r1, r2
  exit
