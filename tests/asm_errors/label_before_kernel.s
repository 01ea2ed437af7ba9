// expect: label_before_kernel.s:2:1: error: label before the .kernel directive
start:
.kernel k
  exit
