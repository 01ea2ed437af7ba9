// expect: ld_global_without_base.s:3:21: error: ld.global needs a base register
.kernel k
  ld.global.b32 r0, [16]
  exit
