// expect: register_out_of_range.s:3:11: error: register 'r64' out of range (r0..r63)
.kernel k
  mov.b32 r64, 1
  exit
