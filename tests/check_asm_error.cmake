# Runs `simtlm asm CASE` and checks: non-zero exit, exactly the message given in the case's
# first line ("// expect: <text>"), naming the file, line and column.
file(STRINGS ${CASE} first LIMIT_COUNT 1)
string(REGEX REPLACE "^// expect: " "" expected "${first}")
execute_process(COMMAND ${SIMTLM} asm ${CASE} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                TIMEOUT 20)
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
