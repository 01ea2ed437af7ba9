// expect: local_offset_outside.s:5:16: error: local offset 16 is outside the 16 bytes of .local
.kernel k
.local 16
  mov.b32 r1, 7
  st.local.b32 [16], r1
  exit
