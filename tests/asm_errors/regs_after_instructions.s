// expect: TODO
.kernel k
  mov.b32 r0, 1
.regs 4
  exit
