// expect: instruction_before_kernel.s:2:3: error: expected .kernel before the first instruction
  mov.b32 r0, 1
.kernel k
  exit
