// Every thread counts to N (a parameter): a long but finite run, for the run limits and the
// progress line.
.kernel count
.regs 2
.param N

  ld.param.b32 r1, [N]
  mov.b32 r0, 0
LOOP:
  add.u32 r0, r0, 1
  setp.lt.u32 p0, r0, r1
  @p0 bra LOOP
  exit
