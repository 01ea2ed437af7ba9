// expect: ld_local_without_local.s:3:3: error: ld.local.b32 needs a .local size (bytes per thread) declared before the first instruction
.kernel k
  ld.local.b32 r1, [r0]
  exit
