// expect: TODO
.kernel k
.regs 65
  exit
