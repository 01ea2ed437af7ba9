// expect: register_beyond_regs.s:5:15: error: register 'r4' exceeds the kernel's .regs 4
.kernel k
.regs 4
  mov.b32 r3, 1
  add.u32 r2, r4, r3
  exit
