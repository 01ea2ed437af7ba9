// expect: integer_too_large.s:3:15: error: integer '0x1ffffffff' does not fit in 32 bits
.kernel k
  mov.b32 r0, 0x1ffffffff
  exit
