// expect: reserved_param_name.s:3:8: error: 'r1' is reserved and cannot name a parameter
.kernel k
.param r1
  exit
