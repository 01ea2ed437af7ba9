// expect: TODO
.kernel k
.param A
  ld.param.b32 r0, [B]
  exit
