// expect: missing_kernel.s:1:1: error: expected a .kernel directive; the file defines no kernel
// a file with comments and blank lines only

# no kernel here
