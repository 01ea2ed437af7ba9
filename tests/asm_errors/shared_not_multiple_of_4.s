// expect: shared_not_multiple_of_4.s:3:9: error: .shared size must be a multiple of 4 bytes
.kernel k
.shared 1026
  exit
