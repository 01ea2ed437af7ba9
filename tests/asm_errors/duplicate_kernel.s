// expect: duplicate_kernel.s:3:1: error: only one .kernel per file
.kernel k
.kernel k2
  exit
