// expect: local_after_instruction.s:4:1: error: .local must come before the first instruction
.kernel k
  mov.b32 r0, 1
.local 16
  exit
