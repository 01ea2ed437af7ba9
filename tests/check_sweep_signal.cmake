# SIGTERM (SIG) to a running sweep stops its children too (issue 14 item 19): starts the slow
# sweep, waits for its `simtlm run` children, signals the sweep, and checks that none is left.
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND sh -c "
  '${SIMTLM}' sweep '${SWEEP}' --out '${OUT}' --jobs 2 >/dev/null 2>&1 &
  sweep=$!
  kids=''
  for i in $(seq 1 200); do kids=$(pgrep -P $sweep); [ -n \"$kids\" ] && break; sleep 0.05; done
  [ -n \"$kids\" ] || { echo 'no child started'; kill $sweep; exit 3; }
  sleep 0.3
  kill -${SIG} $sweep
  wait $sweep
  sleep 0.5
  left=''
  for k in $kids; do  # a zombie (state Z) has ended: only its parent has not collected it
    st=$(ps -o stat= -p $k 2>/dev/null)
    case \"$st\" in ''|Z*) ;; *) left=\"$left $k\" ;; esac
  done
  [ -z \"$left\" ] && exit 0
  echo \"children still running after SIG${SIG} to the sweep:$left\"
  kill $left
  exit 1"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out TIMEOUT 60)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${out} (${rc})")
endif()
