// expect: TODO
.kernel k
.regs 4
  mov.b32 r3, 1
  add.u32 r2, r4, r3
  exit
