// expect: missing_kernel.s:1:1: error: expected a .kernel directive
// a file with comments and blank lines only

# no kernel here
