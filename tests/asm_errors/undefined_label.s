// expect: TODO
.kernel k
  setp.eq.b32 p0, r0, 0
  @p0 bra done
  exit
finish:
  exit
