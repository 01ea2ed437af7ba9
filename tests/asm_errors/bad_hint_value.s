// expect: bad_hint_value.s:3:25: error: expected v, cr or dr for the darsie hint, found 'maybe'
.kernel k
  mov.b32 r0, 1 {darsie=maybe}
  exit
