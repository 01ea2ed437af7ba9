# Runs `simtlm run SCENARIO --energy CASE` on a malformed energy table and checks: non-zero exit,
# and the message of the case's first line ("# expect: <text>") on one line of stderr (the checks
# of check_cli_error.cmake).
file(READ ${CASE} text)
string(FIND "${text}" "\n" eol)
string(SUBSTRING "${text}" 0 ${eol} first)
string(REGEX REPLACE "^# expect: " "" EXPECT "${first}")
set(ARGS run ${SCENARIO} --energy ${CASE})
include(${CMAKE_CURRENT_LIST_DIR}/check_cli_error.cmake)
