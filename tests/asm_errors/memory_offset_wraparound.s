// expect: memory_offset_wraparound.s:3:25: error: memory offset 4294967292 out of range [-524288, 524287]
.kernel k
  ld.global.b32 r0, [r1+0xfffffffc]
  exit
