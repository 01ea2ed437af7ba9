// expect: never_guard.s:3:5: error: '@!pt' would never execute
.kernel k
  @!pt exit
  exit
