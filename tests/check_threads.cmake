# Parallel SM simulation (sim.threads, docs/performance.md): `simtlm run SCENARIO --mechanism M`
# on 1, 2, 3 and 8 host threads gives the same statistics (cycles, every counter, the energy's
# inputs) for every mechanism in MECHANISMS (comma-separated). 8 threads oversubscribe a 2-core
# host: the pool must still be right, only slower.
string(REPLACE "," ";" mechanisms "${MECHANISMS}")
foreach(m ${mechanisms})
  foreach(t 1 2 3 8)
    execute_process(COMMAND ${SIMTLM} run ${SCENARIO} --mechanism ${m} --set sim.threads=${t} --set sim.adapt_threads=false --json ${OUT}_${m}_${t}.json
                    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err TIMEOUT 600)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${m} on ${t} threads failed (${rc}): ${err}")
    endif()
    file(READ ${OUT}_${m}_${t}.json json)
    string(JSON stats_${t} GET "${json}" stats)
    string(JSON threads GET "${json}" config sim.threads)
    if(NOT threads EQUAL t)
      message(FATAL_ERROR "${m}: the result records sim.threads=${threads}, not ${t}")
    endif()
    if(NOT t EQUAL 1 AND NOT stats_${t} STREQUAL stats_1)
      message(FATAL_ERROR "${m}: the statistics on ${t} threads differ from those on one")
    endif()
  endforeach()
  string(JSON cycles GET "${stats_1}" gpu.cycles)
  message(STATUS "${m}: ${cycles} cycles on 1, 2, 3 and 8 threads")
endforeach()
