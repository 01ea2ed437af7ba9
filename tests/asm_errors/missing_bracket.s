// expect: missing_bracket.s:3:26: error: expected ']' to close the memory operand, found end of statement
.kernel k
  ld.global.b32 r0, [r1+4
  exit
