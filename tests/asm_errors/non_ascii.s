// expect: non_ascii.s:3:15: error: expected a register or an immediate for source a, found '\xc3'
.kernel k
  mov.b32 r0, é
  exit
