// expect: local_out_of_range.s:3:8: error: local memory bytes per thread 524292 out of range [0, 524288]
.kernel k
.local 524292
  exit
