// expect: regs_too_many.s:3:7: error: register count 65 out of range [1, 64]
.kernel k
.regs 65
  exit
