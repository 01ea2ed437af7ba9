# Runs `simtlm run SCENARIO` twice and checks that the two results' statistics are identical
# (DESIGN.md rule 5: same inputs, same cycles and statistics). Wall time lives under "host".
foreach(i 1 2)
  execute_process(COMMAND ${SIMTLM} run ${SCENARIO} --json ${OUT}_${i}.json RESULT_VARIABLE rc
                  OUTPUT_QUIET ERROR_VARIABLE err TIMEOUT 120)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run ${i} failed (${rc}): ${err}")
  endif()
  file(READ ${OUT}_${i}.json json_${i})
  string(JSON stats_${i} GET "${json_${i}}" stats)
endforeach()
string(JSON cycles GET "${stats_1}" gpu.cycles)
if(cycles EQUAL 0)
  message(FATAL_ERROR "gpu.cycles is 0")
endif()
if(NOT stats_1 STREQUAL stats_2)
  message(FATAL_ERROR "the two runs' statistics differ")
endif()
message(STATUS "deterministic: ${cycles} cycles both times")
