# Runs `simtlm ${SUBCOMMAND} CASE` on a malformed input and checks: non-zero exit, and the
# message given in the case's first line ("// expect: <text>" or "# expect: <text>") on one line
# of stderr, naming the file, line and column.
file(READ ${CASE} text)  # not file(STRINGS): it would escape the ';' of messages
string(FIND "${text}" "\n" eol)
string(SUBSTRING "${text}" 0 ${eol} first)
string(REGEX REPLACE "^(//|#) expect: " "" expected "${first}")
execute_process(COMMAND ${SIMTLM} ${SUBCOMMAND} ${CASE} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err TIMEOUT 20)
if(rc EQUAL 0)
  message(FATAL_ERROR "expected a non-zero exit for ${CASE}, got 0\n${out}")
endif()
string(FIND "${err}" "${expected}" pos)
if(pos EQUAL -1)
  message(FATAL_ERROR "expected stderr to contain:\n  ${expected}\ngot:\n  ${err}")
endif()
string(REGEX MATCHALL "\n" lines "${err}")
list(LENGTH lines n)
if(n GREATER 1)
  message(FATAL_ERROR "expected one message line, got ${n}:\n${err}")
endif()
