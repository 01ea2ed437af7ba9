// expect: unknown_opcode.s:4:3: error: unknown opcode 'foo.u32'
.kernel k
.regs 4
  foo.u32 r0, r1, r2
  exit
