// expect: TODO
.kernel k
.param r1
  exit
