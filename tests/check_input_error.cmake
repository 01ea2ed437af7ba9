# Runs `simtlm ${SUBCOMMAND} CASE` on a malformed input and checks: non-zero exit, and the
# message given in the case's first line ("// expect: <text>" or "# expect: <text>") on one line
# of stderr, naming the file, line and column (the checks of check_cli_error.cmake).
file(READ ${CASE} text)  # not file(STRINGS): it would escape the ';' of messages
string(FIND "${text}" "\n" eol)
string(SUBSTRING "${text}" 0 ${eol} first)
string(REGEX REPLACE "^(//|#) expect: " "" EXPECT "${first}")
set(ARGS ${SUBCOMMAND} ${CASE})
include(${CMAKE_CURRENT_LIST_DIR}/check_cli_error.cmake)
