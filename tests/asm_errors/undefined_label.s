// expect: undefined_label.s:4:11: error: undefined label 'done'
.kernel k
  setp.eq.b32 p0, r0, 0
  @p0 bra done
  exit
finish:
  exit
