// expect: TODO
.kernel k
.regs 4
.global X
  exit
