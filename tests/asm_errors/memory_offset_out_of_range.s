// expect: memory_offset_out_of_range.s:3:25: error: memory offset 524288 out of range [-524288, 524287]
.kernel k
  ld.global.b32 r0, [r1+524288]
  exit
