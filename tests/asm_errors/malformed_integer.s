// expect: malformed_integer.s:3:19: error: malformed integer '12abc'
.kernel k
  add.u32 r0, r0, 12abc
  exit
