# Runs `simtlm run SCENARIO --energy CASE` on a malformed energy table and checks: non-zero exit,
# and the message of the case's first line ("# expect: <text>") on one line of stderr.
file(READ ${CASE} text)
string(FIND "${text}" "\n" eol)
string(SUBSTRING "${text}" 0 ${eol} first)
string(REGEX REPLACE "^# expect: " "" expected "${first}")
execute_process(COMMAND ${CMAKE_COMMAND} -DSIMTLM=${SIMTLM} "-DARGS=run;${SCENARIO};--energy;${CASE}"
                "-DEXPECT=${expected}" -P ${CMAKE_CURRENT_LIST_DIR}/check_cli_error.cmake
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${out}${err}")
endif()
