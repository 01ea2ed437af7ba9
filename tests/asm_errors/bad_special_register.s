// expect: bad_special_register.s:3:11: error: expected a special register (%tid.x, %ntid.y, %ctaid.z, %nctaid.x, %laneid, %warpid, ...), found '%tid.w'
.kernel k
  s2r r0, %tid.w
  exit
