// expect: regs_zero.s:3:7: error: register count 0 out of range [1, 64]
.kernel k
.regs 0
  exit
