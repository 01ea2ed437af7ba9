// expect: missing_operand.s:4:18: error: expected a register or an immediate for source b, found end of statement
.kernel k
.regs 4
  add.u32 r0, r1,
  exit
