// expect: duplicate_label.s:5:1: error: label 'top' is already defined
.kernel k
top:
  nop
top:
  exit
