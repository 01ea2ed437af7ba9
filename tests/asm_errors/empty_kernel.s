// expect: empty_kernel.s:2:1: error: kernel 'k' has no instructions
.kernel k
.regs 4
.param A
// nothing to run
