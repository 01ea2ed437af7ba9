// expect: float_in_integer_context.s:3:19: error: float literal '1.5' where an integer is expected
.kernel k
  add.u32 r0, r0, 1.5
  exit
