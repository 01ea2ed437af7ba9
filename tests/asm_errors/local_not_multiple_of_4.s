// expect: local_not_multiple_of_4.s:3:8: error: .local size must be a multiple of 4 bytes
.kernel k
.local 6
  exit
