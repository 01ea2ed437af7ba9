// expect: regs_after_instructions.s:4:1: error: .regs must come before the first instruction
.kernel k
  mov.b32 r0, 1
.regs 4
  exit
