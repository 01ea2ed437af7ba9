// expect: bad_label_name.s:3:1: error: invalid label name 'loop.1'
.kernel k
loop.1:
  exit
