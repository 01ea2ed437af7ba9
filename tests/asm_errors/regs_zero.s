// expect: TODO
.kernel k
.regs 0
  exit
