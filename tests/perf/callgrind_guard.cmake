# The speed regression guard (issue 39): runs `simtlm run SCENARIO` under callgrind, counting the
# host instructions inside sc_core::sc_start() (the simulation, without start-up and reporting),
# and fails when they grow more than 10% per warp instruction over the figure in BASELINE. A
# change that costs speed then has to say so, by committing a new figure beside the test.
# Callgrind counts instructions, so the figure does not depend on the machine's load.
# SIMTLM: the program; SCENARIO; BASELINE: the file with the committed figure; OUT: scratch prefix.
find_program(VALGRIND valgrind)
if(NOT VALGRIND)
  message("callgrind guard skipped: valgrind is not installed (apt-get install valgrind)")
  return()
endif()
execute_process(COMMAND ${VALGRIND} --tool=callgrind --callgrind-out-file=${OUT}.callgrind
                        "--toggle-collect=sc_core::sc_start()" ${SIMTLM} run ${SCENARIO}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 1500)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "simtlm run under callgrind failed (${rc}):\n${out}\n${err}")
endif()
file(STRINGS ${OUT}.callgrind totals REGEX "^totals: [0-9]+")
if(NOT totals MATCHES "^totals: ([0-9]+)")
  message(FATAL_ERROR "no totals line in ${OUT}.callgrind")
endif()
set(host ${CMAKE_MATCH_1})
if(NOT out MATCHES "issued ([0-9]+)")
  message(FATAL_ERROR "no 'issued N' in the run's output:\n${out}")
endif()
set(warp ${CMAKE_MATCH_1})
if(host LESS 1000000 OR warp EQUAL 0)
  message(FATAL_ERROR "callgrind counted ${host} instructions for ${warp} warp instructions: "
                      "the toggle on sc_core::sc_start() did not match")
endif()
file(STRINGS ${BASELINE} figure REGEX "^[0-9]+$")
math(EXPR per "${host} / ${warp}")
math(EXPR limit "${figure} * 110 / 100")
message(STATUS "${host} host instructions inside sc_start for ${warp} warp instructions: ${per} per "
               "warp instruction (committed ${figure}, limit ${limit})")
if(per GREATER limit)
  message(FATAL_ERROR "simulation speed regressed: ${per} host instructions per warp instruction, more "
                      "than 10% over the committed ${figure} (${BASELINE}); profile the change, or commit "
                      "the new figure there with the reason")
endif()
math(EXPR floor "${figure} * 90 / 100")
if(per LESS floor)
  message(STATUS "faster than the committed figure by more than 10%: commit ${per} in ${BASELINE}")
endif()
