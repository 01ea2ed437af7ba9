// expect: TODO
.kernel k
  mov.b32 r64, 1
  exit
