// expect: barrier_id_out_of_range.s:3:12: error: barrier id 16 out of range [0, 15]
.kernel k
  bar.sync 16
  exit
