// expect: pt_destination.s:3:15: error: pt cannot be the destination
.kernel k
  setp.eq.b32 pt, r0, 0
  exit
