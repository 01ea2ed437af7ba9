// expect: malformed_hex.s:3:15: error: malformed integer '0x'
.kernel k
  mov.b32 r0, 0x
  exit
