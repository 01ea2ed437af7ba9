// expect: unknown_symbol.s:4:21: error: unknown symbol 'B' (expected a number, .const or .param name)
.kernel k
.param A
  ld.param.b32 r0, [B]
  exit
