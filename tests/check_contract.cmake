# The mechanism contract on one scenario (docs/mechanisms.md): for every mechanism `simtlm
# mechanisms --names` lists, `simtlm run SCENARIO --mechanism M --contract` passes (every buffer
# bit-identical to the interpreter's, issued plus removed warp instructions equal to its count)
# and, with -DRERUN=1, a second run under the other way of scheduling the SM's units
# (sm.scheduling=systemc: one process per unit, delta cycles, docs/timing-model.md) gives
# identical statistics: the result is reproducible and does not depend on the scheduling. A new
# mechanism in the registry is checked without touching this file. The first run simulates the SMs
# on several host threads (sim.threads 2, 3 or 8 in turn over the mechanisms; docs/performance.md)
# and the systemc rerun on one: identical statistics show the thread count changes nothing.
execute_process(COMMAND ${SIMTLM} mechanisms --names OUTPUT_VARIABLE names RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "simtlm mechanisms failed (${rc})")
endif()
string(REGEX REPLACE "\n$" "" names "${names}")
string(REPLACE "\n" ";" names "${names}")
# Compositions the contract covers too (docs/mechanisms.md, "Composition").
list(APPEND names darsie+bow-wr)
# -DSKIP=a,b leaves out mechanisms with a known bug on this scenario (each has its own test).
if(SKIP)
  string(REPLACE "," ";" skip "${SKIP}")
  list(REMOVE_ITEM names ${skip})
endif()
set(thread_counts 2 3 8)
set(k 0)
foreach(m ${names})
  math(EXPR k "(${k} + 1) % 3")
  list(GET thread_counts ${k} threads)
  set(runs 1)
  if(RERUN)
    set(runs 1 2)
  endif()
  foreach(i ${runs})
    set(scheduling sequential)
    if(i EQUAL 2)
      set(scheduling systemc)
    endif()
    execute_process(COMMAND ${SIMTLM} run ${SCENARIO} --mechanism ${m} --contract --set sm.scheduling=${scheduling}
                            --set sim.threads=${threads}
                            --json ${OUT}_${m}_${i}.json
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${m}, run ${i} (${scheduling}, sim.threads=${threads}): the contract failed (${rc}):\n${out}\n${err}")
    endif()
    file(READ ${OUT}_${m}_${i}.json json_${i})
    string(JSON stats_${i} GET "${json_${i}}" stats)
  endforeach()
  if(RERUN AND NOT stats_1 STREQUAL stats_2)
    message(FATAL_ERROR "${m}: the statistics of the sequential scheduling on ${threads} threads and the systemc scheduling differ")
  endif()
  message(STATUS "${m}: contract kept")
endforeach()
