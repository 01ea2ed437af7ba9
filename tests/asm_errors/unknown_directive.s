// expect: unknown_directive.s:4:1: error: unknown directive '.global' (expected .kernel, .regs, .shared, .local, .param or .const)
.kernel k
.regs 4
.global X
  exit
