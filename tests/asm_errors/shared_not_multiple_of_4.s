// expect: TODO
.kernel k
.shared 1026
  exit
