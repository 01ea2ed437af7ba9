// expect: predicate_out_of_range.s:3:15: error: expected a predicate p0..p6 for the destination, found 'p7'
.kernel k
  setp.eq.b32 p7, r0, 0
  exit
