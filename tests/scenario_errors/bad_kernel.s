// A kernel with an assembly error, referenced by kernel_asm_error.yaml.
.kernel bad
  exit
  frobnicate r1
