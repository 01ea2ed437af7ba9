// A kernel that never ends: every warp loops forever. A run limit must stop it.
.kernel spin
.regs 2

  s2r r0, %tid.x
LOOP:
  add.u32 r0, r0, 1
  bra LOOP
  exit
